import FilterCore
import Foundation
import PNGCodec

/// The PNG encoder alone: one decoded photo written with each setting (`libpng:LEVEL:FILTER` for libpng's own
/// single-threaded compression, `ours:LEVEL:FILTER` for the parallel one on `FILTERRUN_THREADS` threads), settings
/// interleaved, median seconds of `runs` after a warm-up, file size, and each against the first setting.
enum PNGEncodeBench {
    static let defaultSettings = "libpng:6:all,ours:6:all,libpng:2:up,ours:2:up,ours:3:paeth,ours:3:all,ours:4:all,ours:2:all"

    static func run(photo: String, settings: String, runs: Int, machine: String) throws {
        let image = try PNGDecoder.decode(path: photo)
        let cases = try settings.split(separator: ",").map { try parse(String($0)) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("filterbench-encode-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var times = [[Double]](repeating: [], count: cases.count)
        var sizes = [Int](repeating: 0, count: cases.count)
        for round in 0...max(1, runs) {
            for (index, item) in cases.enumerated() {
                let began = monotonicSeconds()
                try PNGEncoder.encode(image, to: output, options: item.options, replace: true)
                if round > 0 { times[index].append(monotonicSeconds() - began) }
                sizes[index] = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print("PNG encode: \(URL(fileURLWithPath: photo).lastPathComponent) \(image.width)×\(image.height) \(image.format.rawValue), "
              + "\(WorkerPool.width) thread(s), median of \(runs), \(machine)")
        print("| setting | s | MiB | speed vs \(cases[0].name) | size vs \(cases[0].name) |")
        print("|---|---|---|---|---|")
        for (index, item) in cases.enumerated() {
            print(String(format: "| %@ | %.3f | %.2f | %.2f× | %+.2f %% |", item.name, median(times[index]),
                         Double(sizes[index]) / 1_048_576, median(times[0]) / median(times[index]),
                         100 * (Double(sizes[index]) / Double(sizes[0]) - 1)))
        }
    }

    private static func parse(_ text: String) throws -> (name: String, options: PNGWriteOptions) {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 3, ["libpng", "ours"].contains(parts[0]), let level = Int(parts[1]), (0...9).contains(level),
              let filter = PNGWriteOptions.Filter(rawValue: parts[2]) else {
            throw BenchError("--png-settings: \"\(text)\" is not libpng|ours:LEVEL:FILTER (e.g. ours:6:all)")
        }
        var options = PNGWriteOptions(compressionLevel: level, filter: filter)
        if parts[0] == "libpng" { options.compressor = .libpng }
        return (text, options)
    }
}
