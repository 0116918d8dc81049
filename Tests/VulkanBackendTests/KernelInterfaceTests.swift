import FilterCore
import Foundation
@testable import VulkanBackend
import XCTest

/// The Swift ↔ GLSL interface, checked rather than held by convention: every kernel asked for by case has its
/// source and every source a case; the push-constant block Swift fills is the one the shaders declare, and fits the
/// 128 bytes every device allows; each kernel's parameters are a Swift value whose fields the shaders read by name. (The codes kernels switch on — blend modes, resampling
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
                XCTAssertTrue(generated.contains(name) || parameterNames.contains(name),
                              "\(kernel) uses \(name), which Swift does not generate")
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

    var parameterNames: Set<String> { Set(KernelConstants.parameterSlots.map(\.name)) }

    /// Shaders read their parameters by the names Swift generates (`CONVOLVE_SIZE`), never by slot (`pc.ints.x`):
    /// in every source file and every source Swift writes; and every parameter a block declares is read somewhere.
    func testShadersReadParametersByNameNeverBySlot() throws {
        let slot = try NSRegularExpression(pattern: "pc\\.(ints|f0|f1|f2)\\b")
        var sources = ShaderSources.files.filter { $0.key.hasSuffix(".comp") || $0.key.hasSuffix(".glsl") }
        // Sources Swift writes come expanded: without the generated definitions themselves.
        for (name, source) in [("median (generated)", MedianKernelSource.source(radius: 2)),
                               ("line blur, zoom (generated)", LineBlurKernelSource.source(LineBlur(.zoom(cx: 3, cy: 4, s: 0.2))))] {
            sources[name] = source.replacingOccurrences(of: KernelConstants.glsl, with: "")
        }
        for (name, source) in sources {
            let whole = NSRange(source.startIndex..., in: source)
            XCTAssertNil(slot.firstMatch(in: source, range: whole), "\(name) reads a parameter by its slot")
        }
        let all = sources.values.joined(separator: "\n")
        for name in parameterNames {
            XCTAssertTrue(all.contains(name), "\(name) is declared but no kernel reads it")
        }
        // Every kernel that reads a parameter sees its definition.
        for kernel in Kernel.allCases {
            let source = ShaderLibrary.source(kernel)
            for name in parameterNames where source.contains(name) {
                XCTAssertTrue(source.contains("#define \(name) "), "\(kernel) reads \(name) without its definition")
            }
        }
    }

    /// Each block writes each field into exactly the lanes its slot names, integers into `ints` and floats into
    /// `f0`–`f2`, no two fields of a block share a lane, nothing else is touched, and a name several blocks share
    /// (the generators') has one slot.
    func testEachParameterBlockWritesItsFieldsIntoTheirSlots() throws {
        let colour = SIMD4<Float>(0.25, 0.5, 0.75, 1)
        let blocks: [any KernelParameters] = [
            UnpackParameters(channels: 3, bytesPerSample: 2, linear: true, unit: 1 / 65535),
            PackParameters(channels: 4, bytesPerSample: 1, linear: true, words: 77),
            SeparableParameters(taps: 9), BoxParameters(radius: 5, vertical: true, segment: 64),
            ConvolveParameters(size: 5, preserveAlpha: true, bias: 0.125),
            UnsharpParameters(amount: 1.5, threshold: 0.02), SharpenLuminanceParameters(amount: 0.7),
            MorphologyParameters(rows: 7), ToneParameters(shadows: 0.1, highlights: 0.2, detail: 0.3),
            BilateralParameters(taps: 13, rangeScale: 3.5), MotionBlurParameters(count: 21, halfSegment: (4, -2)),
            ZoomBlurParameters(centre: (10, 20), fraction: 0.3), ResampleParameters(taps: 6, vertical: true),
            CropParameters(x: 11, y: 12), BoxReduceParameters(x: 2, y: 3), ReorientParameters(mapping: .transpose),
            WarpParameters(map: WarpMap(1, 2, 3, 4, 5, 6), scale: (1.5, 2.5), background: colour, kernel: .lanczos3),
            PadParameters(left: 7, top: 8, colour: colour), BlendParameters(mode: .screen, opacity: 0.6),
            BlendMaskParameters(linearCoverage: true), SolidParameters(colour: colour),
            LinearGradientParameters(from: colour, to: colour * 2, line: SIMD4(0.1, 0.2, 0.9, 0.8)),
            RadialGradientParameters(from: colour, to: colour * 2, centre: (0.5, 0.4), radius: 0.7),
            CheckerboardParameters(size: 16, first: colour, second: colour * 2),
            TextParameters(x: 3, y: 4, width: 50, height: 12, colour: colour),
        ]
        XCTAssertEqual(blocks.map { "\(type(of: $0))" }, KernelParameterBlocks.all.map { "\($0)" }, "one example a block")
        var slotOfName = [String: String]()
        for block in blocks {
            let type = type(of: block)
            var push = PushConstants()
            push.set(block)
            var written = Set<String>()
            for (field, value) in zip(type.fields, block.values) {
                let name = "\(type.prefix)_\(field.name)"
                XCTAssertEqual(slotOfName[name] ?? field.slot, field.slot, "\(name) has two slots")
                slotOfName[name] = field.slot
                XCTAssertTrue(["ints", "f0", "f1", "f2"].contains(field.vector), name)
                for lane in field.lanes { XCTAssertTrue(written.insert("\(field.vector)\(lane)").inserted, "\(name) overlaps") }
                switch value {
                case .ints(let v):
                    XCTAssertTrue(field.isInteger, "\(name): integers in a float slot")
                    XCTAssertEqual(v.count, field.lanes.count, name)
                    XCTAssertEqual(field.lanes.map { push.ints[$0] }, v, name)
                case .floats(let v):
                    XCTAssertFalse(field.isInteger, "\(name): floats in an integer slot")
                    XCTAssertEqual(v.count, field.lanes.count, name)
                    let vector = field.vector == "f0" ? push.f0 : field.vector == "f1" ? push.f1 : push.f2
                    XCTAssertEqual(field.lanes.map { vector[$0] }, v, name)
                }
            }
            // Lanes no field names stay as they were, and the common part is untouched.
            for lane in 0..<4 {
                if !written.contains("ints\(lane)") { XCTAssertEqual(push.ints[lane], 0, "\(type) ints \(lane)") }
                for (label, vector) in [("f0", push.f0), ("f1", push.f1), ("f2", push.f2)] where !written.contains("\(label)\(lane)") {
                    XCTAssertEqual(vector[lane], 0, "\(type) \(label) \(lane)")
                }
            }
            XCTAssertEqual(push.size, SIMD4<Int32>())
            XCTAssertEqual(push.rows, SIMD4<Int32>())
        }
        // Spot checks of meaning against the values given.
        var push = PushConstants()
        push.set(ConvolveParameters(size: 5, preserveAlpha: true, bias: 0.125))
        XCTAssertEqual([push.ints.x, push.ints.y], [5, 1])
        XCTAssertEqual(push.f0.x, 0.125)
        XCTAssertTrue(KernelConstants.glsl.contains("#define CONVOLVE_SIZE (pc.ints.x)"), KernelConstants.glsl)
        XCTAssertTrue(KernelConstants.glsl.contains("#define WARP_SCALE (pc.f1.zw)"))
    }

    /// Codes follow each list's order and are distinct within a group.
    /// Bindings, the conversion tables' offsets, the tiled kernels' group sizes and warp's parameter slots are
    /// declared once in Swift and reach the shaders as generated names: no shader source writes one as a number,
    /// and the generated values are Swift's.
    func testSharedNumbersAreDeclaredOnceInSwift() throws {
        for (name, text) in ShaderSources.files {
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                XCTAssertNil(line.range(of: #"binding = [0-9]"#, options: .regularExpression), "\(name): \(line)")
                XCTAssertNil(line.range(of: #"const int (DECODE8|UNIT8|DECODE16|ENCODE|ENCODE8|ENCODE_STEPS) ="#,
                                        options: .regularExpression), "\(name): \(line)")
                if name.contains("tiled") {
                    XCTAssertNil(line.range(of: #"local_size_[xy] = [0-9]"#, options: .regularExpression), "\(name): \(line)")
                }
                if name == "warp.comp" {
                    XCTAssertNil(line.range(of: #"params\[[0-9]"#, options: .regularExpression), "\(name): \(line)")
                }
            }
        }
        let glsl = KernelConstants.glsl
        for (slot, index) in zip(KernelLayout.Slot.allCases, 0...) {
            XCTAssertTrue(glsl.contains("#define BINDING_\(KernelConstants.constantName(slot.rawValue)) \(index)\n"), "\(slot)")
        }
        var offset = 0
        for part in ConversionTables.parts {
            XCTAssertTrue(glsl.contains("const int \(part.name) = \(offset);"), part.name)
            offset += part.values.count
        }
        XCTAssertEqual(offset, ConversionTables.values().count)
        XCTAssertTrue(glsl.contains("#define ROW_TILE \(KernelConstants.rowTile)\n"))
        XCTAssertTrue(glsl.contains("#define SQUARE_TILE \(KernelConstants.squareTile)\n"))
    }

    /// The C kernels' blend modes (Sources/CKernels/include/blend.h) are Swift's table, name for name and code for
    /// code, as the shaders' are: the block there is what this writes.
    func testTheCBlendModesAreSwiftsTable() throws {
        let header = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/CKernels/include/blend.h")
        let text = try String(contentsOf: header, encoding: .utf8)
        let expected = "enum fr_blend_mode {\n" + BlendMode.allCases.map {
            "    FR_BLEND_\(KernelConstants.constantName($0.rawValue)) = \($0.kernelCode),\n"
        }.joined() + "};"
        XCTAssertTrue(text.contains(expected), "blend.h's enum should read:\n\(expected)")
    }

    func testEachGroupsCodesAreItsOrder() {
        XCTAssertEqual(BlendMode.allCases.map(\.kernelCode), (0..<Int32(BlendMode.allCases.count)).map { $0 })
        XCTAssertEqual(ResampleKernel.lanczos3.kernelCode, 3)
        XCTAssertTrue(KernelConstants.glsl.contains("const int REORIENT_TRANSPOSE = 5;"), KernelConstants.glsl)
        XCTAssertTrue(KernelConstants.glsl.contains("const int BLEND_LUMINOSITY = 17;"))
    }
}
