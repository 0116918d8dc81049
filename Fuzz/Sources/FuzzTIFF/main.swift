import FuzzDriver
import FuzzRender

/// Any bytes as a TIFF, through the public face: its directory read (tags, ICC, orientation), its strips or tiles
/// decoded (or its RGBA interface run), its profile applied. Rendered as FuzzRender describes.
runFuzzer { FuzzRender.invert($0, $1) }
