@testable import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Nodes held as stored samples (moves, per-channel tables) give exactly the pixels the working-value path gives,
/// at every integer layout and at sizes that leave row and tile remainders.
final class SampleRepresentationTests: XCTestCase {
    /// The catalogue's steps that map each channel on its own.
    static let tabled: Set<FilterID> = [.invert, .gamma, .levels, .exposure, .posterize, .curves, .clamp, .colorControls]

    static let formats: [PixelFormat] = [.grey8, .greyA8, .rgb8, .rgba8, .grey16, .greyA16, .rgb16, .rgba16]

    /// Seeded noise in `format`, a quarter of the pixels fully transparent where it has alpha.
    func noise(_ format: PixelFormat, width: Int, height: Int, seed: UInt64) throws -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        let image = PixelBuffer(width: width, height: height, format: format)
        let base = try image.mutableHostBytes()
        for y in 0..<height {
            for i in 0..<width * format.channels {
                let alpha = format.hasAlpha && i % format.channels == format.channels - 1
                var value = random.next()
                if alpha && value % 4 == 0 { value = 0 }
                if format.depth == 8 {
                    base.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: y * image.rowStride + i, as: UInt8.self)
                } else {
                    base.storeBytes(of: UInt16(truncatingIfNeeded: value), toByteOffset: y * image.rowStride + 2 * i,
                                    as: UInt16.self)
                }
            }
        }
        return image
    }

    /// Renders `recipe` both ways and checks that the plan kept samples where `expectSamples` says, and that the
    /// pixels are the same to the bit — but for 16-bit samples with alpha after a table, which may differ by one
    /// code: working values premultiply, and c·α/α rounds back to c ± 1 at 16 bits; the table never premultiplies.
    func assertSamePixels(_ recipe: Recipe, format: PixelFormat, width: Int = 37, height: Int = 23,
                          space: WorkingSpace = .linear, expectSamples: Bool = true, slack extra: Int = 0,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try noise(format, width: width, height: height, seed: UInt64(width * 131 + height))
        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (width, height)]), decodeReductions: [:]).plan
        let chosen = plan.choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: false)], output: format)
        XCTAssertEqual(chosen.nodes[chosen.output].representation != .working, expectSamples,
                       "\(format) \(recipe.nodes.map(\.op)): \(chosen.nodes.map(\.representationReason))", file: file, line: line)
        let samples = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: format)
        let working = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: format,
                                             keepSamples: false)
        let a = try samples.hostBytes(), b = try working.hostBytes()
        // A 16-bit median on samples keeps its pick exactly; through linear working values it may come back a code off.
        let picks = format.depth == 16 && space == .linear && recipe.nodes.contains { [.median, .dilate, .erode].contains($0.op) }
        let slack = max(extra, picks || format.depth == 16 && format.hasAlpha && recipe.nodes.contains { Self.tabled.contains($0.op) } ? 1 : 0)
        var differing = 0, first = ""
        for y in 0..<samples.height {
            for i in 0..<samples.width * format.channels {
                let (p, q) = format.depth == 8
                    ? (Int(a.load(fromByteOffset: y * samples.rowStride + i, as: UInt8.self)),
                       Int(b.load(fromByteOffset: y * working.rowStride + i, as: UInt8.self)))
                    : (Int(a.load(fromByteOffset: y * samples.rowStride + 2 * i, as: UInt16.self)),
                       Int(b.load(fromByteOffset: y * working.rowStride + 2 * i, as: UInt16.self)))
                if abs(p - q) > slack {
                    if differing == 0 { first = "row \(y) sample \(i): \(p) against \(q)" }
                    differing += 1
                }
            }
        }
        XCTAssertEqual(differing, 0, "\(format) \(recipe.nodes.map(\.op)) \(width)×\(height): \(differing) samples differ, "
                       + "first at \(first)", file: file, line: line)
    }

    func testMovesKeepSamplesAndPixels() throws {
        let moves: [[(FilterID, [String: ParamValue])]] = [
            [(.crop, ["x": 3, "y": 5, "width": 20, "height": 11])],
            [(.flip, ["direction": "horizontal"])],
            [(.flip, ["direction": "vertical"])],
            [(.rotate, ["degrees": 90])], [(.rotate, ["degrees": 180])], [(.rotate, ["degrees": -90])],
            [(.transpose, [:])],
            [(.pad, ["top": 2, "left": 3, "right": 1, "bottom": 4, "color": .color(.black)])],
            [(.rotate, ["degrees": 90]), (.crop, ["x": 1, "y": 2, "width": 9, "height": 30]), (.flip, ["direction": "vertical"])],
            // Fused into the turn, a step that mixes channels runs on the conversion to working values.
            [(.rotate, ["degrees": 90]), (.vibrance, ["amount": 0.6])],
            [(.transpose, [:]), (.vignette, ["intensity": 0.8])],
        ]
        for format in Self.formats {
            for steps in moves {
                let crops = steps.contains { $0.0 == .crop }
                for (w, h) in crops ? [(37, 23), (129, 65)] : [(37, 23), (1, 70), (70, 1), (129, 65)] {
                    try assertSamePixels(.chain(steps), format: format, width: w, height: h)
                }
            }
        }
    }

    func testPerChannelChainsBecomeTables() throws {
        let chains: [[(FilterID, [String: ParamValue])]] = [
            [(.invert, [:])],
            [(.gamma, ["power": 0.8])],
            [(.levels, ["inBlack": 0.1, "inWhite": 0.9, "gamma": 1.3])],
            [(.exposure, ["ev": 0.7]), (.posterize, ["levels": 5])],
            [(.curves, ["points": .points([[0, 0.1], [0.5, 0.6], [1, 0.9]])]), (.clamp, ["min": 0.2, "max": 0.8])],
            [(.rotate, ["degrees": 90]), (.invert, [:]), (.flip, ["direction": "horizontal"])],
            [(.colorControls, ["brightness": 0.1, "contrast": 1.2])],
        ]
        for format in Self.formats {
            for steps in chains {
                for space in [WorkingSpace.linear, .srgb] {
                    var recipe = Recipe.chain(steps)
                    recipe.workingSpace = space
                    try assertSamePixels(recipe, format: format, width: 67, height: 9, space: space)
                }
            }
        }
    }

    /// Steps that mix channels or read the position, as the output, run on each row's working values in cache and
    /// round to the output's samples: the working path's pixels to the bit, at every layout and row remainder,
    /// each SIMD path of the encode edge. Before a neighbourhood filter they stay working values.
    func testMixingStepsRunRowByRow() throws {
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in Self.formats {
                for steps: [(FilterID, [String: ParamValue])] in [[(.grayscale, [:])], [(.vignette, [:])], [(.sepia, [:])],
                                                                  [(.threshold, [:]), (.rotate, ["degrees": 90])],
                                                                  [(.curves, ["red": .points([[0, 0.2], [1, 1]])])]] {
                    for space in [WorkingSpace.linear, .srgb] {
                        var recipe = Recipe.chain(steps)
                        recipe.workingSpace = space
                        try assertSamePixels(recipe, format: format, width: 13, height: 5, space: space)
                        try assertSamePixels(recipe, format: format, width: 67, height: 9, space: space)
                    }
                }
            }
        }
        try assertSamePixels(.chain([(.grayscale, [:]), (.gaussianBlur, ["sigma": 1])]), format: .rgb8, expectSamples: false)
        // A grayscale written at 16 bits from an 8-bit photo rounds to 16-bit samples.
        let plan = try Recipe.chain([(.grayscale, [:])]).plan(inputSizes: ["main": (8, 8)])
        let deeper = plan.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .grey16)
        XCTAssertEqual(deeper.nodes[1].representation, .samples(.grey16, source: "main"))
        // A profile's conversion comes first: those stay working values.
        let converted = plan.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: true)], output: .rgb8)
        XCTAssertEqual(converted.nodes[1].representation, .working)
    }

    /// A chain's leading per-channel steps are folded into the conversion of opaque 8-bit samples (`FoldedDecode`),
    /// and per-pixel steps before a neighbourhood filter read their input's samples: the working path's pixels to the
    /// bit, at every layout (those that do not fold convert each row and run every step), both spaces, row remainders
    /// of the 8-pixel blocks and 128-pixel runs, each SIMD path.
    func testPerChannelPrefixFoldsIntoTheConversion() throws {
        let chains: [[(FilterID, [String: ParamValue])]] = [
            [(.levels, ["inBlack": 0.05, "inWhite": 0.9, "gamma": 1.2]), (.vibrance, ["amount": 0.4])],
            [(.curves, ["red": .points([[0, 0.1], [0.6, 0.5], [1, 1]])]), (.temperatureTint, ["temperature": -20, "tint": 5]),
             (.vibrance, ["amount": -0.3])],
            [(.gamma, ["power": 0.7]), (.exposure, ["ev": 0.4]), (.grayscale, [:])],
            [(.posterize, ["levels": 6]), (.sepia, [:])],
            [(.invert, [:]), (.vignette, ["intensity": 0.7])],
            [(.levels, ["inBlack": 0.1, "inWhite": 0.8]), (.vibrance, ["amount": 0.5]), (.gaussianBlur, ["sigma": 1])],
        ]
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in Self.formats {
                for steps in chains {
                    let blurs = steps.contains { $0.0 == .gaussianBlur }
                    for space in [WorkingSpace.linear, .srgb] {
                        var recipe = Recipe.chain(steps)
                        recipe.workingSpace = space
                        for (w, h) in [(13, 5), (131, 9)] {
                            try assertSamePixels(recipe, format: format, width: w, height: h, space: space,
                                                 expectSamples: !blurs)
                        }
                    }
                }
            }
        }
        // What folds: the steps up to the first that mixes channels or reads the position; nothing on alpha or 16 bits.
        let ops: [PointOp] = [.gamma(0.8), .posterize(4), .vibrance(0.2), .gamma(1.1)]
        XCTAssertEqual(FoldedDecode(ops, stored: .rgb8, space: .linear)?.rest.count, 2)
        XCTAssertEqual(FoldedDecode(ops, stored: .grey8, space: .srgb)?.rest.count, 2)
        XCTAssertNil(FoldedDecode(ops, stored: .rgba8, space: .linear))
        XCTAssertNil(FoldedDecode(ops, stored: .rgb16, space: .linear))
        XCTAssertNil(FoldedDecode(Array(ops[2...]), stored: .rgb8, space: .linear))
        // Before a blur the per-pixel node reads the samples itself, and says so.
        let plan = Optimizer.optimize(try Recipe.chain(chains[5]).plan(inputSizes: ["main": (37, 23)]), decodeReductions: [:]).plan
            .choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgb8)
        XCTAssertTrue(plan.nodes[1].readsSamples, "\(plan.nodes.map(\.representationReason))")
        XCTAssertEqual(plan.nodes[0].representation, .samples(.rgb8, source: "main"))
    }

    /// Neighbourhood filters and colours between two sample values stay working values.
    func testNeighbourhoodsStayWorking() throws {
        try assertSamePixels(.chain([(.gaussianBlur, ["sigma": 1])]), format: .rgb8, expectSamples: false)
        try assertSamePixels(.chain([(.pad, ["top": 1, "color": .color(RGBA(0.5, 0.5, 0.5))])]), format: .rgb8,
                             expectSamples: false)
        // A turn before a blur: the turn holds samples, the blur converts them.
        try assertSamePixels(.chain([(.rotate, ["degrees": 90]), (.gaussianBlur, ["sigma": 1])]), format: .rgba16,
                             expectSamples: false)
        // A crop before a blur moves samples and only its pixels are converted: the same pixels, every layout.
        let crop = Recipe.chain([(.crop, ["x": 3, "y": 2, "width": 29, "height": 17]), (.gaussianBlur, ["sigma": 1])])
        for format in Self.formats {
            try assertSamePixels(crop, format: format, expectSamples: false)
        }
        let plan = Optimizer.optimize(try crop.plan(inputSizes: ["main": (37, 23)]), decodeReductions: [:]).plan
            .choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgb8)
        XCTAssertEqual(plan.nodes[1].representation, .samples(.rgb8, source: "main"), "\(plan.nodes.map(\.representationReason))")
        XCTAssertEqual(plan.nodes[2].representation, .working)
    }

    /// A median picks samples: on layouts without alpha it runs on them (32 or 16 samples at a time with AVX2, 16
    /// or 8 with SSE2, a scalar tail), each path checked.
    func testMedianPicksSamples() throws {
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in Self.formats {
                for radius in 1...3 {
                    for (w, h) in [(37, 23), (3, 40), (70, 2), (133, 5)] {
                        for space in [WorkingSpace.linear, .srgb] {
                            var recipe = Recipe.chain([(.median, ["radius": .number(Double(radius))])])
                            recipe.workingSpace = space
                            try assertSamePixels(recipe, format: format, width: w, height: h, space: space,
                                                 expectSamples: !format.hasAlpha)
                        }
                    }
                }
            }
        }
    }

    /// Dilation and erosion pick samples too: on layouts without alpha they run on them, at every depth, each
    /// shape, radii below and above a strip's height, each SIMD path.
    func testMorphologyPicksSamples() throws {
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in Self.formats {
                for op in [FilterID.dilate, .erode] {
                    for (radius, shape) in [(1, "square"), (3, "disc"), (9, "square"), (12, "disc")] {
                        for (w, h) in [(37, 23), (3, 40), (70, 2)] {
                            let recipe = Recipe.chain([(op, ["radius": .number(Double(radius)), "shape": .string(shape)])])
                            try assertSamePixels(recipe, format: format, width: w, height: h,
                                                 expectSamples: !format.hasAlpha)
                        }
                    }
                }
            }
        }
    }

    /// A rotation or shear reads its input's 8-bit samples through a table, and as the output rounds its result once
    /// as the output would: within a code of the working path (the same float sums in another order), at every 8-bit
    /// layout, every interpolating kernel, both working spaces, angles whose canvases leave row remainders, each SIMD
    /// path.
    func testAffineReadsSamples() throws {
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in [PixelFormat.grey8, .greyA8, .rgb8, .rgba8] {
                for kernel in ["bicubic", "bilinear", "lanczos3"] {
                    for space in [WorkingSpace.linear, .srgb] {
                        for (degrees, w, h) in [(30.0, 37, 23), (-7.5, 64, 9), (123.0, 5, 40), (1.0, 70, 3)] {
                            var recipe = Recipe.chain([(.rotate, ["degrees": .number(degrees), "kernel": .string(kernel),
                                                                  "background": .color(RGBA(0.2, 0.4, 0.6, 0.8))])])
                            recipe.workingSpace = space
                            try assertSamePixels(recipe, format: format, width: w, height: h, space: space, slack: 1)
                        }
                        var shear = Recipe.chain([(.affine, ["matrix": .numbers([1.3, 0.4, 2, -0.2, 1.1, 3]),
                                                             "kernel": .string(kernel)])])
                        shear.workingSpace = space
                        try assertSamePixels(shear, format: format, width: 41, height: 29, space: space, slack: 1)
                    }
                }
            }
        }
    }

    /// Followed by a filter that needs working values, the rotation still reads samples (what it holds is the
    /// input's band) but writes working values; a shrinking map, nearest taps, 16-bit or profile-converted samples
    /// keep the working path.
    func testAffineSampleChoice() throws {
        func chosen(_ steps: [(FilterID, [String: ParamValue])], _ format: PixelFormat = .rgb8,
                    converted: Bool = false) throws -> Plan {
            try Recipe.chain(steps).plan(inputSizes: ["main": (40, 30)])
                .choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: converted)], output: format)
        }
        let rotate: (FilterID, [String: ParamValue]) = (.rotate, ["degrees": 20])
        let alone = try chosen([rotate])
        XCTAssertEqual(alone.nodes.map(\.readsSamples), [false, true])
        XCTAssertEqual(alone.nodes[1].representation, .samples(.rgb8, source: "main"))
        let blurred = try chosen([rotate, (.gaussianBlur, ["sigma": 1])])
        XCTAssertTrue(blurred.nodes[1].readsSamples)
        XCTAssertEqual(blurred.nodes[1].representation, .working)
        XCTAssertEqual(blurred.nodes[0].representation, .samples(.rgb8, source: "main"))
        XCTAssertTrue(blurred.explanation(backend: .cpu).contains("reads its input's samples through a table"))
        for plan in [try chosen([rotate], .rgb16), try chosen([rotate], converted: true),
                     try chosen([(.rotate, ["degrees": 20, "kernel": "nearest"])]),
                     try chosen([(.affine, ["matrix": .numbers([0.5, 0, 0, 0, 0.5, 0])])])] {
            XCTAssertFalse(plan.nodes[1].readsSamples, "\(plan.nodes[1].primitive)")
            XCTAssertEqual(plan.nodes[1].representation, .working)
        }
        // Working values fed to the rotation (a blur first) are read as they are.
        let after = try chosen([(.gaussianBlur, ["sigma": 1]), rotate])
        XCTAssertFalse(after.nodes[2].readsSamples)
        let bytes = try noise(.rgb8, width: 40, height: 30, seed: 3)
        let stats = RenderStats()
        _ = try CPURenderer.render(try Recipe.chain([rotate]).plan(inputSizes: ["main": (40, 30)]),
                                   sources: ["main": BufferRowSource(bytes)], format: .rgb8, stats: stats)
        XCTAssertLessThan(stats.peakIntermediateBytes, 40 * 30 * 16, "the input held as floats would be \(40 * 30 * 16) B")
    }

    /// A Sobel gradient reads integer samples without alpha itself (each row converted in cache) and rounds its
    /// grey result to them once: the working path's pixels to the bit, at 8 and 16 bits, grey and RGB, both working
    /// spaces, widths that leave every remainder of the eight-pixel step, each SIMD path; after a move too (a crop).
    /// Samples with alpha (premultiplied working values) keep the working path.
    func testSobelReadsAndRoundsSamples() throws {
        defer { CPUFeatures.avx2 = true }
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in [PixelFormat.grey8, .rgb8, .grey16, .rgb16] {
                for space in [WorkingSpace.srgb, .linear] {
                    for (w, h) in [(37, 23), (1, 5), (8, 3), (17, 40), (70, 12)] {
                        var recipe = Recipe.chain([(.sobel, [:])])
                        recipe.workingSpace = space
                        try assertSamePixels(recipe, format: format, width: w, height: h, space: space)
                        var cropped = Recipe.chain([(.crop, ["x": 0, "y": 1, "width": .number(Double(w)),
                                                             "height": .number(Double(h - 1))]), (.sobel, [:])])
                        cropped.workingSpace = space
                        try assertSamePixels(cropped, format: format, width: w, height: h, space: space)
                    }
                }
            }
            for format in [PixelFormat.rgba8, .greyA8] {
                try assertSamePixels(Recipe.chain([(.sobel, [:])]), format: format, expectSamples: false)
            }
        }
    }

    /// A clamp keeps alpha 1 at 1: an opaque photo clamped stays opaque (written without an alpha channel, its
    /// samples through one table a channel); a colour matrix whose alpha row is not the identity may make it
    /// transparent.
    func testClampKeepsAnOpaquePhotoOpaque() throws {
        let clamp = try Recipe.chain([(.clamp, ["min": 0.1, "max": 0.9])]).plan(inputSizes: ["main": (8, 8)])
        XCTAssertFalse(clamp.outputMayHaveAlpha(sourceHasAlpha: ["main": false]))
        XCTAssertTrue(clamp.outputMayHaveAlpha(sourceHasAlpha: ["main": true]))
        let chosen = clamp.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)],
                                                   output: .rgb8)
        XCTAssertEqual(chosen.nodes[chosen.output].representation, .samples(.rgb8, source: "main"))
        let fading = try Recipe.chain([(.colorMatrix, ["matrix": .numbers([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0,
                                                                           0, 0, 0, 0.5, 0])])])
            .plan(inputSizes: ["main": (8, 8)])
        XCTAssertTrue(fading.outputMayHaveAlpha(sourceHasAlpha: ["main": false]))
    }

    /// A blend or a blend through a mask whose inputs are samples (or generated working values) mixes each row's
    /// working values in cache and rounds once to the output's samples: the working path's pixels to the bit at
    /// every layout (alpha included, where the working values are premultiplied), both spaces, every mode (the nine
    /// with an AVX2 loop and the rest), opacities, a source smaller than its backdrop (the rows below it the backdrop's), a generated gradient
    /// and a clear one (its rows passed over), a turn whose fused steps wait for its conversion, odd widths for the
    /// loop's two-pixel step. The reference is the
    /// working path with the portable loops, so the AVX2 loop is held to the Swift composite too.
    func testBlendsMixSampleRows() throws {
        defer { CPUFeatures.avx2 = true }
        func recipe(_ mix: String, _ space: WorkingSpace) throws -> Recipe {
            var recipe = try Recipe(json: Data("""
                {"version": 1, "inputs": ["main"], "nodes": [
                  {"id": "mirror", "op": "flip", "direction": "horizontal", "input": "main"},
                  {"id": "small", "op": "crop", "x": 1, "y": 2, "width": 5, "height": 3, "input": "main"},
                  {"id": "turned", "op": "rotate", "degrees": 180, "input": "main"},
                  {"id": "warm", "op": "vibrance", "amount": 0.6, "input": "turned"},
                  {"id": "clear", "op": "linearGradient", "input": "main", "from": [1, 0, 0, 0], "to": [0, 0, 1, 0]},
                  {"id": "fade", "op": "linearGradient", "input": "main", "from": [1, 0.5, 0, 0], "to": [0, 0.2, 1, 0.8]},
                  \(mix)], "output": "out"}
                """.utf8))
            recipe.workingSpace = space
            return recipe
        }
        var mixes = BlendMode.allCases.flatMap { mode in
            ["1", "0.6"].map { #"{"id": "out", "op": "blend", "mode": "\#(mode.rawValue)", "opacity": \#($0), "inputs": ["mirror", "main"]}"# }
        }
        mixes += [#"{"id": "out", "op": "blend", "mode": "multiply", "inputs": ["small", "turned"]}"#,
                  #"{"id": "out", "op": "blend", "mode": "screen", "opacity": 0.3, "inputs": ["small", "main"]}"#,
                  #"{"id": "out", "op": "blendWithMask", "inputs": ["mirror", "main", "turned"]}"#,
                  #"{"id": "out", "op": "over", "inputs": ["fade", "main"]}"#,
                  #"{"id": "out", "op": "blend", "mode": "difference", "inputs": ["clear", "mirror"]}"#,
                  #"{"id": "out", "op": "blendWithMask", "inputs": ["mirror", "main", "clear"]}"#,
                  #"{"id": "out", "op": "blend", "mode": "screen", "inputs": ["warm", "main"]}"#,
                  #"{"id": "out", "op": "blendWithMask", "inputs": ["fade", "turned", "fade"]}"#,
                  #"{"id": "out", "op": "blendWithMask", "inputs": ["small", "turned", "mirror"]}"#]
        for format in Self.formats {
            for space in [WorkingSpace.srgb, .linear] {
                for mix in mixes {
                    let recipe = try recipe(mix, space)
                    for (width, height) in [(13, 5), (8, 6), (7, 9)] {
                        let image = try noise(format, width: width, height: height, seed: UInt64(width * 7 + height))
                        let plan = Optimizer.optimize(try recipe.plan(inputSizes: ["main": (width, height)]),
                                                      decodeReductions: [:]).plan
                        let chosen = plan.choosingRepresentations(
                            sources: ["main": SampleLayout(format: format, converted: false)], output: format)
                        XCTAssertEqual(chosen.nodes[chosen.output].representation, .samples(format, source: "main"),
                                       "\(mix): \(chosen.nodes.map(\.representationReason))")
                        func bytes(_ buffer: PixelBuffer) throws -> [UInt8] {
                            Array(UnsafeRawBufferPointer(start: try buffer.hostBytes(), count: buffer.byteCount))
                        }
                        CPUFeatures.avx2 = false
                        let working = try bytes(CPURenderer.render(plan, sources: ["main": BufferRowSource(image)],
                                                                   format: format, keepSamples: false))
                        for avx2 in [true, false] {
                            CPUFeatures.avx2 = avx2
                            let samples = try bytes(CPURenderer.render(plan, sources: ["main": BufferRowSource(image)],
                                                                       format: format))
                            XCTAssert(samples == working, "\(format) \(space) \(mix) \(width)×\(height), AVX2 \(avx2): "
                                      + "\(zip(samples, working).filter { $0 != $1 }.count) bytes differ")
                        }
                    }
                }
            }
        }
        // Inputs a profile converts, a float output, or only generated inputs keep the working path.
        let plan = try recipe(mixes[0], .srgb).plan(inputSizes: ["main": (8, 8)])
        let converted = plan.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: true)], output: .rgb8)
        XCTAssertEqual(converted.nodes[converted.output].representation, .working)
        let floats = plan.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgba32f)
        XCTAssertEqual(floats.nodes[floats.output].representation, .working)
        let generated = try recipe(#"{"id": "out", "op": "over", "inputs": ["fade", "fade"]}"#, .srgb).plan(inputSizes: ["main": (8, 8)])
        let mixed = generated.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgb8)
        XCTAssertEqual(mixed.nodes[mixed.output].representation, .working)
    }

    /// In the sRGB working space a vertical resample reads its input's 8-bit samples without alpha itself (a shrink
    /// as it accumulates rows, an enlargement over its window of rows), so they are never converted as rows of their
    /// own: within a code of the working path (the same sums in another order), grey and RGB, widths that leave
    /// every remainder of the four-pixel step, each SIMD path. Samples with alpha or of 16 bits, and linear light
    /// (where each tap would look its codes up again), keep the working path.
    func testVerticalResampleReadsSamples() throws {
        defer { CPUFeatures.avx2 = true }
        // Shrinks (accumulated) and a height-only enlargement (a window of rows), for an input of w × h.
        let resizes: [(Int, Int) -> [String: ParamValue]] = [
            { _, _ in ["scale": 0.9, "kernel": "bilinear"] }, { _, _ in ["scale": 0.2, "kernel": "lanczos3"] },
            { w, h in ["width": .number(Double(w)), "height": .number(Double(2 * h)), "kernel": "bicubic"] },
        ]
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for format in [PixelFormat.grey8, .rgb8] {
                for space in [WorkingSpace.srgb, .linear] {
                    for (k, parameters) in resizes.enumerated() {
                        for (w, h) in [(37, 23), (1, 30), (5, 41), (70, 12), (9, 50)] {
                            var recipe = Recipe.chain([(.resize, parameters(w, h))])
                            recipe.workingSpace = space
                            // The 0.9 bilinear shrink of both axes runs in fixed point in sRGB (the optimizer puts
                            // its horizontal pass first); where only the height shrinks, the vertical pass reads.
                            let passes = try recipe.plan(inputSizes: ["main": (w, h)]).nodes.filter {
                                if case .resample = $0.primitive { return true } else { return false }
                            }
                            try assertSamePixels(recipe, format: format, width: w, height: h, space: space,
                                                 expectSamples: k == 0 && space == .srgb && passes.count == 2, slack: 1)
                        }
                    }
                }
            }
        }
        func vertical(_ format: PixelFormat, _ space: WorkingSpace = .srgb) throws -> Plan.Node? {
            var recipe = Recipe.chain([(.resize, ["scale": 0.2])])
            recipe.workingSpace = space
            let plan = try recipe.plan(inputSizes: ["main": (40, 30)])
                .choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: false)], output: format)
            return plan.nodes.first { if case .resample(.vertical, _, _) = $0.primitive { return true } else { return false } }
        }
        for format in [PixelFormat.grey8, .rgb8] {
            let node = try XCTUnwrap(try vertical(format))
            XCTAssertTrue(node.readsSamples, "\(format)")
            XCTAssertEqual(node.representation, .working)
            XCTAssertEqual(node.representationReason, "reads its input's samples through a table")
        }
        for format in [PixelFormat.greyA8, .rgba8, .rgb16] {
            XCTAssertEqual(try vertical(format)?.readsSamples, false, "\(format)")
        }
        XCTAssertEqual(try vertical(.rgb8, .linear)?.readsSamples, false)
    }

    /// A separable blur's horizontal pass converts its input's stored samples as it pads each row (a box blur's as it
    /// starts each running sum), so the input is never held as rows of floats: the same pixels to the bit, at every
    /// integer layout, both working spaces (an unsharp mask's blur reads the samples while its combining step reads
    /// them converted). On opaque 8-bit samples in the sRGB working space the blurs are held as samples, filtered in
    /// fixed point (an unsharp mask's blur unrounded, its combining step on the samples): a box's integer sums give
    /// the same pixels to the bit, a Gaussian's 16-bit weights within a code (where the exact value lies near a
    /// half; `FixedPointBlurTests` bounds how near).
    func testSeparableBlurReadsSamples() throws {
        for format in Self.formats {
            for space in [WorkingSpace.linear, .srgb] {
                for steps in [[(FilterID.gaussianBlur, ["sigma": ParamValue.number(1.5)])],
                              [(.unsharpMask, ["sigma": 1, "amount": 0.8])], [(.boxBlur, ["radius": 3])]] {
                    var recipe = Recipe.chain(steps)
                    recipe.workingSpace = space
                    let fixed = samplesAreWorkingValues(format, space)
                    try assertSamePixels(recipe, format: format, space: space, expectSamples: fixed,
                                         slack: fixed && steps[0].0 != .boxBlur ? 1 : 0)
                    let plan = try recipe.plan(inputSizes: ["main": (37, 23)])
                        .choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: false)], output: format)
                    let blur = plan.nodes.first {
                        switch $0.primitive {
                        case .separableConvolution, .boxBlur: return true
                        default: return false
                        }
                    }
                    XCTAssertEqual(blur?.readsSamples, true, "\(format) \(steps.map(\.0))")
                }
            }
        }
    }

    /// A convolution reads opaque samples as it pads its rows, or through a separable blur's two stages where its
    /// kernel is a column times a row (normalised, or unnormalised without preserveAlpha, whose alpha stays 1), or in
    /// fixed point on 8-bit samples in sRGB space (`FixedPointBlurTests`): the same pixels as from working rows,
    /// straight and premultiplied colour. With alpha it reads working values, unpremultiplied as
    /// before.
    func testConvolutionReadsOpaqueSamples() throws {
        let binomial: [Double] = [1, 4, 6, 4, 1, 4, 16, 24, 16, 4, 6, 24, 36, 24, 6, 4, 16, 24, 16, 4, 1, 4, 6, 4, 1]
        for format in Self.formats {
            for space in [WorkingSpace.linear, .srgb] {
                // A binomial and Sobel's vertical kernel (a column times a row; unnormalised, its sum 0), a sharpen.
                for (kernel, normalize) in [(binomial, true), ([1, 2, 1, 0, 0, 0, -1, -2, -1], false),
                                            ([-1, -1, -1, -1, 9, -1, -1, -1, -1], true)] {
                    for preserveAlpha in [true, false] {
                        var recipe = Recipe.chain([(.convolve, ["kernel": .numbers(kernel), "normalize": .boolean(normalize),
                                                                "preserveAlpha": .boolean(preserveAlpha)])])
                        recipe.workingSpace = space
                        // On opaque 8-bit samples in sRGB space, fixed point, exact (their weights are sixteenths or
                        // whole numbers): the binomial in two passes, the sharpen in one, Sobel's kernel in one where
                        // it keeps alpha (without, its alpha is its sum, 0).
                        let fixed = samplesAreWorkingValues(format, space) && (normalize || preserveAlpha)
                        try assertSamePixels(recipe, format: format, space: space, expectSamples: fixed)
                        let plan = try recipe.plan(inputSizes: ["main": (37, 23)])
                            .choosingRepresentations(sources: ["main": SampleLayout(format: format, converted: false)], output: format)
                        let convolve = plan.nodes.first { if case .convolve = $0.primitive { return true } else { return false } }
                        XCTAssertEqual(convolve?.readsSamples, !format.hasAlpha, "\(format) \(kernel.count) taps")
                    }
                }
            }
        }
    }

    /// Unfused, two tables in a row would round between them: the first gives working values (reading the
    /// source's samples itself).
    func testTablesDoNotRoundBetweenSteps() throws {
        let plan = try Recipe.chain([(.exposure, ["ev": 0.7]), (.posterize, ["levels": 5])]).plan(inputSizes: ["main": (8, 8)])
        let chosen = plan.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgb8)
        XCTAssertEqual(chosen.nodes.map(\.representation), [.samples(.rgb8, source: "main"), .working, .working])
        XCTAssertEqual(chosen.nodes.map(\.readsSamples), [false, true, false])
        // Nor where the output's layout differs (an 8-bit photo written at 16 bits keeps the working precision).
        let fused = Optimizer.optimize(plan, decodeReductions: [:]).plan
        let deeper = fused.choosingRepresentations(sources: ["main": SampleLayout(format: .rgb8, converted: false)], output: .rgb16)
        XCTAssertEqual(deeper.nodes[deeper.output].representation, .working)
    }

    /// A quarter turn holds its input as stored samples: 3 bytes a pixel for RGB8, not 16.
    func testQuarterTurnHoldsSamples() throws {
        let (w, h) = (300, 200)
        let image = try noise(.rgb8, width: w, height: h, seed: 1)
        let plan = try Recipe.chain([(.rotate, ["degrees": 90])]).plan(inputSizes: ["main": (w, h)])
        let stats = RenderStats()
        _ = try CPURenderer.render(plan, sources: ["main": BufferRowSource(image)], format: .rgb8, stats: stats)
        XCTAssertGreaterThanOrEqual(stats.peakIntermediateBytes, w * h * 3)
        XCTAssertLessThan(stats.peakIntermediateBytes, w * h * 8, "a float copy is \(w * h * 16) B")
        // --stats counts the bytes each node wrote: the turn its samples, 3 bytes a pixel.
        XCTAssertEqual(stats.nodes.first { $0.op == "rotate" }?.bytesWritten, w * h * 3, "\(stats.nodes)")
        let blurred = RenderStats()
        _ = try CPURenderer.render(try Recipe.chain([(.gaussianBlur, ["sigma": 1])]).plan(inputSizes: ["main": (w, h)]),
                                   sources: ["main": BufferRowSource(image)], format: .rgb8, stats: blurred)
        // Two passes of working floats, 16 bytes a pixel each.
        XCTAssertEqual(blurred.nodes.first { $0.op == "gaussianBlur" }?.bytesWritten, 2 * w * h * 16, "\(blurred.nodes)")
    }
}

extension SampleRepresentationTests {
    /// A kernel that is a column times a row runs as two passes: the factors are found for a binomial, a box, Sobel's
    /// and a Gaussian written out, and not for a sharpen or a rank-two kernel.
    func testConvolutionKernelsFactor() {
        func kernel(_ column: [Float], _ row: [Float]) -> [Float] { column.flatMap { c in row.map { c * $0 } } }
        for (column, row) in [([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]), ([1, 1, 1], [1, 1, 1]), ([1, 0, -1], [1, 2, 1]),
                              ([0.054, 0.244, 0.403, 0.244, 0.054], [0.054, 0.244, 0.403, 0.244, 0.054])] as [([Float], [Float])] {
            let k = kernel(column, row), size = row.count
            guard let factors = Primitives.Convolve.factors(k, size: size) else { XCTFail("\(k) did not factor"); continue }
            for j in 0..<size {
                for i in 0..<size {
                    XCTAssertEqual(factors.column[j] * factors.row[i], k[j * size + i], accuracy: 1e-6 * k.map(abs).max()!)
                }
            }
        }
        XCTAssertNil(Primitives.Convolve.factors([-1, -1, -1, -1, 9, -1, -1, -1, -1], size: 3))
        XCTAssertNil(Primitives.Convolve.factors([1, 0, 0, 0, 1, 0, 0, 0, 1], size: 3))
        XCTAssertNil(Primitives.Convolve.factors([Float](repeating: 0, count: 9), size: 3))
    }
}
