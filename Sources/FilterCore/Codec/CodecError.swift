/// An image file that could not be read or written. The description names the file and the cause, in the
/// product's words with the codec library's message where it has one.
package struct CodecError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable {
        /// The file could not be opened, read or written.
        case io
        /// The file is not in the format asked of the decoder (or in no format we read).
        case unrecognised
        /// The data is corrupt or truncated.
        case corrupt
        /// A valid file of a variant the codec library does not read (12-bit or lossless JPEG).
        case unsupported
        /// The declared size exceeds the configured pixel or memory limit.
        case tooLarge
        /// The request itself is invalid (a layout the format cannot store, rows past the end).
        case invalidRequest
    }

    package let kind: Kind
    package let path: String
    package let message: String

    package init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }

    /// The error for a failed write: the system's, where an errno stopped it (disk full, file-size limit), else the
    /// codec library's message.
    package static func writing(_ path: String, errno code: Int32, library message: String) -> Error {
        code != 0 ? OutputError.writing(path, errno: code)
            : CodecError(kind: .io, path: path, message: message.isEmpty ? "write failed" : message)
    }
}
