import Foundation

/// Counts every move of pixel data between host and device memory. One ledger is shared by the buffers of a render,
/// so `--stats` can report exactly what moved.
public final class TransferLedger: @unchecked Sendable {
    public struct Counts: Sendable, Equatable, Codable, CustomStringConvertible {
        public var uploads = 0
        public var downloads = 0
        public var bytesUploaded = 0
        public var bytesDownloaded = 0
        public init() {}
        public var description: String {
            "\(uploads) up (\(bytesUploaded) B), \(downloads) down (\(bytesDownloaded) B)"
        }
    }

    private let lock = NSLock()
    private var counts = Counts()

    package init() {}

    package var snapshot: Counts { lock.withLock { counts } }

    package func recordUpload(bytes: Int) {
        lock.withLock { counts.uploads += 1; counts.bytesUploaded += bytes }
    }

    package func recordDownload(bytes: Int) {
        lock.withLock { counts.downloads += 1; counts.bytesDownloaded += bytes }
    }
}
