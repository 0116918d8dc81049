import FilterCore
import PNGCodec
import FilterRecipe
import TestSupport
import XCTest

/// The optimizer's rewrites: what they do to the plan, and that they keep the pixels (both backends, every recipe,
/// and random chains of up to 12 steps from a fixed list of seeds).
final class OptimizerTests: XCTestCase {
    override func tearDown() {
        assertNoVulkanValidationMessages()
        super.tearDown()
    }

    func plan(_ recipe: Recipe, width: Int = 40, height: Int = 28) throws -> (Plan, [String]) {
        // Lowered as renders lower it: after validation, which normalises values (an angle written "90").
        let plan = try recipe.validated().plan(inputSizes: ["main": (width, height)])
        return Optimizer.optimize(plan)
    }

    func testColourStepsFoldIntoOneMatrixInOneKernel() throws {
        let (plan, log) = try plan(Recipe.chain([
            (.exposure, ["ev": 0.5]), (.colorControls, ["saturation": 1.3, "contrast": 1.1]), (.hueRotate, ["degrees": 20]),
            (.sepia, ["intensity": 0.4]), (.opacity, ["amount": 0.8]),
        ]))
        XCTAssertEqual(plan.nodes.count, 2, "\(log)")
        guard case .point(let ops) = plan.nodes[plan.output].primitive else { return XCTFail("not fused") }
        XCTAssertEqual(ops.count, 1, "five matrices fold into one: \(ops)")
    }

    func testIdentitiesAndCancellingGeometryDisappear() throws {
        let (plan, log) = try plan(Recipe.chain([
            (.exposure, ["ev": 0]), (.colorControls, [:]), (.flip, [:]), (.flip, [:]),
            (.rotate, ["degrees": "90"]), (.rotate, ["degrees": "270"]),
            (.crop, ["x": 0, "y": 0, "width": 40, "height": 28]), (.resize, ["scale": 1]), (.gamma, ["power": 1]),
        ]))
        XCTAssertEqual(plan.nodes.count, 1, "only the source is left: \(log)")
    }

    func testTurnsComposeAndCropsMerge() throws {
        let (plan, _) = try plan(Recipe.chain([
            (.rotate, ["degrees": "90"]), (.rotate, ["degrees": "90"]), (.flip, ["direction": "vertical"]),
            (.crop, ["x": 2, "y": 3, "width": 30, "height": 20]), (.crop, ["x": 1, "y": 1, "width": 10, "height": 10]),
        ]))
        XCTAssertEqual(plan.nodes.map(\.primitive), [.source(name: "main"), .flip(horizontal: true), .crop(x: 3, y: 4)])
    }

    func testRepeatedWorkRunsOnceAndUnusedNodesNever() throws {
        let recipe = try Recipe(json: Data(#"""
        {"version": 1, "inputs": ["main"], "nodes": [
          {"id": "a", "op": "gaussianBlur", "input": "main", "sigma": 3},
          {"id": "b", "op": "gaussianBlur", "input": "main", "sigma": 3},
          {"id": "unused", "op": "median", "input": "main"},
          {"id": "mix", "op": "blend", "mode": "screen", "inputs": ["a", "b"]}], "output": "mix"}
        """#.utf8))
        let (plan, log) = try plan(recipe)
        let blurs = plan.nodes.filter { if case .separableConvolution = $0.primitive { return true } else { return false } }
        XCTAssertEqual(blurs.count, 1, "\(log)")
        XCTAssertFalse(plan.nodes.contains { $0.origin == "unused" })
        let text = try Renderer(backend: .cpu).explain(recipe, inputs: ["main": Fixtures.path("photos/chelsea_451x300_rgb8.png")])
        XCTAssertTrue(text.contains("not run (the output does not use them): unused"), text)
        XCTAssertTrue(text.contains("gaussianBlur [b] repeats gaussianBlur [a]: computed once"), text)
    }

    /// A 30× shrink box-reduces 3×3 as rows arrive, then resamples exactly: within the resize tolerance of the
    /// exact path, on both backends, which agree with each other.
    func testLargeShrinksReduceAtDecodeWithinTheResizeTolerance() throws {
        let coffee = try PNGDecoder.decode(path: Fixtures.repository.appendingPathComponent("samples/coffee_600x400_rgb8.png").path)
        for kernel in ["lanczos3", "bicubic", "bilinear"] {
            let recipe = Recipe.chain([(.resize, ["width": 20, "kernel": .string(kernel)])])
            let (plan, log) = try self.plan(recipe, width: 600, height: 400)
            XCTAssertEqual(plan.nodes.map(\.primitive).filter { $0 == .boxReduce(x: 3, y: 3) }.count, 1, "\(log)")
            try assertSamePixels(recipe, images: ["main": coffee], label: "shrink 30× \(kernel)")
            guard (try? Renderer(backend: .vulkan).resolveBackend()) != nil else { continue }
            let cpu = try Renderer(backend: .cpu).render(recipe, images: ["main": coffee])
            let gpu = try Renderer(backend: .vulkan).render(recipe, images: ["main": coffee])
            let d = Difference.between(try cpu.samples(), try gpu.samples(), width: cpu.width, channels: 3)
            XCTAssertLessThanOrEqual(d.worst, 2, "shrink \(kernel) cpu vs vulkan: \(d)")
        }
    }

    /// Unfused, a transparent pixel loses its colour between steps; fused chains must too, or a later step that
    /// raises alpha would reveal it.
    func testFusionKeepsWhatStoringBetweenStepsLoses() throws {
        let raiseAlpha: [Double] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
        let recipe = Recipe.chain([(.invert, [:]), (.colorMatrix, ["matrix": .numbers(raiseAlpha)])])
        try assertSamePixels(recipe, images: ["main": TestImages.synthetic()], label: "invert then alpha 1")
    }

    func testEveryRecipeGivesTheSamePixelsOptimised() throws {
        for (file, recipe) in try RecipeFixtures.all() {
            let photo = try TestImages.crop("photos/chelsea_451x300_rgb8.png", x: 100, y: 50, width: 160, height: 120)
            var images = try RecipeFixtures.images(for: recipe)
            images["main"] = photo
            try assertSamePixels(recipe, images: images, label: file)
        }
    }

    /// A flip stays before a nearest shrink: at 2× every sample lies exactly between two pixels and nearest takes
    /// one side, so flipping the small result would pick the other pixels (seed 114 below).
    func testAFlipDoesNotMovePastANearestShrink() throws {
        let image = try TestImages.small()[3].image
        for direction in ["horizontal", "vertical"] {
            let recipe = Recipe.chain([(.flip, ["direction": .string(direction)]), (.resize, ["scale": 0.5, "kernel": "nearest"])])
            let plain = try Renderer(backend: .cpu, options: .init(optimize: false)).render(recipe, images: ["main": image])
            let optimised = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
            XCTAssertEqual(try optimised.samples(), try plain.samples(), direction)
        }
        // Bilinear samples sit symmetrically: there the flip still moves to the small result.
        let log = Optimizer.optimize(try Recipe.chain([(.flip, [:]), (.resize, ["scale": 0.5])]).plan(inputSizes: ["main": (40, 28)])).log
        XCTAssertTrue(log.contains { $0.contains("moved after") }, "\(log)")
    }

    /// Random chains of 2–12 steps drawn from every single-input filter's swept parameter sets (seed 22 caught a
    /// composition of turns dropping per-pixel steps fused into a turn's store; seed 54 caught default levels being
    /// dropped as an identity although they clamp; seed 109 a CPU scheduling bug, see InvariantTests; seed 114 a
    /// flip moved past a nearest shrink).
    func testRandomChainsGiveTheSamePixelsOptimised() throws {
        let pool: [(FilterID, [String: ParamValue])] = FilterID.allCases
            // autoLevels takes its gain from the image (up to 255× on a nearly flat one), so it magnifies the float
            // differences every step may have beyond any fixed tolerance; its own tests compare the backends.
            .filter { $0.spec.inputs.count == 1 && !$0.spec.isGenerator && $0 != .median && $0 != .autoLevels }
            .flatMap { id in ParameterSweep.sets(for: id).map { (id, $0.params) } }
            .filter { $0.0.spec.check(Recipe.Node(id: "x", op: $0.0, inputs: ["main"], params: $0.1).params).isEmpty }
            // The sweep's test table is bent on purpose (slopes near 4): before a step function it turns the
            // half-float rounding of an unfused Vulkan store into flipped steps; the shipped looks stay in the pool.
            .filter { $0.0 != .lut || $0.1["path"] != .string(Fixtures.path("lut/twist_9.cube")) }
        let images = try TestImages.small()
        var ran = 0
        for seed in UInt64(1)...150 {
            var random = SplitMix64(seed: seed)
            let length = 2 + Int(random.next() % 11)
            let steps = (0..<length).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let image = images[Int(random.next() % UInt64(images.count))]
            do {
                try assertSamePixels(Recipe.chain(steps), images: ["main": image.image],
                                     label: "seed \(seed): " + steps.map(\.0.rawValue).joined(separator: " → "))
                ran += 1
            } catch RenderError.recipe {
                continue  // a crop or pad that no longer fits after earlier steps changed the size
            }
        }
        XCTAssertGreaterThanOrEqual(ran, 100, "most random chains are valid")
    }

    /// Optimised and unoptimised renders agree on the CPU, and on Vulkan where a device opens, within the largest
    /// tolerance of the filters involved (step functions: a few samples may land on the other side of a step).
    func assertSamePixels(_ recipe: Recipe, images: [String: PixelBuffer], label: String) throws {
        let tolerance = recipe.nodes.map(\.op.spec.tolerance).max() ?? 0
        let steps = Set(recipe.nodes.map(\.op))
        var backends: [Backend] = [.cpu]
        if (try? Renderer(backend: .vulkan).resolveBackend()) != nil { backends.append(.vulkan) }
        for backend in backends {
            let plain = try Renderer(backend: backend, options: .init(optimize: false)).render(recipe, images: images)
            let optimised = try Renderer(backend: backend).render(recipe, images: images)
            let want = try plain.samples(), found = try optimised.samples()
            let scaled = max(tolerance, 1) * (plain.format.depth == 16 ? 257 : 1)
            if let failure = Difference.failure(want, found, tolerance: scaled,
                                                stepFunction: !steps.isDisjoint(with: Difference.stepFunctions),
                                                width: plain.width, channels: plain.format.channels) {
                XCTFail("\(label) on \(backend): \(failure)")
            }
        }
    }
}
