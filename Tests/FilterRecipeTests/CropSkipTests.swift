import FilterCore
import FilterRecipe
import Foundation
import JPEGCodec
import TestSupport
import XCTest

/// A source below a crop is passed over, not decoded, above the crop (`Plan.firstRowsRead`, libjpeg-turbo's
/// `jpeg_skip_scanlines`): the crop's pixels are those of the whole decoded photo, cropped, at every subsampling and
/// at crop rows on and off the chroma and block rows.
final class CropSkipTests: XCTestCase {
    func testCropsBelowTheTopGiveTheDecodedPixels() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crop-skip-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = ["jpeg/baseline_420.jpg", "jpeg/progressive_422.jpg", "jpeg/restart_444.jpg", "jpeg/grey.jpg"]
            .map { Fixtures.path($0) }
        // An odd-sized 4:2:0 photo whose colour changes along both axes.
        let odd = directory.appendingPathComponent("odd_420.jpg").path
        try JPEGPlaneMoveTests.writeJPEG(JPEGPlaneMoveTests.gradient(width: 67, height: 53), width: 67, height: 53,
                                         to: odd, subsampling: .s420)
        files.append(odd)
        for file in files {
            let whole = try TestImages.decode(path: file)
            let (w, h, bpp) = (whole.width, whole.height, whole.format.bytesPerPixel)
            let wholeBytes = try whole.hostBytes()
            for y in Set([1, 7, 8, 9, 15, 16, 17, h / 2, h - 2].filter { $0 > 0 && $0 < h - 1 }).sorted() {
                for x in [0, 5] {
                    let width = min(w - x, 21), height = min(h - y, 9)
                    let recipe = Recipe.chain([(.crop, ["x": .number(Double(x)), "y": .number(Double(y)),
                                                        "width": .number(Double(width)), "height": .number(Double(height))])])
                    let output = directory.appendingPathComponent("out.png").path
                    try? FileManager.default.removeItem(atPath: output)
                    _ = try Renderer(backend: .cpu).render(recipe, inputs: ["main": file], output: output)
                    let cropped = try TestImages.decode(path: output)
                    XCTAssertEqual(cropped.format, whole.format)
                    let bytes = try cropped.hostBytes()
                    var differing = 0
                    for row in 0..<height {
                        for i in 0..<width * bpp where bytes.load(fromByteOffset: row * cropped.rowStride + i, as: UInt8.self)
                            != wholeBytes.load(fromByteOffset: (y + row) * whole.rowStride + x * bpp + i, as: UInt8.self) {
                            differing += 1
                        }
                    }
                    XCTAssertEqual(differing, 0, "\((file as NSString).lastPathComponent) crop at \(x),\(y)")
                }
            }
        }
    }

    /// The rows each node is first read from: a crop's top (less the reach of a blur before it; a box blur's
    /// running sums start at their segment's top); 0 for a node read whole (a vertical flip) and for the output.
    func testFirstRowsRead() throws {
        func plan(_ steps: [(FilterID, [String: ParamValue])]) throws -> Plan {
            try Recipe.chain(steps).plan(inputSizes: ["main": (100, 80)])
        }
        let crop: (FilterID, [String: ParamValue]) = (.crop, ["x": 10, "y": 30, "width": 50, "height": 20])
        XCTAssertEqual(try plan([crop]).firstRowsRead(), [30, 0])
        XCTAssertEqual(try plan([crop, (.gaussianBlur, ["sigma": 1])]).firstRowsRead().first, 30)
        let blurred = try plan([(.gaussianBlur, ["sigma": 1]), crop])
        let reach = try XCTUnwrap(blurred.rowRule(of: 1).reach)
        XCTAssertGreaterThan(reach, 0)
        XCTAssertEqual(blurred.firstRowsRead(), [30 - reach, 30, 0])
        XCTAssertEqual(try plan([(.boxBlur, ["radius": 2]), crop]).firstRowsRead(), [0, 30, 0])
        XCTAssertEqual(try plan([(.flip, ["direction": "vertical"]), crop]).firstRowsRead(), [0, 30, 0])
    }
}
