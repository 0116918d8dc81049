import FilterCore
import Foundation

/// How the library publishes files, for tools that write outside a render too (a batch's summary) and that
/// clean up after themselves: every output goes to a temporary beside its destination and is moved into place
/// whole, and no temporary survives an error, a signal or the process's exit.
public enum OutputFiles {
    /// Installs the signal and exit handlers that remove this process's temporary files (SIGTERM, SIGHUP and exit;
    /// SIGINT too when `interrupt` is true: a tool that handles Ctrl-C itself passes false).
    public static func installCleanupHandlers(interrupt: Bool) {
        OutputFile.installCleanupHandlers(interrupt: interrupt)
    }

    /// Removes every temporary file this process has open, before an immediate exit.
    public static func removeAllTemporaries() { OutputFile.removeAllTemporaries() }

    /// Removes the temporaries that killed runs left under `directory` (and its subfolders): those no process holds
    /// a lock on. Returns their paths.
    @discardableResult
    public static func sweepStaleTemporaries(under directory: String) -> [String] {
        OutputFile.sweepStaleTemporaries(under: directory, recursive: true, before: Date())
    }

    /// Writes `data` to `path` atomically: through a temporary beside it, moved into place when complete; an
    /// existing file is replaced only when `replace` is true.
    public static func write(_ data: Data, to path: String, replace: Bool) throws {
        let file = try OutputFile(path: path, replace: replace)
        let handle = FileHandle(fileDescriptor: try file.writerDescriptor(), closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
        try file.publish()
    }
}
