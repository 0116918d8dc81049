@testable import CPUBackend
import FilterCore
import XCTest

/// The write-behind thread: strips reach the sink in order, the sink's first error reaches the producer, and a
/// strip written after the end is refused (its buffer freed once).
final class EncoderThreadTests: XCTestCase {
    final class Sink: ImageRowSink {
        var rows: [UInt8] = []
        var failAt: Int?
        struct Full: Error {}
        func writeRows(_ source: UnsafeRawPointer, stride: Int, count: Int) throws {
            if let failAt, rows.count >= failAt { throw Full() }
            rows += UnsafeRawBufferPointer(start: source, count: stride * count)
        }
    }

    func testStripsArriveInOrderAndAStripAfterTheEndIsRefused() throws {
        let sink = Sink()
        let writer = EncoderThread(sink: sink)
        for strip in 0..<50 {
            var bytes = [UInt8](repeating: UInt8(strip), count: 8 * (1 + strip % 3))
            try writer.write(&bytes, stride: 8, count: 1 + strip % 3)
        }
        try writer.finish()
        XCTAssertEqual(sink.rows, (0..<50).flatMap { [UInt8](repeating: UInt8($0), count: 8 * (1 + $0 % 3)) })
        var late = [UInt8](repeating: 0, count: 8)
        XCTAssertThrowsError(try writer.write(&late, stride: 8, count: 1))
    }

    func testTheSinksErrorReachesTheProducer() {
        let sink = Sink()
        sink.failAt = 64
        let writer = EncoderThread(sink: sink)
        var bytes = [UInt8](repeating: 7, count: 32)
        var thrown: Error?
        do {
            for _ in 0..<100 { try writer.write(&bytes, stride: 32, count: 1) }
            try writer.finish()
        } catch { thrown = error }
        try? writer.finish()
        XCTAssertTrue(thrown is Sink.Full, "\(String(describing: thrown))")
        XCTAssertEqual(sink.rows.count, 64)
    }
}
