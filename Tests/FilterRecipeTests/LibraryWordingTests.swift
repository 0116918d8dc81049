import FilterRecipe
import Foundation
import TestSupport
import XCTest

/// A Swift caller reads the library's words: errors point to `Renderer.Options`, not to command-line flags, and
/// what the library returns prints as a person reads it, without implementation module names.
final class LibraryWordingTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    let photo = Fixtures.path("photos/chelsea_451x300_rgb8.png")

    func testErrorsNameTheLibrarysSettings() throws {
        let output = scratch.appendingPathComponent("out.png").path
        let image = try Image(contentsOf: URL(fileURLWithPath: photo)).invert()
        try image.render(to: output, renderer: Renderer(backend: .cpu))
        XCTAssertThrowsError(try image.render(to: output, renderer: Renderer(backend: .cpu))) { error in
            XCTAssertTrue("\(error)".contains("exists (set Renderer.Options.replaceExisting to replace it)"), "\(error)")
        }
        var options = Renderer.Options()
        options.maxPixels = 1000
        XCTAssertThrowsError(try image.render(to: scratch.appendingPathComponent("big.png").path,
                                              renderer: Renderer(backend: .cpu, options: options))) { error in
            XCTAssertTrue("\(error)".contains("(Renderer.Options.maxPixels)"), "\(error)")
        }
        options = Renderer.Options()
        options.maxWork = 10
        XCTAssertThrowsError(try image.gaussianBlur(sigma: 20).render(to: scratch.appendingPathComponent("w.png").path,
                                                                       renderer: Renderer(backend: .cpu, options: options))) { error in
            XCTAssertTrue("\(error)".contains("Renderer.Options.maxWork"), "\(error)")
        }
        XCTAssertThrowsError(try Image(input: "main").blend(backdrop: Image(input: "other"))
            .render(to: scratch.appendingPathComponent("b.png").path, renderer: Renderer(backend: .cpu), inputs: ["main": photo])) { error in
            XCTAssertTrue("\(error)".contains("no image given for input \"other\""), "\(error)")
        }
        for error in try collectedMessages() {
            XCTAssertFalse(error.contains(" --"), "a command-line flag in a library message: \(error)")
        }
    }

    /// Messages of every kind a library caller meets, gathered for the flag check above.
    func collectedMessages() throws -> [String] {
        var messages = [String]()
        let output = scratch.appendingPathComponent("m.png").path
        let renderer = Renderer(backend: .cpu)
        let image = try Image(input: "main").invert()
        for attempt in [{ try image.render(to: output, renderer: renderer, inputs: ["main": self.photo]) },
                        { try image.render(to: output, renderer: renderer, inputs: ["main": self.photo]) },
                        { try image.render(to: self.scratch.appendingPathComponent("x.heic").path, renderer: renderer,
                                           inputs: ["main": self.photo]) },
                        { try image.render(to: output, renderer: renderer, inputs: [:]) }] {
            do { _ = try attempt() } catch { messages.append("\(error)") }
        }
        XCTAssertEqual(messages.count, 3, "\(messages)")
        return messages
    }

    func testReportsPrintAsOneLineAndDecodeFromTheirJSON() throws {
        let output = scratch.appendingPathComponent("r.png").path
        let report = try Image(contentsOf: URL(fileURLWithPath: photo)).exposure(ev: 0.5)
            .render(to: output, renderer: Renderer(backend: .cpu))
        let line = "\(report)"
        XCTAssertTrue(line.hasPrefix("cpu, 451×300 rgb8, "), line)
        XCTAssertFalse(line.contains("\n") || line.contains("FilterCore") || line.contains("FilterRecipe."), line)
        let image = try Image(input: "main").invert()
        let buffer = PixelBuffer(width: 3, height: 2, format: .rgb8)
        XCTAssertEqual("\(buffer)", "3×2 rgb8 on the host")
        XCTAssertTrue("\(image)".contains("\"op\" : \"invert\""), "\(image)")
        XCTAssertEqual("\(image.recipe)", "\(image)")
        for value in ["\(report.nodes)", "\(report.transfers)", "\(report.format)", "\(image)", "\(image.recipe)", "\(buffer)"] {
            XCTAssertFalse(value.contains("FilterCore"), value)
        }
        // The Codable form is the --stats=json schema: flat keys, and it reads back to the same report.
        let data = try report.jsonData()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["backend", "width", "height", "format", "decodeSeconds", "filterSeconds", "encodeSeconds", "totalSeconds",
                    "peakResidentBytes", "uploads", "downloads", "bytesUploaded", "bytesDownloaded", "nodes", "warnings"] {
            XCTAssertNotNil(object[key], key)
        }
        let again = try JSONDecoder().decode(RenderReport.self, from: data)
        XCTAssertEqual(try again.jsonData(), data)
    }
}
