import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Every catalogue filter on the CPU against its float64 reference, at every swept parameter set, on every stored
/// layout (8- and 16-bit; grey, RGB, RGBA), in both working spaces; within the filter's declared tolerance.
final class FilterReferenceTests: XCTestCase {

    func check(_ id: FilterID, space: WorkingSpace, layouts: Int = 5,
               images chosen: [(name: String, image: PixelBuffer)]? = nil) throws {
        let images = try chosen ?? Array(TestImages.small().prefix(layouts))
        let overlay = try TestImages.overlay(), mask = try TestImages.mask()
        let spec = id.spec
        for (label, recipe) in ParameterSweep.recipes(for: id, space: space) {
            for (name, image) in images {
                let inputs: [String: PixelBuffer] = ["main": image, "other": overlay, "mask": mask]
                let rendered: PixelBuffer
                do {
                    rendered = try Renderer(backend: .cpu).render(recipe, images: inputs)
                } catch RenderError.recipe {
                    continue  // e.g. a crop larger than the image: refused, as it should be
                }
                var refInputs = [try ReferenceImage(image, space: space)]
                if spec.inputs.count >= 2 { refInputs.append(refInputs[0]); refInputs[0] = try ReferenceImage(overlay, space: space) }
                if spec.inputs.count == 3 { refInputs.append(try ReferenceImage(mask, space: space)) }
                let expected = ReferenceFilters.apply(id, recipe.nodes[0].params, refInputs, space: space)
                XCTAssertEqual(rendered.width, expected.width, "\(id) \(label) \(name)")
                XCTAssertEqual(rendered.height, expected.height, "\(id) \(label) \(name)")
                let found = try rendered.samples()
                let want = expected.encoded(rendered.format, space: space)
                let tolerance = spec.tolerance * (rendered.format.depth == 16 ? 257 : 1)
                if let failure = Difference.failure(want, found, tolerance: tolerance,
                                                    stepFunction: Difference.stepFunctions.contains(id),
                                                    width: rendered.width, channels: rendered.format.channels) {
                    XCTFail("\(id) \(label) on \(name), \(space): \(failure)")
                }
            }
        }
    }

    func testEveryFilterMatchesReferenceInLinearSpace() throws {
        for id in FilterID.allCases { try check(id, space: .linear) }
    }

    /// sRGB space on every layout (the code paths that differ from linear are the conversions).
    func testEveryFilterMatchesReferenceInSRGBSpace() throws {
        for id in FilterID.allCases { try check(id, space: .srgb) }
    }

    /// The per-pixel kernel works on 128 pixels at a time in blocks of 8: every remainder of a row (a lone pixel,
    /// a part block, whole blocks plus a part) on an RGBA photo with transparent and partly transparent pixels.
    func testPerPixelFiltersAtEveryRowRemainder() throws {
        let widths = [1, 3, 7, 8, 9, 31, 33, 127, 128, 129, 141]
        let images = try widths.map { width in
            ("emerald rgba8 \(width) wide", try TestImages.crop("photos/emerald_crop_320x240_rgba8.png", x: 100, y: 40,
                                                              width: width, height: 5))
        }
        let perPixel = FilterID.allCases.filter { id in
            let recipe = ParameterSweep.recipes(for: id).first!.recipe
            guard let plan = try? recipe.plan(inputSizes: ["main": (8, 8), "other": (8, 8), "mask": (8, 8)]) else { return false }
            return plan.nodes.allSatisfy { node in
                switch node.primitive { case .source, .point: return true; default: return false }
            }
        }
        XCTAssertGreaterThanOrEqual(perPixel.count, 10, "the per-pixel filters are found: \(perPixel)")
        for id in perPixel { try check(id, space: .linear, images: images) }
    }
}
