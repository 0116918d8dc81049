import FilterCore
import Foundation
@testable import VulkanBackend
import XCTest

/// The Swift ↔ GLSL interface, checked rather than held by convention: every kernel asked for by case has its
/// source and every source a case; the push-constant block Swift fills is the one the shaders declare, and fits the
/// 128 bytes every device allows. (The codes kernels switch on — blend modes, resampling
/// kernels, generators, flips and turns — are generated from Swift as named constants, KernelConstants; every mode
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

    /// Shaders name the codes they switch on: no numeric `case`, every name they use is generated, and every blend
    /// mode, generator and reorientation is handled by name in its kernel.
    func testShadersNameEveryCodeTheySwitchOn() throws {
        let generated = Set(KernelConstants.groups.flatMap { group in
            group.names.map { "\(group.prefix)_\(KernelConstants.constantName($0))" }
        })
        XCTAssertTrue(generated.contains("BLEND_SOFT_LIGHT") && generated.contains("REORIENT_ROTATE90"))
        let numericCase = try NSRegularExpression(pattern: "case\\s+[0-9]+\\s*:")
        let constant = try NSRegularExpression(pattern: "\\b(BLEND|KERNEL|GENERATOR|REORIENT)_[A-Z0-9_]+\\b")
        for kernel in Kernel.allCases {
            let source = ShaderLibrary.source(kernel)
            let whole = NSRange(source.startIndex..., in: source)
            XCTAssertNil(numericCase.firstMatch(in: source, range: whole), "\(kernel) switches on a bare number")
            for match in constant.matches(in: source, range: whole) {
                let name = String(source[Range(match.range, in: source)!])
                XCTAssertTrue(generated.contains(name), "\(kernel) uses \(name), which Swift does not generate")
            }
        }
        for (kernel, prefix) in [(Kernel.blend, "BLEND"), (.generate, "GENERATOR"), (.reorient, "REORIENT"), (.warp, "KERNEL")] {
            let body = try XCTUnwrap(ShaderSources.files["\(kernel.rawValue).comp"])
            let names = try XCTUnwrap(KernelConstants.groups.first { $0.prefix == prefix }).names
            for name in names where prefix != "KERNEL" || name != "lanczos3" {
                XCTAssertTrue(body.contains("\(prefix)_\(KernelConstants.constantName(name))"), "\(kernel) never names \(name)")
            }
        }
    }

    /// Codes follow each list's order and are distinct within a group.
    func testEachGroupsCodesAreItsOrder() {
        XCTAssertEqual(BlendMode.allCases.map(\.kernelCode), (0..<Int32(BlendMode.allCases.count)).map { $0 })
        XCTAssertEqual(ResampleKernel.lanczos3.kernelCode, 3)
        XCTAssertTrue(KernelConstants.glsl.contains("const int REORIENT_TRANSPOSE = 5;"), KernelConstants.glsl)
        XCTAssertTrue(KernelConstants.glsl.contains("const int BLEND_LUMINOSITY = 17;"))
    }
}
