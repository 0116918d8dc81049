import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// `auto` by cost: every recipe of `recipes/` priced against recorded device profiles
/// (`Tests/Fixtures/device-profiles/`, whose README says where each figure comes from), and the choices checked
/// against what was measured on those devices: lavapipe never pays (the CPU was faster on every recipe), the H100
/// never pays for one render in a fresh process (0.2 s to open it; the CPU won all 15 recipes) and pays in a batch
/// only for the heavy recipes it won there (black-and-white, straighten).
final class BackendCostTests: XCTestCase {
    static let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/device-profiles")
    static let recipes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recipes")

    func profiles(_ name: String) throws -> BackendProfiles {
        try BackendProfiles(json: Data(contentsOf: Self.profiles.appendingPathComponent(name + ".json")))
    }

    /// Every recipe's plan over `width`×`height` RGB inputs (each input of the recipe given one).
    func plans(width: Int, height: Int) throws -> [(name: String, plan: Plan)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recipes.path)
            .filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted()
        let image = PixelBuffer(width: width, height: height, format: .rgb8)
        let mask = PixelBuffer(width: width, height: height, format: .grey8)
        XCTAssertGreaterThanOrEqual(names.count, 13)
        return try names.map { name in
            let recipe = try Recipe(contentsOfFile: Self.recipes.appendingPathComponent(name).path)
            let images = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, $0 == "mask" ? mask : image) })
            return (String(name.dropLast(5)), try Renderer(backend: .cpu).plan(recipe, images: images))
        }
    }

    func choices(_ profiles: BackendProfiles, width: Int, height: Int, renders: Int) throws -> [String: BackendChoice] {
        Dictionary(uniqueKeysWithValues: try plans(width: width, height: height).map {
            ($0.name, BackendChoice(plan: $0.plan, profiles: profiles, deviceOpen: false, renders: renders))
        })
    }

    func testLavapipeNeverPaysOnAnyRecipe() throws {
        let lavapipe = try profiles("lavapipe-epyc-2core")
        for renders in [1, 24] {
            for (name, choice) in try choices(lavapipe, width: 2304, height: 1728, renders: renders) {
                XCTAssertFalse(choice.usesDevice || choice.usesSplit, "\(name), \(renders) render(s): \(choice.explanation)")
                // Not a near thing: the device is priced well above the CPU (the measured gap was 4–25×).
                XCTAssertGreaterThan(choice.device.total, 1.5 * choice.cpu.total, "\(name): \(choice.explanation)")
            }
        }
    }

    func testTheH100PaysOnlyForHeavyRecipesInBatches() throws {
        let h100 = try profiles("h100-xeon-16core")
        for (width, height) in [(3840, 2160), (6028, 3391)] {
            for (name, choice) in try choices(h100, width: width, height: height, renders: 1) {
                XCTAssertFalse(choice.usesDevice || choice.usesSplit, "one \(width)×\(height) render of \(name): \(choice.explanation)")
            }
        }
        // The batch measured: 24 photos, half 20 MP and half 8 MP; priced here at 20 MP.
        let batch = try choices(h100, width: 6028, height: 3391, renders: 24)
        for name in ["black-and-white", "straighten"] {
            XCTAssertTrue(batch[name]!.usesDevice, "\(name) in a batch: \(batch[name]!.explanation)")
        }
        for name in ["vintage", "web-thumbnail"] {
            XCTAssertFalse(batch[name]!.usesDevice, "\(name) in a batch: \(batch[name]!.explanation)")
        }
        // No recipe is cut (`PlanSplit`): the H100's pixels cost about what the CPU's do, so a shrink saves nothing.
        for (name, choice) in batch { XCTAssertFalse(choice.usesSplit, "\(name) in a batch: \(choice.explanation)") }
    }

    /// An open device costs nothing more to use, and a plan's price grows with its taps.
    func testPricesFollowThePlan() throws {
        let h100 = try profiles("h100-xeon-16core")
        let plans = Dictionary(uniqueKeysWithValues: try plans(width: 6028, height: 3391).map { ($0.name, $0.plan) })
        let closed = BackendChoice(plan: plans["vintage"]!, profiles: h100, deviceOpen: false, renders: 1)
        let open = BackendChoice(plan: plans["vintage"]!, profiles: h100, deviceOpen: true, renders: 1)
        XCTAssertEqual(closed.device.opening, h100.device.openSeconds, accuracy: 1e-12)
        XCTAssertEqual(open.device.opening, 0)
        XCTAssertEqual(open.cpu, closed.cpu)
        let light = BackendChoice.Work(plans["web-thumbnail"]!), heavy = BackendChoice.Work(plans["black-and-white"]!)
        XCTAssertGreaterThan(heavy.extraTaps, 10 * light.extraTaps)
        XCTAssertTrue(open.explanation.contains("CPU ≈") && open.explanation.contains(h100.device.name), open.explanation)
    }

    func testRecordedProfilesRoundTrip() throws {
        let h100 = try profiles("h100-xeon-16core")
        XCTAssertEqual(try BackendProfiles(json: h100.jsonData()), h100)
        XCTAssertThrowsError(try BackendProfiles(json: Data("{}".utf8)))
    }
}
