@testable import CPUBackend
import FilterCore
import TestSupport
import XCTest

/// The CPU backend reaches each primitive's stages through its descriptor (Sources/CPUBackend/Primitives): every
/// kind of primitive the catalogue lowers to must have that factory, or a render of it fails at planning.
final class PrimitiveKernelTests: XCTestCase {
    func testEveryPrimitiveKindHasACPUKernel() {
        let kinds = ParameterSweep.primitivesByKind()
        XCTAssertEqual(kinds.count, 24, "kinds reached: \(kinds.keys.sorted())")
        for (name, primitive) in kinds {
            XCTAssertTrue(primitive.descriptor is any CPUPrimitive, "\(name) has no CPU kernel")
        }
    }

    func testEveryPointOperationHasACPUKernel() {
        let kinds = ParameterSweep.pointOpsByKind()
        XCTAssertEqual(kinds.count, 12, "kinds reached: \(kinds.keys.sorted())")
        for (name, op) in kinds {
            XCTAssertTrue(op.descriptor is any CPUPointOp, "\(name) has no CPU kernel")
        }
    }
}
