import FilterCore
import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// The conventions docs/conventions.md states, each shown on a case where another convention would differ.
final class ConventionTests: XCTestCase {
    func solid(_ grey: UInt8, width: Int = 8, height: Int = 2) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .rgb8, copying: Data(repeating: grey, count: width * height * 3))
    }

    /// exposure +1 then −1 returns highlights that a clamp between the steps would have flattened to white's half.
    func testIntermediatesAreNotClamped() throws {
        for space in [WorkingSpace.srgb, .linear] {
            let recipe = Recipe.chain([(.exposure, ["ev": 1]), (.exposure, ["ev": -1])], workingSpace: space)
            let out = try Renderer(backend: .cpu).render(recipe, images: ["main": try solid(204)])
            XCTAssertEqual(try out.samples()[0], 204, accuracy: 1, "\(space)")
        }
    }

    /// Nearest never averages: a one-pixel checkerboard halved becomes one flat colour, while bilinear gives grey.
    func testNearestShrinkingSkipsPixels() throws {
        let board = Recipe.chain([(.checkerboard, ["size": 1, "width": 32, "height": 32,
                                                   "first": .color(RGBA(0, 0, 0, 1)), "second": .color(RGBA(1, 1, 1, 1))])],
                                 workingSpace: .srgb)
        let image = try Renderer(backend: .cpu).render(board, images: ["main": try solid(0)])
        func halved(_ kernel: String) throws -> [Double] {
            let recipe = Recipe.chain([(.resize, ["scale": 0.5, "kernel": .string(kernel)])], workingSpace: .srgb)
            return try Renderer(backend: .cpu).render(recipe, images: ["main": image]).samples()
        }
        XCTAssertEqual(Set(try halved("nearest")).count, 1, "every sample picks the same square of the board")
        let interior = (8 * 16 + 8) * 3  // away from the replicated edges
        XCTAssertEqual(try halved("bilinear")[interior], 127.5, accuracy: 1)
    }

    /// Neighbourhood filters clamp to the edge (BORDER_REPLICATE): a blur of a flat image stays flat at the border,
    /// where a zero border would darken it.
    func testNeighbourhoodFiltersReplicateTheEdge() throws {
        let out = try Renderer(backend: .cpu).render(Recipe.chain([(.gaussianBlur, ["sigma": 3])]), images: ["main": try solid(180, width: 16, height: 16)])
        XCTAssertEqual(Set(try out.samples()), [180])
    }
}

extension ConventionTests {
    /// clamp between two steps reproduces a chain that clamps after every step (CSS, SVG).
    func testClampBetweenStepsGivesTheCSSChain() throws {
        let recipe = Recipe.chain([(.exposure, ["ev": 1]), (.clamp, [:]), (.exposure, ["ev": -1])], workingSpace: .srgb)
        let out = try Renderer(backend: .cpu).render(recipe, images: ["main": try solid(204)])
        XCTAssertEqual(try out.samples()[0], 127.5, accuracy: 1)
    }
}
