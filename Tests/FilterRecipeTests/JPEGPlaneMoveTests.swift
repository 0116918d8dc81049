import FilterCore
import FilterRecipe
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// JPEG to JPEG by moves that read out of order runs on the file's Y, Cb, Cr planes. Checked against the input's
/// decoded pixels moved by the definition of each move (not against the row path): every move and chain of moves,
/// odd and even sizes and crop offsets, at 4:2:0, 4:2:2 and 4:4:4.
final class JPEGPlaneMoveTests: XCTestCase {
    /// Colour that changes fast and smoothly along both axes (red across, blue down, green along the diagonal): a
    /// chroma sample moved by one pixel shows as an error of several codes, over the tolerance, while the mean of
    /// two neighbouring samples is the value between them.
    static func gradient(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                bytes[i] = UInt8(20 + 215 * x / (width - 1))
                bytes[i + 1] = UInt8(60 + 120 * (x + y) / (width + height - 2))
                bytes[i + 2] = UInt8(235 - 215 * y / (height - 1))
            }
        }
        return bytes
    }

    static func writeJPEG(_ bytes: [UInt8], width: Int, height: Int, to path: String,
                          subsampling: JPEGWriteOptions.Subsampling) throws {
        let encoder = try JPEGEncoder(output: try OutputFile(path: path, replace: true), width: width, height: height,
                                      format: .rgb8, options: JPEGWriteOptions(quality: 100, subsampling: subsampling))
        try bytes.withUnsafeBytes { try encoder.writeRows($0.baseAddress!, stride: width * 3, count: height) }
        try encoder.finish()
    }

    static func decodedRGB(_ path: String) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let image = try TestImages.decode(path: path)
        XCTAssertEqual(image.format, .rgb8)
        let base = try image.hostBytes()
        var bytes = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for y in 0..<image.height {
            for i in 0..<image.width * 3 { bytes[y * image.width * 3 + i] = base.load(fromByteOffset: y * image.rowStride + i, as: UInt8.self) }
        }
        return (bytes, image.width, image.height)
    }

    /// `steps` in the sRGB working space on the CPU, `input` to a JPEG at quality 100 (replaced).
    static func renderSRGB(_ steps: [(FilterID, [String: ParamValue])], input: String, output: String) throws -> RenderReport {
        var recipe = Recipe.chain(steps)
        recipe.workingSpace = .srgb
        var options = Renderer.Options()
        options.jpeg = JPEGWriteOptions(quality: 100)
        options.replaceExisting = true
        return try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": input], output: output)
    }

    /// A move: its recipe steps, and where output pixel (x, y) of a `w`×`h` output reads the input.
    struct Move {
        let name: String
        let steps: [(FilterID, [String: ParamValue])]
        let read: (_ x: Int, _ y: Int, _ inW: Int, _ inH: Int) -> (Int, Int)
    }

    static let moves: [Move] = [
        Move(name: "flip vertical", steps: [(.flip, ["direction": "vertical"])]) { x, y, _, h in (x, h - 1 - y) },
        Move(name: "turn 90", steps: [(.rotate, ["degrees": 90])]) { x, y, _, h in (y, h - 1 - x) },
        Move(name: "turn 180", steps: [(.rotate, ["degrees": 180])]) { x, y, w, h in (w - 1 - x, h - 1 - y) },
        Move(name: "turn 270", steps: [(.rotate, ["degrees": 270])]) { x, y, w, _ in (w - 1 - y, x) },
        Move(name: "transpose", steps: [(.transpose, [:])]) { x, y, _, _ in (y, x) },
        Move(name: "transverse", steps: [(.rotate, ["degrees": 90]), (.flip, ["direction": "vertical"])]) { x, y, w, h in
            (w - 1 - y, h - 1 - x)
        },
        Move(name: "odd crop, turn 90", steps: [(.crop, ["x": 3, "y": 5, "width": 19, "height": 14]), (.rotate, ["degrees": 90])]) {
            x, y, _, _ in (3 + y, 5 + 13 - x)
        },
        Move(name: "even crop, flip vertical", steps: [(.crop, ["x": 2, "y": 4, "width": 20, "height": 16]),
                                                      (.flip, ["direction": "vertical"])]) { x, y, _, _ in (2 + x, 4 + 15 - y) },
        Move(name: "odd crop, flip vertical, flip horizontal",
             steps: [(.crop, ["x": 1, "y": 3, "width": 21, "height": 17]), (.flip, ["direction": "vertical"]),
                     (.flip, ["direction": "horizontal"])]) { x, y, _, _ in (1 + 20 - x, 3 + 16 - y) },
    ]

    func testMovesOfThePlanesMatchTheDecodedPixelsMoved() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var worst = 0, planes = 0
        for (w, h) in [(37, 29), (40, 32), (41, 30)] {
            for sampling in [JPEGWriteOptions.Subsampling.s420, .s422, .s444] {
                let input = dir.appendingPathComponent("in-\(w)x\(h)-\(sampling.rawValue).jpg").path
                try Self.writeJPEG(Self.gradient(width: w, height: h), width: w, height: h, to: input, subsampling: sampling)
                let source = try Self.decodedRGB(input)
                for move in Self.moves {
                    let output = dir.appendingPathComponent("out.jpg").path
                    let report = try Self.renderSRGB(move.steps, input: input, output: output)
                    // Every move takes the planes (a turned 4:2:2 photo is written 4:4:0).
                    let tookPlanes = report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") }
                    XCTAssertTrue(tookPlanes, "\(move.name) \(w)×\(h) \(sampling)")
                    if tookPlanes { planes += 1 }
                    let swaps = ["turn 90", "turn 270", "transpose", "transverse", "odd crop, turn 90"].contains(move.name)
                    let factors = try Self.lumaSampling(output)
                    switch sampling {
                    case .s420: XCTAssertEqual(factors, [2, 2])
                    case .s444: XCTAssertEqual(factors, [1, 1])
                    case .s422: XCTAssertEqual(factors, swaps ? [1, 2] : [2, 1], "\(move.name)")
                    }
                    let out = try Self.decodedRGB(output)
                    var sum = 0, local = 0
                    for y in 0..<out.height {
                        for x in 0..<out.width {
                            let (sx, sy) = move.read(x, y, w, h)
                            for c in 0..<3 {
                                let d = abs(Int(out.bytes[3 * (y * out.width + x) + c]) - Int(source.bytes[3 * (sy * w + sx) + c]))
                                sum += d
                                local = max(local, d)
                            }
                        }
                    }
                    let mean = Double(sum) / Double(out.width * out.height * 3)
                    XCTAssertLessThanOrEqual(local, 8, "\(move.name) \(w)×\(h) \(sampling)")
                    XCTAssertLessThanOrEqual(mean, 1.0, "\(move.name) \(w)×\(h) \(sampling)")
                    worst = max(worst, local)
                }
            }
        }
        XCTAssertEqual(planes, 3 * 3 * Self.moves.count)
        print("plane moves: \(planes) took the planes, worst difference \(worst)")
    }

    /// The output keeps the input's chroma subsampling (4:2:0 stays 4:2:0 at quality 100, where the row path would
    /// write 4:4:4), unless one is asked for that the planes are not in: then the row path writes it.
    func testSubsamplingFollowsTheInputUnlessAsked() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jpg").path
        try Self.writeJPEG(Self.gradient(width: 40, height: 32), width: 40, height: 32, to: input, subsampling: .s420)
        var recipe = Recipe.chain([(.rotate, ["degrees": 90])])
        recipe.workingSpace = .srgb
        let output = dir.appendingPathComponent("out.jpg").path
        var options = Renderer.Options()
        options.jpeg = JPEGWriteOptions(quality: 100)
        options.replaceExisting = true
        var report = try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": input], output: output)
        XCTAssertTrue(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") })
        XCTAssertEqual(try Self.lumaSampling(output), [2, 2])
        options.jpeg.subsampling = .s444
        report = try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": input], output: output)
        XCTAssertFalse(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") })
        XCTAssertEqual(try Self.lumaSampling(output), [1, 1])
        // In the linear working space the samples still only move: the planes serve as well.
        options.jpeg.subsampling = nil
        report = try Renderer(backend: .cpu, options: options).render(.chain([(.flip, ["direction": "vertical"])]), inputs: ["main": input],
                                                    output: output)
        XCTAssertTrue(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") })
        // A horizontal flip streams rows (the row path) and keeps the subsampling as well; a filter does not.
        report = try Renderer(backend: .cpu, options: options).render(.chain([(.flip, ["direction": "horizontal"])]),
                                                                      inputs: ["main": input], output: output)
        XCTAssertFalse(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") })
        XCTAssertEqual(try Self.lumaSampling(output), [2, 2])
        _ = try Renderer(backend: .cpu, options: options).render(.chain([(.invert, [:])]), inputs: ["main": input],
                                                                 output: output)
        XCTAssertEqual(try Self.lumaSampling(output), [1, 1], "quality 100 chooses 4:4:4 for a filtered result")
    }

    /// A file cut short stops the move with the reader's message and leaves no output; with damage let pass,
    /// what is there is moved.
    func testATruncatedFileIsRefusedAndLeavesNothing() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("whole.jpg").path, cut = dir.appendingPathComponent("cut.jpg").path
        try Self.writeJPEG(Self.gradient(width: 64, height: 64), width: 64, height: 64, to: whole, subsampling: .s420)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let output = dir.appendingPathComponent("out.jpg").path
        let recipe = Recipe.chain([(.rotate, ["degrees": 90])])
        XCTAssertThrowsError(try Renderer(backend: .cpu).render(recipe, inputs: ["main": cut], output: output)) { error in
            XCTAssertTrue("\(error)".contains("truncated"), "\(error)")
            XCTAssertTrue("\(error)".contains("cut.jpg"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["cut.jpg", "whole.jpg"])
        var options = Renderer.Options()
        options.failOn = .never
        let report = try Renderer(backend: .cpu, options: options).render(recipe, inputs: ["main": cut], output: output)
        XCTAssertTrue(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") })
        XCTAssertTrue(report.warnings.contains { $0.contains("truncated") }, "\(report.warnings)")
        XCTAssertEqual(try TestImages.decode(path: output).width, 64)
    }

    /// A cancelled render on the planes stops inside the transcode (nothing before it looks at the control, so this
    /// fails if the transcode does not ask) and leaves no output and no temporary file, for a move and for a
    /// rotation; the same render not cancelled runs on the planes.
    func testACancelledRenderOnThePlanesStopsAndLeavesNothing() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jpg").path, output = dir.appendingPathComponent("out.jpg").path
        try Self.writeJPEG(Self.gradient(width: 96, height: 64), width: 96, height: 64, to: input, subsampling: .s420)
        for steps in [[(FilterID.rotate, ["degrees": ParamValue.number(90)])],
                      [(.rotate, ["degrees": 30, "kernel": "bicubic", "background": .color(.black)])]] {
            var recipe = Recipe.chain(steps)
            recipe.workingSpace = .srgb
            let control = RenderControl()
            control.cancel()
            XCTAssertThrowsError(try Renderer(backend: .cpu).render(recipe, inputs: ["main": input], output: output,
                                                                     control: control)) { error in
                guard case RenderError.cancelled = error else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["in.jpg"], "\(steps)")
            let report = try Renderer(backend: .cpu).render(recipe, inputs: ["main": input], output: output,
                                                            control: RenderControl())
            XCTAssertTrue(report.nodes.contains { $0.op.hasSuffix("(JPEG planes)") }, "\(steps): \(report.nodes.map(\.op))")
            try FileManager.default.removeItem(atPath: output)
        }
    }

    /// The luma plane's sampling factors from the SOF marker, horizontal then vertical ([2, 2] for 4:2:0, [2, 1]
    /// for 4:2:2, [1, 2] for 4:4:0, [1, 1] for 4:4:4).
    static func lumaSampling(_ path: String) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var i = 2
        while i + 4 < bytes.count {
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 { return [Int(bytes[i + 11] >> 4), Int(bytes[i + 11] & 15)] }
            i += 2 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
