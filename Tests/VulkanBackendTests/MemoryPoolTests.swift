import TestSupport
import VulkanBackend
import XCTest

/// The free-range bookkeeping of a shared memory block: pieces aligned as asked, never overlapping, merged back
/// into one range when all are returned in any order. (Every recipe's run under best-practices validation, in
/// filterrunTests, checks the pool with a real device.)
final class MemoryPoolTests: XCTestCase {
    func testPiecesAreAlignedDisjointAndMergeBackInAnyOrder() throws {
        var generator = SplitMix64(seed: 7)
        for round in 0..<50 {
            let block = MemoryBlock(memory: OpaquePointer(bitPattern: 0x1000)!, size: 1 << 20, type: 0, mapped: nil)
            var pieces: [(offset: Int, size: Int)] = []
            while true {
                let size = 1 + Int(generator.next() % 40_000), alignment = 1 << Int(generator.next() % 9)
                guard let offset = block.carve(size, alignment: alignment) else { break }
                XCTAssertEqual(offset % alignment, 0, "round \(round)")
                XCTAssertLessThanOrEqual(offset + size, 1 << 20)
                for other in pieces {
                    XCTAssertTrue(offset + size <= other.offset || other.offset + other.size <= offset, "overlap in round \(round)")
                }
                pieces.append((offset, size))
            }
            XCTAssertGreaterThan(pieces.count, 10)
            XCTAssertNil(block.carve(1 << 20, alignment: 1), "a full-size piece no longer fits")
            pieces.shuffle(using: &generator)
            for piece in pieces { block.giveBack(offset: piece.offset, bytes: piece.size) }
            XCTAssertEqual(block.used, 0)
            XCTAssertEqual(block.free.count, 1, "round \(round): \(block.free)")
            XCTAssertEqual(block.free.first?.size, 1 << 20)
            XCTAssertEqual(block.carve(1 << 20, alignment: 256), 0, "the whole block is one range again")
        }
    }
}

/// Under validation (the test suite) the device runs with robustBufferAccess where it offers it, as the issue of
/// drivers that do not bounds-check asks; the portability subset and enumeration are enabled where present.
final class DeviceFeatureTests: VulkanTestCase {
    func testRobustBufferAccessIsOnUnderValidation() throws {
        try XCTSkipUnless(VulkanValidation.isEnabled, "only under FILTERRUN_VULKAN_VALIDATION (scripts/test.sh sets it)")
        // GPU-assisted validation checks bounds itself, and only where robustBufferAccess is off.
        XCTAssertEqual(try VulkanContext.shared().robustBufferAccess, !VulkanValidation.isGPUAssisted,
                       "lavapipe and every desktop driver offer it")
    }
}
