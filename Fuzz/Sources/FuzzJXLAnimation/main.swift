import FuzzDriver
import FuzzRender

/// Any bytes as a JPEG XL animation, frame by frame: libjxl's header, frame headers and coalesced frames, durations
/// from its ticks, the inversion run on every frame and the frames written as an animated WebP, under FuzzRender's
/// small limits. A result or a RenderError; anything else is the finding.
runFuzzer { FuzzRender.animate($0, $1, name: "fuzz.jxl", maxWork: 4e6) }
