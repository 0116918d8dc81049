import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// Hands `test` to libFuzzer's driver with the process's arguments and exits with its status.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(llvmFuzzerRunDriver(&argc, &argv, test))
}

/// One scratch file per process (removed at exit), rewritten in place for each input: a descriptor at its start
/// is handed to a decoder, so an execution costs a write, not a file creation.
public final class ScratchFile {
    public let path: String
    private let fd: Int32

    public init(suffix: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(getpid())\(suffix)").path
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        ScratchFile.paths.append(path)
        atexit { for path in ScratchFile.paths { unlink(path) } }
    }

    nonisolated(unsafe) static var paths: [String] = []

    /// Replaces the contents with `bytes`; returns a new descriptor at the start (the caller owns it).
    public func write(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        ftruncate(fd, 0)
        _ = pwrite(fd, bytes, count, 0)
        let copy = open(path, O_RDONLY | O_CLOEXEC)
        return copy
    }
}
