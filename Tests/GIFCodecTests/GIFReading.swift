import FilterCore
import Foundation
import GIFCodec
import XCTest

/// Reading GIFs in the tests: our first frame as RGBA, and Pillow's (an independent decoder).
protocol GIFReading: XCTestCase {
    var scratch: URL! { get }
}

extension GIFReading {
    func ours(_ path: String, limits: DecodeLimits = DecodeLimits()) throws -> (decoder: GIFDecoder, rgba: [UInt8]) {
        let decoder = try GIFDecoder(path: path, limits: limits)
        let samples = [UInt8](try decoder.readAll().packedData())
        guard decoder.format == .rgb8 else { return (decoder, samples) }
        var rgba = [UInt8]()
        for p in stride(from: 0, to: samples.count, by: 3) { rgba += samples[p..<(p + 3)] + [255] }
        return (decoder, rgba)
    }

    /// Pillow's first frame as RGBA (Debian's python3-pil), or a skip where it is not installed.
    func pillow(_ path: String) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no /usr/bin/python3") }
        let out = scratch.appendingPathComponent(UUID().uuidString + ".rgba").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sys\ntry:\n from PIL import Image\nexcept ImportError:\n sys.exit(3)\n"
                             + "open(sys.argv[2], 'wb').write(Image.open(sys.argv[1]).convert('RGBA').tobytes())", path, out]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 3 { throw XCTSkip("Pillow (python3-pil) is not installed") }
        XCTAssertEqual(process.terminationStatus, 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }
}
