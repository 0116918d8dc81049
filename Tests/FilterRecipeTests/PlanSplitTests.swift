@testable import FilterRecipe
import FilterCore
import Foundation
import TestSupport
import VulkanBackend
import XCTest

/// A plan cut in two (`PlanSplit`): the first part on the CPU, the rest on the device. Which cuts exist, how `auto`
/// prices them against the whole plan on either backend, and that a cut render gives the pixels of a CPU render.
final class PlanSplitTests: XCTestCase {
    /// A 4 MP photo shrunk to a quarter, then a wide blur and a vignette: a reduction, then a heavy middle.
    let recipe = Recipe.chain([(.resize, ["width": 576, "kernel": "lanczos3"]), (.gaussianBlur, ["sigma": 30]),
                               (.vignette, [:])])

    func plan(_ recipe: Recipe, width: Int = 2304, height: Int = 1728) throws -> Plan {
        try Renderer(backend: .cpu).plan(recipe, images: ["main": PixelBuffer(width: width, height: height, format: .rgb8)])
    }

    func profiles(_ name: String) throws -> BackendProfiles {
        try BackendProfiles(json: Data(contentsOf: BackendCostTests.profiles.appendingPathComponent(name + ".json")))
    }

    func testCutsKeepEachPartsNodes() throws {
        let plan = try plan(recipe)
        let cuts = PlanSplit.all(plan)
        XCTAssertFalse(cuts.isEmpty)
        for cut in cuts {
            let node = plan.nodes[cut.node]
            // The first part ends at the cut node; the rest reads its result, of its size, as a source.
            XCTAssertEqual(cut.first.nodes[cut.first.output].origin, node.origin)
            XCTAssertEqual(cut.rest.nodes[0].primitive.sourceName, PlanSplit.sourceName)
            XCTAssertEqual([cut.rest.nodes[0].width, cut.rest.nodes[0].height], [node.width, node.height])
            XCTAssertEqual(cut.first.nodes.count + cut.rest.nodes.count, plan.nodes.count + 1, "\(cut.node)")
            XCTAssertEqual(cut.rest.nodes[cut.rest.output].origin, plan.nodes[plan.output].origin)
            for part in [cut.first, cut.rest] {
                for (i, node) in part.nodes.enumerated() { XCTAssertTrue(node.inputs.allSatisfy { $0 < i }, "inputs come first") }
            }
        }
        // No cut at a source or the output.
        XCTAssertNil(PlanSplit(plan, after: 0))
        XCTAssertNil(PlanSplit(plan, after: plan.output))
        // Unsharp masking's combination reads the blur and the blur's input: no cut at the blur.
        let unsharp = try self.plan(Recipe.chain([(.resize, ["width": 576]), (.unsharpMask, ["amount": 1])]))
        for (i, node) in unsharp.nodes.enumerated() where node.primitive.descriptor is Primitives.SeparableConvolution {
            XCTAssertNil(PlanSplit(unsharp, after: i), "the combination also reads what the blur read")
        }
    }

    /// Behind a slow link a batch sends the quarter-size image across, not the photo: the shrink on the CPU, the
    /// blur on the device. One render does not pay the device's opening; the measured devices never cut.
    func testASlowLinkCutsAfterTheShrink() throws {
        let plan = try plan(recipe)
        let slow = try profiles("slow-link-device")
        let batch = BackendChoice(plan: plan, profiles: slow, deviceOpen: false, renders: 100)
        XCTAssertTrue(batch.usesSplit, batch.explanation)
        let split = try XCTUnwrap(batch.split)
        XCTAssertEqual(split.plan.first.nodes[split.plan.first.output].width, 576, "cut where the shrink ends")
        XCTAssertLessThan(split.total, min(batch.cpu.total, batch.device.total))
        XCTAssertTrue(batch.explanation.contains("rendering on the CPU up to"), batch.explanation)
        let one = BackendChoice(plan: plan, profiles: slow, deviceOpen: false, renders: 1)
        XCTAssertFalse(one.usesSplit || one.usesDevice, one.explanation)
        // Without the shrink, nothing is saved by cutting.
        let unshrunk = try self.plan(Recipe.chain([(.gaussianBlur, ["sigma": 30]), (.vignette, [:])]))
        XCTAssertFalse(BackendChoice(plan: unshrunk, profiles: slow, deviceOpen: false, renders: 100).usesSplit)
        for name in ["h100-xeon-16core", "lavapipe-epyc-2core"] {
            for renders in [1, 100] {
                let choice = BackendChoice(plan: plan, profiles: try profiles(name), deviceOpen: false, renders: renders)
                XCTAssertFalse(choice.usesSplit, "\(name), \(renders): \(choice.explanation)")
            }
        }
    }

    /// The cut render: the shrink on the CPU into float32 working values, the rest on the device from them, within
    /// the device's tolerance of the CPU's render (1 code of 8 bits), with one upload and one download.
    func testACutRenderGivesTheCPUsPixels() throws {
        try XCTSkipIf((try? VulkanContext.shared()) == nil, "no Vulkan device")
        let photo = try TestImages.small()[0].image
        for space in [WorkingSpace.linear, .srgb] {
            var recipe = Recipe.chain([(.resize, ["width": 20, "kernel": "lanczos3"]), (.gaussianBlur, ["sigma": 2]),
                                       (.vignette, [:])])
            recipe.workingSpace = space
            let plan = try Renderer(backend: .cpu).plan(recipe, images: ["main": photo])
            let cpu = try Renderer(backend: .cpu).render(recipe, images: ["main": photo])
            for cut in PlanSplit.all(plan) {
                var warnings = [String]()
                let ledger = TransferLedger()
                let result = try Renderer.renderSplit(cut, firstSources: ["main": BufferRowSource(photo)], restSources: [:],
                                                      format: photo.format, stats: RenderStats(), ledger: ledger,
                                                      control: nil, fallBack: false, warnings: &warnings)
                XCTAssertEqual(warnings, [])
                XCTAssertEqual(ledger.snapshot.uploads, 1, "the first part's result goes up once")
                XCTAssertEqual(ledger.snapshot.downloads, 1)
                let d = Difference.between(try cpu.samples(), try result.samples(), width: cpu.width, channels: 3)
                XCTAssertLessThanOrEqual(d.worst, 1, "\(space), cut after #\(cut.node): \(d)")
            }
        }
    }
}
