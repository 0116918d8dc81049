import FilterCore
import XCTest

/// A device copy in ordinary memory, counting calls, standing in for a backend's allocation.
private final class FakeDevice: DeviceStorage {
    var bytes: [UInt8]
    init(count: Int) { bytes = [UInt8](repeating: 0, count: count) }
    func upload(from source: UnsafeRawPointer, byteCount: Int) throws {
        bytes = Array(UnsafeRawBufferPointer(start: source, count: byteCount))
    }
    func download(to destination: UnsafeMutableRawPointer, byteCount: Int) throws {
        bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
    }
}

final class ResidencyTests: XCTestCase {
    func testDataMovesOnlyWhenTheOtherSideNeedsIt() throws {
        let ledger = TransferLedger()
        let buffer = PixelBuffer(width: 4, height: 2, format: .rgba8, ledger: ledger)
        let device = FakeDevice(count: buffer.byteCount)
        buffer.attach(device: device)
        try buffer.mutableHostBytes().storeBytes(of: 42, as: UInt8.self)
        XCTAssertEqual(buffer.residency, .host)

        try buffer.prepareDevice()
        try buffer.prepareDevice()
        XCTAssertEqual(buffer.residency, .both)
        XCTAssertEqual(ledger.snapshot.uploads, 1)
        XCTAssertEqual(device.bytes[0], 42)

        _ = try buffer.hostBytes()
        XCTAssertEqual(ledger.snapshot.downloads, 0, "both copies current: reading the host moves nothing")

        device.bytes[0] = 7
        buffer.deviceWasWritten()
        XCTAssertEqual(buffer.residency, .device)
        XCTAssertEqual(try buffer.hostBytes().load(as: UInt8.self), 7)
        _ = try buffer.hostBytes()
        XCTAssertEqual(ledger.snapshot.downloads, 1)
        XCTAssertEqual(ledger.snapshot.bytesDownloaded, buffer.byteCount)

        _ = try buffer.mutableHostBytes()
        XCTAssertEqual(buffer.residency, .host)
        try buffer.prepareDevice()
        XCTAssertEqual(ledger.snapshot.uploads, 2)
        XCTAssertEqual(ledger.snapshot.bytesUploaded, 2 * buffer.byteCount)
    }

    func testFormatsDescribeTheirLayout() {
        XCTAssertEqual(PixelFormat.greyA16.bytesPerPixel, 4)
        XCTAssertEqual(PixelFormat.rgba16f.bytesPerPixel, 8)
        XCTAssertEqual(PixelFormat.rgba32f.bytesPerPixel, 16)
        for format in PixelFormat.allCases where !format.isFloat {
            XCTAssertEqual(PixelFormat.integer(channels: format.channels, depth: format.depth), format)
        }
    }
}
