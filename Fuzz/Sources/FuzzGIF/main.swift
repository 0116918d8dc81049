import FuzzDriver
import FuzzRender

/// Any bytes as a GIF, through the public face: its records read by giflib up to the first image, that image
/// decoded (interlaced or not) and composed. Rendered as FuzzRender describes.
runFuzzer { FuzzRender.invert($0, $1) }
