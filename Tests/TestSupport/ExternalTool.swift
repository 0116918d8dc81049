import Foundation
import XCTest

/// The independent command-line tools codec tests compare with (dwebp, heif-convert…): run one, or skip the test
/// when its Debian package is not installed.
public enum ExternalTool {
    /// Runs `name` with `arguments`, its output discarded; fails the test on a non-zero exit.
    public static func run(_ name: String, _ arguments: [String], package: String,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        guard let path = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + name }).first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("\(name) (Debian's \(package)) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(name) \(arguments)", file: file, line: line)
    }
}
