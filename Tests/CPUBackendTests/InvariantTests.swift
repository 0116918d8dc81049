import FilterCore
import FilterRecipe
import TestSupport
import XCTest

final class InvariantTests: XCTestCase {
    func render(_ steps: [(FilterID, [String: ParamValue])], _ image: PixelBuffer) throws -> PixelBuffer {
        try Renderer(backend: .cpu).render(Recipe.chain(steps), images: ["main": image])
    }

    func assertSame(_ a: PixelBuffer, _ b: PixelBuffer, within: Double, _ message: String) throws {
        XCTAssertEqual(a.width, b.width, message)
        XCTAssertEqual(a.height, b.height, message)
        let d = Difference.between(try a.samples(), try b.samples(), width: a.width, channels: a.format.channels)
        let scale: Double = a.format.depth == 16 ? 257 : 1
        XCTAssertLessThanOrEqual(d.worst, within * scale, "\(message): \(d)")
    }

    /// Identity parameters leave every layout unchanged within 1 LSB.
    func testIdentityParametersChangeNothing() throws {
        let identities: [(FilterID, [String: ParamValue])] = [
            (.exposure, [:]), (.colorControls, [:]), (.gamma, [:]), (.hueRotate, [:]), (.vibrance, [:]),
            (.temperatureTint, [:]), (.colorMatrix, [:]), (.levels, [:]), (.curves, [:]), (.sepia, ["intensity": 0]),
            (.opacity, [:]), (.vignette, ["intensity": 0]), (.gaussianBlur, ["sigma": 0]), (.boxBlur, ["radius": 0]),
            (.unsharpMask, ["amount": 0]), (.sharpen, ["amount": 0]), (.convolve, [:]), (.crop, [:]), (.pad, [:]),
            (.resize, ["scale": 1]),
        ]
        for (name, image) in try TestImages.small() {
            for step in identities {
                try assertSame(render([step], image), image, within: 1, "\(step.0) on \(name)")
            }
        }
    }

    func testGeometryCompositionsAreIdentities() throws {
        for (name, image) in try TestImages.small() {
            let r90: (FilterID, [String: ParamValue]) = (.rotate, ["degrees": "90"])
            try assertSame(render([r90, r90, r90, r90], image), image, within: 0, "four rotations on \(name)")
            try assertSame(render([(.rotate, ["degrees": "180"]), (.rotate, ["degrees": "180"])], image), image, within: 0, "2×180 \(name)")
            try assertSame(render([r90, (.rotate, ["degrees": "270"])], image), image, within: 0, "90+270 \(name)")
            for direction in ["horizontal", "vertical"] {
                let flip: (FilterID, [String: ParamValue]) = (.flip, ["direction": .string(direction)])
                try assertSame(render([flip, flip], image), image, within: 0, "double \(direction) flip \(name)")
            }
            try assertSame(render([(.transpose, [:]), (.transpose, [:])], image), image, within: 0, "double transpose \(name)")
        }
    }

    /// Blurs of a constant image are that constant, including at the edges.
    /// A crop below the top of a node that another consumer reads from its top (unsharp mask reads the source both
    /// directly and through its blur): the skipped top rows must still be computed for the other consumer.
    func testCropOfAMultiConsumerNodeMatchesTheWholeResult() throws {
        let image = try TestImages.small()[2].image
        let whole = try render([(.unsharpMask, ["amount": 1.5])], image)
        let cropped = try render([(.unsharpMask, ["amount": 1.5]), (.crop, ["x": 0, "y": 2, "width": 20, "height": 15])], image)
        let want = try whole.samples(), found = try cropped.samples()
        let channels = whole.format.channels
        for y in 0..<15 {
            for x in 0..<20 * channels {
                XCTAssertEqual(found[y * 20 * channels + x], want[(y + 2) * whole.width * channels + x], "row \(y)")
            }
        }
    }

    func testBlurOfConstantIsConstant() throws {
        let flat = try Renderer(backend: .cpu).render(
            Recipe.chain([(.solidColor, ["color": .color(RGBA(0.3, 0.6, 0.2, 1)), "width": 37, "height": 23])]),
            images: ["main": PixelBuffer(width: 1, height: 1, format: .rgb8)], format: .rgb8)
        for step: (FilterID, [String: ParamValue]) in [(.gaussianBlur, ["sigma": 5]), (.boxBlur, ["radius": 7]),
                                                        (.median, ["radius": 3]), (.unsharpMask, ["sigma": 3]),
                                                        (.dilate, ["radius": 6, "shape": "disc"]), (.erode, ["radius": 4])] {
            try assertSame(render([step], flat), flat, within: 0, "\(step.0)")
        }
    }

    /// Strip scheduling is invisible: a tall image through a chain with large vertical reach equals the reference
    /// row for row, whatever the strip boundaries.
    func testStripsMatchWholeImageReference() throws {
        let image = try TestImages.crop("photos/camera_512_gray8.png", x: 0, y: 0, width: 24, height: 300)
        let steps: [(FilterID, [String: ParamValue])] = [(.gaussianBlur, ["sigma": 4]), (.resize, ["height": 170]),
                                                         (.median, ["radius": 2]), (.dilate, ["radius": 9, "shape": "disc"]),
                                                         (.erode, ["radius": 5]), (.zoomBlur, ["amount": 50, "centerY": 0.8]),
                                                         (.motionBlur, ["radius": 6, "angle": 70])]
        let rendered = try render(steps, image)
        var reference = try ReferenceImage(image, space: .linear)
        for (id, params) in steps {
            reference = ReferenceFilters.apply(id, Recipe.Node(id: "x", op: id, inputs: [], params: params).params,
                                               [reference], space: .linear)
        }
        let d = Difference.between(reference.encoded(.grey8, space: .linear), try rendered.samples(), width: 24, channels: 1)
        XCTAssertLessThanOrEqual(d.worst, 2, "\(d)")
    }
}
