import VulkanBackend
import XCTest

/// Memory charged per heap: on a discrete GPU staging lives in a host heap and leaves the device budget whole; on
/// unified memory everything is one heap's. Needs no device.
final class HeapLedgerTests: XCTestCase {
    func testStagingInAHostHeapLeavesTheDeviceBudgetWhole() {
        let mib = 1 << 20
        var discrete = HeapLedger(heaps: [.init(size: 1024 * mib, deviceLocal: true), .init(size: 16384 * mib, deviceLocal: false)],
                                  deviceBudget: 100 * mib)
        discrete.charge(90 * mib, heap: 0)
        XCTAssertTrue(discrete.fits(500 * mib, heap: 1), "staging fits the host heap")
        discrete.charge(500 * mib, heap: 1)
        XCTAssertEqual(discrete.availableDeviceBytes, 10 * mib, "staging did not spend device memory")
        XCTAssertTrue(discrete.fits(10 * mib, heap: 0))
        XCTAssertFalse(discrete.fits(10 * mib + 1, heap: 0), "the device budget holds")
        XCTAssertFalse(discrete.fits(16000 * mib, heap: 1), "a host heap holds its own size")
        discrete.release(90 * mib, heap: 0)
        XCTAssertEqual(discrete.availableDeviceBytes, 100 * mib)

        var unified = HeapLedger(heaps: [.init(size: 2048 * mib, deviceLocal: true)], deviceBudget: 100 * mib)
        unified.charge(60 * mib, heap: 0)  // a readback buffer
        XCTAssertEqual(unified.availableDeviceBytes, 40 * mib, "on unified memory staging is device memory")
        XCTAssertFalse(unified.fits(41 * mib, heap: 0))
    }
}
