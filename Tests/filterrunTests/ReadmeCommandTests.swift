import Foundation
import TestSupport
import XCTest

/// The README's command listings run, as its Swift listings compile: every line of the tour's `sh` block, from a
/// copy of the repository's layout (recipes/, samples/), with this build's filterrun first on PATH.
extension FilterRunTests {
    /// The lines of the first ```sh block after `heading`.
    static func readmeCommands(after heading: String) throws -> [String] {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.components(separatedBy: heading).dropFirst().first,
              let block = section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first
        else { throw XCTSkip("README has no sh block after \(heading)") }
        return block.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    func testTheReadmesTourRuns() throws {
        let commands = try Self.readmeCommands(after: "## A short tour")
        XCTAssertGreaterThanOrEqual(commands.count, 6)
        for name in ["recipes", "samples"] {
            try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent(name),
                                                       withDestinationURL: Fixtures.repository.appendingPathComponent(name))
        }
        let bin = (Self.binary as NSString).deletingLastPathComponent
        for command in commands {
            let r = try run(["-c", "cd \"$0\" && PATH=\"$1:$PATH\" && \(command)", scratch.path, bin], executable: "/bin/sh")
            XCTAssertEqual(r.code, 0, "\(command)\n\(r.stderr)")
        }
        for output in ["out/vignette.png", "out/thumb.jpg", "out/bw.jpg", "out/vintage/coffee_600x400_rgb8.png",
                       "out/stronger.png", "out/explained.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path(output)), output)
        }
    }
}
