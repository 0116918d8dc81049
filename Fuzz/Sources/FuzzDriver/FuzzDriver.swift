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
