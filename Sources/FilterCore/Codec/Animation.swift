/// One frame of an animation composed on its canvas (coalesced: the earlier frames' disposal and blending applied),
/// as a viewer shows it: RGBA, 8 bits a sample, `width × height × 4` bytes.
package struct AnimationFrame: Sendable {
    package var pixels: [UInt8]
    package var durationMilliseconds: Int

    package init(pixels: [UInt8], durationMilliseconds: Int) {
        self.pixels = pixels
        self.durationMilliseconds = durationMilliseconds
    }
}

/// An animation read a frame at a time: only the canvas (and, where a frame asks to restore it, one earlier canvas)
/// is held, never the frames read before.
package protocol AnimationReader: AnyObject {
    var path: String { get }
    var width: Int { get }
    var height: Int { get }
    /// Times the animation plays, counted as WebP counts them (0: forever). Known once the first frame is read.
    var loopCount: Int { get }
    /// The embedded ICC profile the frames' colour is in, if any.
    var iccProfile: [UInt8]? { get }
    /// The frames' colour as code points when there is no profile and it is not sRGB (AVIF sequences).
    var codingPoints: ColourCodingPoints? { get }
    /// The file's EXIF (the TIFF structure) and XMP, as an output keeps them under `--keep-metadata`.
    var metadata: ImageMetadata { get }
    /// Whether the frames come turned upright by the file's orientation (JPEG XL), so an output's EXIF says 1;
    /// otherwise they come as stored and the tag is kept.
    var framesUpright: Bool { get }
    /// Bytes the reader holds for each canvas pixel while a frame is out (its library's canvases, the frame
    /// given out), counted against the memory limit with the rest of an animation's render.
    var heldBytesPerPixel: Double { get }
    /// Frames the file declares in its header (WebP), so the work can be refused before any is decoded; nil where
    /// only reading them tells (GIF, JPEG XL).
    var declaredFrameCount: Int? { get }
    /// The next composed frame; nil after the last.
    func nextFrame() throws -> AnimationFrame?
}

extension AnimationReader {
    package var codingPoints: ColourCodingPoints? { nil }
    package var metadata: ImageMetadata { ImageMetadata(orientation: 1, iccProfile: iccProfile) }
    package var framesUpright: Bool { false }
    package var declaredFrameCount: Int? { nil }
}

/// Writes an animation a frame at a time and publishes it atomically at `finish()`; dropping it unfinished removes
/// the output.
package protocol AnimationWriter: AnyObject {
    var path: String { get }
    /// Adds a frame of `width × height` RGBA samples shown for `durationMilliseconds`.
    func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws
    func finish() throws
}
