import Foundation

/// An output that could not be created, written or published. The description names the file and the cause.
public struct OutputError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The destination exists and replacing was not asked for (or it appeared while rendering).
        case exists
        /// The destination is a directory, device, FIFO, socket or dangling link: only regular files are replaced.
        case notRegularFile
        /// The destination is one of the render's inputs.
        case isInput
        /// The output's name gives no format we write.
        case unknownFormat
        /// The directory is missing or not writable.
        case notWritable
        /// The file system is full, or a file-size limit was reached.
        case diskFull
        /// Any other I/O failure.
        case io
    }

    public let kind: Kind
    public let path: String
    public let message: String

    package init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }

    /// The error for a failed write of `path`, from the errno the system gave.
    package static func writing(_ path: String, errno code: Int32) -> OutputError {
        switch code {
        case ENOSPC, EDQUOT: return OutputError(.diskFull, path: path, "disk full writing the output")
        case EFBIG: return OutputError(.diskFull, path: path, "the output exceeds the file-size limit (ulimit -f)")
        case EACCES, EPERM, EROFS: return OutputError(.notWritable, path: path, "cannot write: \(String(cString: strerror(code)))")
        default: return OutputError(.io, path: path, "cannot write: \(String(cString: strerror(code)))")
        }
    }
}
