import FuzzDriver
import FuzzRender

/// Any bytes as an animated WebP, frame by frame: the demuxed header's canvas and frame count checked before
/// libwebp's animation decoder allocates, each frame composed, inverted and written as an animated WebP, under
/// FuzzRender's small limits. A result or a RenderError; anything else is the finding.
runFuzzer { FuzzRender.animate($0, $1, name: "fuzz.webp", maxWork: 4e7) }
