@testable import VulkanBackend
import XCTest

/// The Swift ↔ GLSL interface, checked rather than held by convention: every kernel asked for by case has its
/// source and every source a case; the push-constant block Swift fills is the one the shaders declare, and fits the
/// 128 bytes every device allows. (Blend and resampling modes are numbered by name in KernelCodes.swift; every mode
/// is compared with the CPU in CrossBackendTests.) Needs no device.
final class KernelInterfaceTests: XCTestCase {
    func testEveryKernelHasItsSourceAndEverySourceAKernel() {
        let files = Set(ShaderSources.files.keys.filter { $0.hasSuffix(".comp") && !$0.contains("/") })
        XCTAssertEqual(Set(Kernel.allCases.map { "\($0.rawValue).comp" }), files)
        for kernel in Kernel.allCases {
            XCTAssertTrue(ShaderLibrary.source(kernel).hasPrefix("#version 450"), "\(kernel)")
            XCTAssertFalse(ShaderLibrary.source(kernel).contains("#include"), "\(kernel): an include was not expanded")
        }
    }

    func testPushConstantsMirrorTheShadersBlockWithinTheDeviceMinimum() throws {
        let common = try XCTUnwrap(ShaderSources.files["include/common.glsl"])
        let block = try XCTUnwrap(common.range(of: "uniform Push {").map { common[$0.upperBound...] }?
            .prefix { $0 != "}" })
        let declared = block.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: ";")[0].split(separator: " ")
            return words.count == 2 ? "\(words[0]) \(words[1])" : nil
        }
        let mirrored = Mirror(reflecting: PushConstants()).children.map { child -> String in
            let type = child.value is SIMD4<Int32> ? "ivec4" : (child.value is SIMD4<Float> ? "vec4" : "\(Swift.type(of: child.value))")
            return "\(type) \(child.label ?? "?")"
        }
        XCTAssertEqual(mirrored, declared)
        XCTAssertEqual(MemoryLayout<PushConstants>.size, 16 * declared.count, "std430 packs vec4s without gaps")
        XCTAssertLessThanOrEqual(MemoryLayout<PushConstants>.size, 128, "maxPushConstantsSize is at least 128 everywhere")
    }
}
