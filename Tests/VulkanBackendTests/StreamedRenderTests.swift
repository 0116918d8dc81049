import FilterCore
import FilterRecipe
import TestSupport
import VulkanBackend
import XCTest

/// A render streamed a band at a time (sources read and results delivered band by band while the device runs the
/// band between) gives exactly the pixels of the whole render, for every filter and every recipe; it holds sources and output a band at a time, and a failure part way ends it cleanly.
final class StreamedRenderTests: VulkanTestCase {
    /// The rows a streamed render delivered, whole; nil where the plan does not stream.
    func streamed(_ plan: Plan, _ images: [String: PixelBuffer], format: PixelFormat, bandRows: Int,
                  stats: RenderStats = RenderStats(), ledger: TransferLedger = TransferLedger(),
                  check: () throws -> Void = {}) throws -> PixelBuffer? {
        let output = plan.nodes[plan.output]
        let result = PixelBuffer(width: output.width, height: output.height, format: format)
        let sink = BufferRowSink(result)
        var counts: [Int] = []
        let streams = try VulkanRenderer.renderStreaming(plan, sources: images.mapValues { BufferRowSource($0) },
                                                         format: format, bandRows: bandRows, stats: stats, ledger: ledger,
                                                         check: check) { rows, stride, count in
            counts.append(count)
            try sink.writeRows(rows, stride: stride, count: count)
        }
        guard streams else {
            XCTAssertTrue(counts.isEmpty, "a render that does not stream delivers nothing")
            return nil
        }
        XCTAssertEqual(sink.rowsWritten, output.height, "every row delivered once, in order")
        XCTAssertGreaterThan(counts.count, 1)
        return result
    }

    func testEveryFilterStreamsTheWholeRendersPixels() throws {
        let images: [String: PixelBuffer] = [
            "main": TestImages.synthetic(width: 37, height: 130), "other": try TestImages.overlay(), "mask": try TestImages.mask(),
        ]
        var streamedFilters = Set<FilterID>()
        for id in FilterID.allCases {
            // Each filter at its defaults (`BandingTests` sweeps every parameter through the same band schedules).
            for (label, recipe) in ParameterSweep.recipes(for: id) where label == "defaults" {
                // Sweeps include settings a plan refuses (a crop outside the image).
                guard let plan = try? recipe.plan(inputSizes: images.mapValues { ($0.width, $0.height) }) else { continue }
                let used = images.filter { recipe.usedInputs.contains($0.key) }
                let format = used["main"]?.format ?? .rgba8
                guard let whole = try? VulkanRenderer.render(plan, sources: used, format: format) else { continue }
                for bandRows in [23] {
                    guard let streamed = try streamed(plan, used, format: format, bandRows: bandRows) else { continue }
                    streamedFilters.insert(id)
                    let d = Difference.between(try whole.samples(), try streamed.samples(), width: whole.width,
                                               channels: whole.format.channels)
                    XCTAssertEqual(d.worst, 0, "\(id) \(label) in bands of \(bandRows) rows: \(d)")
                }
            }
        }
        // Per-pixel filters, neighbourhoods and resamples stream; only what reads its input whole does not.
        for id: FilterID in [.invert, .gaussianBlur, .unsharpMask, .median, .resize, .sobel, .vignette, .blend] {
            XCTAssertTrue(streamedFilters.contains(id), "\(id) streams")
        }
        XCTAssertFalse(streamedFilters.contains(.transpose), "a transpose reads its input whole")
    }

    func testEveryRecipeStreamsTheWholeRendersPixels() throws {
        var streamedRecipes = 0
        for (name, recipe, paths) in try RecipeBackendTests.recipes() {
            let images = try paths.mapValues { try TestImages.decode(path: $0) }
            let plan = try recipe.plan(inputSizes: images.mapValues { ($0.width, $0.height) })
            let used = images.filter { recipe.usedInputs.contains($0.key) }
            let format = used["main"]?.format ?? .rgba8
            let whole = try VulkanRenderer.render(plan, sources: used, format: format)
            guard let streamed = try streamed(plan, used, format: format, bandRows: 24) else { continue }
            streamedRecipes += 1
            XCTAssertEqual(try streamed.samples(), try whole.samples(), name)
        }
        XCTAssertGreaterThan(streamedRecipes, 5, "most recipes stream")
    }

    /// Each band goes up and comes back once: as many uploads as bands (one source), as many downloads, and the
    /// bytes of the output exactly once; the device's stages and the host's alternate in the timeline.
    func testEachBandMovesOnceAndTheStagesInterleave() throws {
        let image = pattern(width: 64, height: 200, format: .rgb8)
        let plan = try Recipe.chain([(.gaussianBlur, ["sigma": 2]), (.vignette, ["intensity": 0.4])])
            .plan(inputSizes: ["main": (64, 200)])
        let stats = RenderStats(), ledger = TransferLedger()
        let result = try XCTUnwrap(try streamed(plan, ["main": image], format: .rgb8, bandRows: 40, stats: stats, ledger: ledger))
        XCTAssertEqual(try result.samples(), try VulkanRenderer.render(plan, sources: ["main": image], format: .rgb8).samples())
        let counts = ledger.snapshot
        XCTAssertEqual(counts.uploads, 5)
        XCTAssertEqual(counts.downloads, 5)
        XCTAssertEqual(counts.bytesDownloaded, 64 * 200 * 3)
        XCTAssertGreaterThan(counts.bytesUploaded, 64 * 200 * 3, "bands re-read the blur's overlap")
        XCTAssertLessThan(counts.bytesUploaded, 64 * 200 * 3 * 3 / 2)
        XCTAssertEqual(stats.submits, 5)
        let decodes = stages(stats, "decode"), devices = stages(stats, "device")
        XCTAssertEqual(decodes.count, 5)
        XCTAssertEqual(devices.count, 5)
        // Band 2's sources were read while band 1 was on the device: after its submit, before its wait ended.
        XCTAssertGreaterThanOrEqual(decodes[1].start, devices[0].start)
        XCTAssertLessThanOrEqual(decodes[1].start + decodes[1].seconds, devices[0].start + devices[0].seconds)
    }

    /// Bands grow where they would compute too much of the render again: a per-pixel chain keeps the bands asked
    /// for, a wide blur's bands (each reading 3σ rows above and below) grow until they repeat at most a tenth, and a
    /// quarter turn, which reads its input whole, does not stream.
    func testBandsGrowWhereTheyWouldRepeatTooMuchWork() throws {
        let source: [String: (width: Int, height: Int, format: PixelFormat)] = ["main": (64, 800, .rgb8)]
        func bands(_ steps: [(FilterID, [String: ParamValue])], repeated: Double?) throws -> (bands: Int, rows: Int)? {
            let plan = try Recipe.chain(steps).plan(inputSizes: ["main": (64, 800)])
            return try VulkanRenderer.streamedBands(plan, sources: source, format: .rgb8, bandRows: 64, repeatedWork: repeated)
        }
        XCTAssertEqual(try bands([(.vignette, [:]), (.sepia, [:])], repeated: 0.1)?.bands, 13)
        let asked = try XCTUnwrap(try bands([(.gaussianBlur, ["sigma": 12])], repeated: nil))
        XCTAssertEqual(asked.bands, 13, "as asked, the blur's 36-row reach repeats more than half the work")
        let grown = try XCTUnwrap(try bands([(.gaussianBlur, ["sigma": 12])], repeated: 0.1))
        XCTAssertLessThan(grown.bands, 13)
        XCTAssertGreaterThan(grown.bands, 1)
        XCTAssertNil(try bands([(.rotate, ["degrees": 90])], repeated: 0.1))
    }

    /// A discrete GPU's paths (uploads staged and copied, results packed in device memory and copied to the
    /// readback), simulated on unified memory, give the pixels of unified memory's, whole and streamed.
    func testDiscreteMemoryPathsGiveTheSamePixels() throws {
        let context = try VulkanContext.shared()
        let image = pattern(width: 61, height: 150, format: .rgb8)
        let plans = try [
            Recipe.chain([(.unsharpMask, ["sigma": 2, "amount": 1]), (.vignette, ["intensity": 0.5])]),
            Recipe.chain([(.resize, ["width": 40]), (.sepia, [:])]),
            Recipe.chain([(.median, ["radius": 2])]),
        ].map { try $0.plan(inputSizes: ["main": (61, 150)]) }
        let unified = try plans.map { try VulkanRenderer.render($0, sources: ["main": image], format: .rgb8).samples() }
        context.simulatesDiscreteMemory = true
        defer { context.simulatesDiscreteMemory = false }
        for (n, (plan, unified)) in zip(plans, unified).enumerated() {
            let whole = try VulkanRenderer.render(plan, sources: ["main": image], format: .rgb8)
            let streamed = try XCTUnwrap(try streamed(plan, ["main": image], format: .rgb8, bandRows: 32))
            let d = Difference.between(try whole.samples(), try streamed.samples(), width: whole.width, channels: 3)
            XCTAssertEqual(d.worst, 0, "plan \(n), streamed against whole, discrete memory: \(d)")
            // A discrete GPU with room keeps float32 working values where unified memory takes halves.
            let u = Difference.between(unified, try whole.samples(), width: whole.width, channels: 3)
            XCTAssertLessThanOrEqual(u.worst, 1, "plan \(n), discrete against unified memory: \(u)")
        }
    }

    /// An 8-bit image of varied samples (a hash of each sample's position).
    private func pattern(width: Int, height: Int, format: PixelFormat) -> PixelBuffer {
        let image = PixelBuffer(width: width, height: height, format: format)
        let base = try! image.mutableHostBytes()
        for y in 0..<height {
            let row = (base + y * image.rowStride).assumingMemoryBound(to: UInt8.self)
            for i in 0..<(width * format.channels) { row[i] = UInt8(truncatingIfNeeded: (i &* 2654435761 ^ y &* 40503) >> 7) }
        }
        return image
    }

    private func stages(_ stats: RenderStats, _ name: String) -> [RenderStats.Stage] {
        stats.stages.filter { $0.name == name }
    }

    /// A source that fails part way, and a cancellation between bands, end the render with their error; the bands
    /// on the device are waited for, and the next render works.
    func testAFailurePartWayEndsTheRenderCleanly() throws {
        let image = pattern(width: 48, height: 160, format: .rgba8)
        let plan = try Recipe.chain([(.boxBlur, ["radius": 3])]).plan(inputSizes: ["main": (48, 160)])
        let failing = FailingRows(BufferRowSource(image), failAt: 100)
        XCTAssertThrowsError(try VulkanRenderer.renderStreaming(plan, sources: ["main": failing], format: .rgba8,
                                                                bandRows: 32) { _, _, _ in }) {
            XCTAssertEqual(($0 as? PlanError)?.message, "row 100 is damaged", "\($0)")
        }
        var bands = 0
        struct Stop: Error {}
        XCTAssertThrowsError(try streamed(plan, ["main": image], format: .rgba8, bandRows: 32, check: {
            bands += 1
            if bands == 3 { throw Stop() }
        })) { XCTAssertTrue($0 is Stop, "\($0)") }
        let again = try XCTUnwrap(try streamed(plan, ["main": image], format: .rgba8, bandRows: 32))
        XCTAssertEqual(try again.samples(), try VulkanRenderer.render(plan, sources: ["main": image], format: .rgba8).samples())
    }
}

/// Rows of another source until `failAt`, where reading throws.
private final class FailingRows: ImageRowSource {
    let inner: BufferRowSource
    let failAt: Int
    init(_ inner: BufferRowSource, failAt: Int) { self.inner = inner; self.failAt = failAt }
    var width: Int { inner.width }
    var height: Int { inner.height }
    var format: PixelFormat { inner.format }
    var nextRow: Int { inner.nextRow }
    func readRows(into destination: UnsafeMutableRawPointer, stride: Int, count: Int) throws {
        if nextRow + count > failAt { throw PlanError("row \(failAt) is damaged") }
        try inner.readRows(into: destination, stride: stride, count: count)
    }
}
