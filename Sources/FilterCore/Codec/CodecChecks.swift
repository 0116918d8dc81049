/// The row bookkeeping every codec shares: a request past the last row, a file finished short, and decoders that
/// hold a whole picture (libwebp, libtiff) serving it row by row.
extension CodecError {
    /// Refuses `count` more rows after `done` of an image `height` rows tall.
    package static func checkRows(_ path: String, done: Int, count: Int, height: Int) throws {
        guard count >= 0, done + count <= height else {
            throw CodecError(kind: .invalidRequest, path: path, message: "more rows than the image height \(height)")
        }
    }

    /// Refuses to finish a file before its last row.
    package static func checkComplete(_ path: String, written: Int, height: Int) throws {
        guard written == height else {
            throw CodecError(kind: .invalidRequest, path: path, message: "only \(written) of \(height) rows written")
        }
    }
}

/// A decoded picture held whole, packed rows of `rowBytes`.
package enum WholePicture {
    /// Copies rows `first ..< first + count` of `pixels` to `destination`, `stride` bytes apart.
    package static func copyRows(_ pixels: [UInt8], rowBytes: Int, first: Int, count: Int,
                                 into destination: UnsafeMutableRawPointer, stride: Int) {
        pixels.withUnsafeBytes { all in
            for i in 0..<count {
                (destination + i * stride).copyMemory(from: all.baseAddress! + (first + i) * rowBytes, byteCount: rowBytes)
            }
        }
    }
}

extension DecodeLimits {
    /// Refuses, before decoding, a picture a codec must hold whole: empty, over `maxPixels`, or needing more than
    /// `maxMemory` (`heldBytes`: the decoded pixels and whatever else the codec keeps, such as the file itself).
    package func checkWhole(_ path: String, format: String, width: Int, height: Int, heldBytes: (Int) -> Double) throws {
        guard width > 0, height > 0 else {
            throw CodecError(kind: .corrupt, path: path, message: "corrupt \(format): the image is \(width)×\(height)")
        }
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            throw CodecError(kind: .tooLarge, path: path, message: "image is \(width)×\(height) pixels, over the limit of "
                             + "\(maxPixels) (\(SettingName.maxPixels))")
        }
        let held = heldBytes(pixels.partialValue)
        if held > Double(maxMemory) {
            throw CodecError(kind: .tooLarge, path: path, message: String(
                format: "decoding this %d×%d %@ needs %.2f GiB held whole, over the memory limit of %.2f GiB (\(SettingName.maxMemory))",
                width, height, format, held / 1_073_741_824, Double(maxMemory) / 1_073_741_824))
        }
    }
}
