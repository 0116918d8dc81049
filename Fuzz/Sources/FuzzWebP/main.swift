import FuzzDriver
import FuzzRender

/// Any bytes as a WebP, through the public face: its RIFF chunks demuxed (ICCP, EXIF, animation frames), the still
/// or first frame decoded, its profile applied and its orientation read. Rendered as FuzzRender describes.
runFuzzer { FuzzRender.invert($0, $1) }
