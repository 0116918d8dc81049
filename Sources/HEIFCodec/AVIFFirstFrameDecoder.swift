import FilterCore
import Foundation

/// An AVIF that libheif 1.15 cannot read as a still, read through libavif instead: a sequence with no primary item
/// (an `avis` file of tracks alone), a layered image whose operating point selects one layer. The first frame (or
/// the image) comes as 8-bit RGBA through libavif's conversion, with a note when it is one of several frames, as
/// other animations read as stills have. Holds libavif's frame and its RGBA copy, refused beyond the limits.
package final class AVIFFirstFrameDecoder: DescriptorDecoder {
    package let path: String
    package let formatName = "AVIF"
    package let width: Int
    package let height: Int
    package let format = PixelFormat.rgba8
    package let metadata: ImageMetadata
    package let fileWarnings: [String]
    package var decodingBytes: Double { Double(width * height) * reader.heldBytesPerPixel }
    package var nextRow: Int { held.nextRow }

    private let reader: AVIFSequenceReader
    private var held = HeldPicture()

    /// Reads from `fd` (owned and closed by the decoder, at its start); `name` is what messages call it.
    package init(descriptor fd: Int32, name path: String, limits: DecodeLimits) throws {
        self.path = path
        reader = try AVIFSequenceReader(descriptor: fd, name: path, limits: limits)
        width = reader.width
        height = reader.height
        var described = reader.metadata
        described.codingPoints = reader.codingPoints
        metadata = described
        fileWarnings = reader.frameCount > 1 ? [CodecError.firstFrameNote(path, frames: reader.frameCount)] : []
    }

    package func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        let reader = self.reader, path = self.path
        _ = try held.read(path, height: height, rowBytes: width * 4, into: destination, stride: stride, count: count) {
            guard let frame = try reader.nextFrame() else {
                throw CodecError(kind: .corrupt, path: path, message: "corrupt AVIF: it holds no image")
            }
            return frame.pixels
        }
    }
}
