/// A PNG that could not be read or written. The description names the file and gives libpng's message.
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The file could not be opened, read or written.
        case io
        /// The file is not a PNG (bad signature).
        case notPNG
        /// The data is corrupt or truncated.
        case corrupt
        /// The declared size exceeds the configured pixel limit.
        case tooLarge
        /// The request itself is invalid (a layout PNG cannot store, rows past the end).
        case invalidRequest
    }

    public let kind: Kind
    public let path: String
    public let message: String

    public var description: String { "\(path): \(message)" }
}
