import FilterCore
import Foundation
import HEIFCodec
import PNGCodec
import TestSupport
import XCTest

/// AVIF image sequences through libavif: lossless fixtures made by avifenc from PNG crops must come back as those
/// crops exactly, with their durations; our writer's sequences must read back the same (exactly when lossless,
/// within the PSNR table when lossy); damaged files give errors, never traps; the still path reads the primary
/// image and says the file is an animation.
final class AVIFSequenceTests: XCTestCase {
    var scratch: URL!
    override func setUp() { scratch = Fixtures.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }
    func fixture(_ name: String) -> String { Fixtures.path("heif/" + name) }

    func rgba(_ png: String) throws -> [UInt8] {
        let buffer = try PNGDecoder.decode(path: fixture(png))
        let samples = [UInt8](try buffer.packedData())
        guard buffer.format == .rgb8 else { return samples }
        var out = [UInt8]()
        for p in stride(from: 0, to: samples.count, by: 3) { out += samples[p..<(p + 3)] + [255] }
        return out
    }

    func reader(_ path: String) throws -> AVIFSequenceReader {
        try AVIFSequenceReader(descriptor: open(path, O_RDONLY), name: path, limits: DecodeLimits())
    }

    func frames(_ reader: AVIFSequenceReader) throws -> [AnimationFrame] {
        var frames = [AnimationFrame]()
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    func testLosslessSequencesReadAsTheirSources() throws {
        let sequence = try reader(fixture("avif_sequence_4frames_96x64.avif"))
        XCTAssertEqual([sequence.width, sequence.height, sequence.frameCount, sequence.loopCount], [96, 64, 4, 0])
        let read = try frames(sequence)
        XCTAssertEqual(read.map(\.durationMilliseconds), [100, 200, 300, 400])
        for (i, frame) in read.enumerated() {
            XCTAssertTrue(frame.pixels == (try rgba("sequence_frame\(i).source.png")), "frame \(i)")
        }
        let alpha = try frames(try reader(fixture("avif_sequence_alpha_96x64.avif")))
        XCTAssertEqual(alpha.map(\.durationMilliseconds), [50, 50, 50])
        for (i, frame) in alpha.enumerated() {
            XCTAssertTrue(frame.pixels == (try rgba("sequence_alpha\(i).source.png")), "alpha frame \(i)")
        }
    }

    func testWrittenSequencesReadBack() throws {
        let sources = try (0..<4).map { try rgba("sequence_frame\($0).source.png") }
        for (options, floor) in [(AVIFWriteOptions(lossless: true), Double.infinity), (AVIFWriteOptions(quality: 80), 34.0)] {
            let path = scratch.appendingPathComponent("out-\(options.lossless).avif").path
            let writer = try AnimatedAVIFWriter(output: try OutputFile(path: path, replace: false), width: 96, height: 64, options: options)
            for (i, frame) in sources.enumerated() {
                try frame.withUnsafeBytes { try writer.add(rgba: $0.baseAddress!, durationMilliseconds: 40 * (i + 1)) }
            }
            try writer.finish()
            XCTAssertTrue(AVIFSequenceReader.isSequence([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12))))
            let read = try frames(try reader(path))
            XCTAssertEqual(read.map(\.durationMilliseconds), [40, 80, 120, 160])
            for (frame, source) in zip(read, sources) {
                if floor.isInfinite {
                    XCTAssertTrue(frame.pixels == source, "lossless frames come back exactly")
                } else {
                    var sum = 0.0
                    for i in source.indices where i % 4 != 3 { sum += pow(Double(frame.pixels[i]) - Double(source[i]), 2) }
                    let psnr = 10 * log10(255 * 255 / (sum / Double(source.count * 3 / 4)))
                    XCTAssertGreaterThan(psnr, floor)
                }
            }
        }
        // What AVIF cannot hold here is refused before anything is written.
        let refused = scratch.appendingPathComponent("deep.avif").path
        XCTAssertThrowsError(try AnimatedAVIFWriter(output: try OutputFile(path: refused, replace: false), width: 96, height: 64,
                                                    options: AVIFWriteOptions(bitDepth: 12))) { XCTAssertTrue("\($0)".contains("8 bits"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused))
    }

    func testTheStillPathReadsThePrimaryImageAndSaysSo() throws {
        let decoder = try HEIFDecoder(path: fixture("avif_sequence_4frames_96x64.avif"))
        XCTAssertTrue(decoder.isSequence)
        XCTAssertTrue(decoder.fileWarnings.contains { $0.contains("is an animation; its first frame is read") }, "\(decoder.fileWarnings)")
        let samples = [UInt8](try decoder.readAll().packedData())
        var first = samples
        if decoder.format == .rgb8 {
            first = []
            for p in stride(from: 0, to: samples.count, by: 3) { first += samples[p..<(p + 3)] + [255] }
        }
        XCTAssertTrue(first == (try rgba("sequence_frame0.source.png")), "the primary image (\(decoder.format))")
        XCTAssertFalse(try HEIFDecoder(path: fixture("avif_q80_96x64.avif")).isSequence)
    }

    /// Refusals after the reader is whole (HDR frames, a size over the limits) free the decoder once: freeing it in
    /// the initializer as well as in `deinit` crashed on any HDR AVIF opened as an animation (found by
    /// FuzzSizesHEIF). Run under the address checks of the fuzz build this is a double free; here a crash.
    func testRefusalsAfterOpeningFreeTheDecoderOnce() throws {
        for name in ["avif_pq_10bit_96x64.avif", "avif_hlg_10bit_96x64.avif", "avif_pq_clli4000_96x64.avif"] {
            XCTAssertThrowsError(try reader(fixture(name)), name) { error in
                XCTAssertEqual((error as? CodecError)?.kind, .unsupported, "\(error)")
                XCTAssertTrue("\(error)".contains("HDR AVIF sequence"), "\(error)")
            }
        }
        // Memory for the frames over the limit (the file itself within it): refused once the header is read.
        let sequence = fixture("avif_sequence_4frames_96x64.avif")
        var small = DecodeLimits()
        small.maxMemory = (try FileManager.default.attributesOfItem(atPath: sequence)[.size] as? Int ?? 0) + 1000
        XCTAssertThrowsError(try AVIFSequenceReader(descriptor: open(sequence, O_RDONLY), name: "small", limits: small)) { error in
            XCTAssertEqual((error as? CodecError)?.kind, .tooLarge, "\(error)")
        }
    }

    func testDamagedSequencesAreErrorsNeverTraps() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("avif_sequence_4frames_96x64.avif")))
        var errors = 0
        for end in stride(from: 0, to: whole.count, by: 97) {
            let path = scratch.appendingPathComponent("cut\(end).avif").path
            FileManager.default.createFile(atPath: path, contents: whole.prefix(end))
            do { _ = try frames(try reader(path)) } catch let error as CodecError {
                XCTAssertTrue(error.kind == .corrupt || error.kind == .io, "\(error)")
                errors += 1
            }
        }
        XCTAssertGreaterThan(errors, 0)
        var stomped = whole
        for at in stride(from: 40, to: whole.count, by: 53) { stomped[at] ^= 0x5A }
        let path = scratch.appendingPathComponent("stomped.avif").path
        FileManager.default.createFile(atPath: path, contents: stomped)
        do { _ = try frames(try reader(path)) } catch is CodecError {}
    }
}
