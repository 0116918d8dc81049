import FilterCore
import FilterRecipe
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// A rotation by any angle (or an affine map that shrinks nowhere) from a JPEG to a JPEG in the sRGB working space
/// resamples each of the file's Y, Cb, Cr planes. Checked against the input's decoded pixels resampled by the
/// published formula (the kernel's taps in double, taps outside reading the background), not against the row path.
final class JPEGPlaneWarpTests: XCTestCase {
    static func keys(_ x: Double) -> Double {
        let t = abs(x)
        if t < 1 { return (1.5 * t - 2.5) * t * t + 1 }
        return t < 2 ? ((-0.5 * t + 2.5) * t - 4) * t + 2 : 0
    }

    /// A resampling: its recipe step, and where output pixel (x, y) of a `w`×`h` output, from a `inW`×`inH` input,
    /// reads (input pixel units, corner origin).
    struct Warp {
        let name: String
        let step: (FilterID, [String: ParamValue])
        let read: (_ x: Double, _ y: Double, _ w: Int, _ h: Int, _ inW: Int, _ inH: Int) -> (Double, Double)
    }

    static func warps(kernel: String, background: [Double]) -> [Warp] {
        let colour = ParamValue.numbers(background)
        return [
            // Rotate's formula: q = R(−θ)(p − c_out) + c_in, clockwise θ (y down), the canvas grown to the bounds.
            Warp(name: "rotate 30° \(kernel)",
                 step: (.rotate, ["degrees": 30, "kernel": .string(kernel), "background": colour])) { x, y, w, h, inW, inH in
                let c = cos(Double.pi / 6), s = sin(Double.pi / 6)
                let px = x - Double(w) / 2, py = y - Double(h) / 2
                return (c * px + s * py + Double(inW) / 2, -s * px + c * py + Double(inH) / 2)
            },
            Warp(name: "rotate −101.5° \(kernel)",
                 step: (.rotate, ["degrees": -101.5, "kernel": .string(kernel), "background": colour])) { x, y, w, h, inW, inH in
                let a = -101.5 * Double.pi / 180, c = cos(a), s = sin(a)
                let px = x - Double(w) / 2, py = y - Double(h) / 2
                return (c * px + s * py + Double(inW) / 2, -s * px + c * py + Double(inH) / 2)
            },
            // Affine's formula: x′ = a·x + b·y + c, y′ = d·x + e·y + f (input to output); here an enlargement and shear.
            Warp(name: "affine enlarge and shear \(kernel)",
                 step: (.affine, ["matrix": .numbers([1.5, 0.3, 2, 0.1, 1.4, -3]), "width": 60, "height": 44,
                                  "kernel": .string(kernel), "background": colour])) { x, y, _, _, _, _ in
                let det = 1.5 * 1.4 - 0.3 * 0.1, px = x - 2, py = y + 3
                return ((1.4 * px - 0.3 * py) / det, (-0.1 * px + 1.5 * py) / det)
            },
        ]
    }

    /// The input's decoded RGB sampled at (u, v) (corner origin) by the kernel, taps outside reading `background`.
    static func reference(_ source: (bytes: [UInt8], width: Int, height: Int), u: Double, v: Double, cubic: Bool,
                          background: [Double]) -> [Double] {
        let cu = u - 0.5, cv = v - 0.5, fu = Int(cu.rounded(.down)), fv = Int(cv.rounded(.down))
        let kernel: (Double) -> Double = cubic ? keys : { max(0, 1 - abs($0)) }
        let reach = cubic ? -1...2 : 0...1
        var sum = [0.0, 0.0, 0.0]
        for j in reach {
            for i in reach {
                let x = fu + i, y = fv + j, w = kernel(Double(x) - cu) * kernel(Double(y) - cv)
                for c in 0..<3 {
                    let value = x < 0 || y < 0 || x >= source.width || y >= source.height
                        ? background[c] * 255 : Double(source.bytes[3 * (y * source.width + x) + c])
                    sum[c] += w * value
                }
            }
        }
        return sum.map { min(255, max(0, $0)) }
    }

    func testResamplingsOfThePlanesMatchTheDefinition() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var planes = 0, worstInside = 0.0, worstMean = 0.0
        let background = [0.2, 0.5, 0.9]
        for (w, h) in [(37, 29), (40, 32)] {
            for sampling in [JPEGWriteOptions.Subsampling.s420, .s422, .s444] {
                let input = dir.appendingPathComponent("in-\(w)x\(h)-\(sampling.rawValue).jpg").path
                try JPEGPlaneMoveTests.writeJPEG(JPEGPlaneMoveTests.gradient(width: w, height: h), width: w, height: h,
                                                 to: input, subsampling: sampling)
                let source = try JPEGPlaneMoveTests.decodedRGB(input)
                for kernel in ["bilinear", "bicubic"] {
                    for warp in Self.warps(kernel: kernel, background: background) {
                        let output = dir.appendingPathComponent("out.jpg").path
                        let report = try JPEGPlaneMoveTests.renderSRGB([warp.step], input: input, output: output)
                        let label = "\(warp.name) \(w)×\(h) \(sampling)"
                        XCTAssertTrue(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") }, label)
                        planes += 1
                        // The input's subsampling is kept (quality 100 would choose 4:4:4 for a filtered result).
                        let factors = try JPEGPlaneMoveTests.lumaSampling(output)
                        XCTAssertEqual(factors, sampling == .s420 ? [2, 2] : sampling == .s422 ? [2, 1] : [1, 1], label)
                        let out = try JPEGPlaneMoveTests.decodedRGB(output)
                        var sum = 0.0, inside = 0.0, insideSum = 0.0, insideCount = 0
                        for y in 0..<out.height {
                            for x in 0..<out.width {
                                let (u, v) = warp.read(Double(x) + 0.5, Double(y) + 0.5, out.width, out.height, w, h)
                                let want = Self.reference(source, u: u, v: v, cubic: kernel == "bicubic", background: background)
                                // Away from the input's edge the chroma is the input's. Near it, a subsampled
                                // plane blends chroma with the background over two chroma samples (four pixels at
                                // 4:2:0) where RGB rows blend over two pixels, and the colour of an edge between
                                // contrasting colours bleeds, as it does when a 4:2:0 encoder averages its chroma.
                                let margin = 4.0
                                let interior = u > margin && v > margin && u < Double(w) - margin && v < Double(h) - margin
                                for c in 0..<3 {
                                    let d = abs(Double(out.bytes[3 * (y * out.width + x) + c]) - want[c])
                                    sum += d
                                    if interior {
                                        inside = max(inside, d)
                                        insideSum += d
                                        insideCount += 1
                                    }
                                }
                            }
                        }
                        let mean = sum / Double(out.width * out.height * 3)
                        // A chroma sample one pixel out of place costs 3–4 codes everywhere on this gradient.
                        XCTAssertLessThanOrEqual(inside, 5, label)
                        XCTAssertLessThanOrEqual(insideSum / Double(max(1, insideCount)), 0.9, label)
                        XCTAssertLessThanOrEqual(mean, sampling == .s444 ? 1.0 : 7.5, label)
                        worstInside = max(worstInside, inside)
                        worstMean = max(worstMean, insideSum / Double(max(1, insideCount)))
                    }
                }
            }
        }
        XCTAssertEqual(planes, 2 * 3 * 2 * 3)
        print("plane resamplings: \(planes), away from the edge worst \(worstInside), worst mean \(worstMean)")
    }

    /// Only what the planes can do takes them: the linear working space, Lanczos-3, a transparent background, a map
    /// that shrinks and an output asked at another subsampling take the row path; the input's subsampling is kept
    /// by every resampling that shrinks nowhere unless another is asked for.
    func testOnlyWhatThePlanesCanDoTakesThem() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jpg").path
        try JPEGPlaneMoveTests.writeJPEG(JPEGPlaneMoveTests.gradient(width: 40, height: 32), width: 40, height: 32,
                                         to: input, subsampling: .s420)
        let output = dir.appendingPathComponent("out.jpg").path
        func render(_ step: (FilterID, [String: ParamValue]), space: WorkingSpace = .srgb,
                    subsampling: JPEGWriteOptions.Subsampling? = nil) throws -> (planes: Bool, factors: [Int]) {
            var recipe = Recipe.chain([step])
            recipe.workingSpace = space
            var options = Renderer.Options()
            options.jpeg = JPEGWriteOptions(quality: 100, subsampling: subsampling)
            options.replaceExisting = true
            let report = try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": input], output: output)
            return (report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") }, try JPEGPlaneMoveTests.lumaSampling(output))
        }
        let black: ParamValue = .numbers([0, 0, 0])
        var result = try render((.rotate, ["degrees": 12, "background": black]))
        XCTAssertTrue(result.planes)
        XCTAssertEqual(result.factors, [2, 2])
        result = try render((.rotate, ["degrees": 12, "background": black]), space: .linear)
        XCTAssertFalse(result.planes, "linear light interpolates other values than the codes")
        XCTAssertEqual(result.factors, [2, 2], "the input's subsampling is kept")
        result = try render((.rotate, ["degrees": 12, "background": black, "kernel": "lanczos3"]))
        XCTAssertFalse(result.planes)
        XCTAssertEqual(result.factors, [2, 2])
        result = try render((.rotate, ["degrees": 12]))
        XCTAssertFalse(result.planes, "a transparent background is flattened onto the JPEG's background on the row path")
        result = try render((.rotate, ["degrees": 12, "background": black]), subsampling: .s444)
        XCTAssertFalse(result.planes)
        XCTAssertEqual(result.factors, [1, 1])
        result = try render((.affine, ["matrix": .numbers([0.5, 0, 0, 0, 0.5, 0]), "background": black]))
        XCTAssertFalse(result.planes, "a shrink widens its kernel")
        XCTAssertEqual(result.factors, [1, 1], "a shrink is a filtered result: quality 100 chooses 4:4:4")
    }
}
