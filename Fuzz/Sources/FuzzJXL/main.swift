import FuzzDriver
import FuzzRender

/// Any bytes as a JPEG XL, through the public face: its header and colour read by libjxl, its first frame
/// decoded on libjxl's threads. Rendered as FuzzRender describes.
runFuzzer { FuzzRender.invert($0, $1) }
