@testable import VulkanBackend
import FilterCore
import TestSupport
import XCTest

/// The Vulkan backend reaches each primitive's kernels through its descriptor (Sources/VulkanBackend/Primitives):
/// every kind of primitive the catalogue lowers to must have that encoding, and the two-pass ones say so (the band
/// schedule counts their temporary).
final class PrimitiveEncodingTests: XCTestCase {
    func testEveryPrimitiveKindHasAVulkanEncoding() {
        let kinds = ParameterSweep.primitivesByKind()
        XCTAssertEqual(kinds.count, 24, "kinds reached: \(kinds.keys.sorted())")
        for (name, primitive) in kinds {
            XCTAssertTrue(primitive.descriptor is any VulkanPrimitive, "\(name) has no Vulkan encoding")
        }
        XCTAssertTrue(VulkanRun.holdsTemporary(.separableConvolution(horizontal: [1], vertical: [1])))
        XCTAssertTrue(VulkanRun.holdsTemporary(.boxBlur(radius: 2)))
        XCTAssertFalse(VulkanRun.holdsTemporary(.sobel))
    }

    func testEveryPointOperationHasAVulkanKernel() {
        let kinds = ParameterSweep.pointOpsByKind()
        XCTAssertEqual(kinds.count, 12, "kinds reached: \(kinds.keys.sorted())")
        for (name, op) in kinds {
            XCTAssertTrue(op.descriptor is any VulkanPointOp, "\(name) has no Vulkan kernel")
        }
    }
}
