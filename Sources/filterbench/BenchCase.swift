import FilterCore
import Foundation

/// One recipe on one image with one backend, run as child processes of filterrun so that each run's peak memory
/// is its own; stage times come from `--stats=json`.
struct BenchCase {
    var recipe: String
    var recipeName: String
    var image: String
    var backend: Backend
    var extraInputs: [String]
    /// More filterrun arguments (e.g. --no-optimize), shown in the case's label.
    var arguments: [String] = []

    var label: String { ([backend.rawValue] + arguments).joined(separator: " ") }

    /// The figures of one run.
    struct Run: Codable {
        var wall: Double
        var decode: Double
        var filter: Double
        var transfer: Double
        var compile: Double
        var encode: Double
        var total: Double
        var peakResidentBytes: Int
        var ranOn: String
    }

    /// Runs filterrun once, writing `output`.
    func run(filterrun: String, output: String, compression: Int?) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: filterrun)
        var arguments = [recipe, image, output, "--backend", backend.rawValue, "--force", "--stats=json"]
        for input in extraInputs { arguments += ["--input", "\(input)=\(image)"] }
        if let compression { arguments += ["--compression", String(compression)] }
        process.arguments = arguments + self.arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let began = Date()
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let wall = Date().timeIntervalSince(began)
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let stats = try? JSONDecoder().decode(RenderStatsLine.self, from: Data(line.utf8)) else {
            throw BenchError("\(recipeName) on \(image) (\(backend)) failed: \(text)")
        }
        return Run(wall: wall, decode: stats.decodeSeconds ?? 0, filter: stats.filterSeconds ?? 0,
                   transfer: stats.transferSeconds ?? 0, compile: stats.compileSeconds ?? 0,
                   encode: stats.encodeSeconds ?? 0, total: stats.totalSeconds ?? 0,
                   peakResidentBytes: stats.peakResidentBytes ?? 0, ranOn: stats.backend ?? "?")
    }

    /// The fields of filterrun's `--stats=json` line a run reads.
    struct RenderStatsLine: Decodable {
        var decodeSeconds, filterSeconds, transferSeconds, compileSeconds, encodeSeconds, totalSeconds: Double?
        var peakResidentBytes: Int?
        var backend: String?
    }
}

/// Median, min and max of one measure over a case's runs.
struct Spread: Codable {
    var median: Double
    var min: Double
    var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }
}

/// A case's results: every run, and the spread of each stage.
struct CaseResult: Codable {
    var recipe: String
    var image: String
    var backend: String
    var runs: [BenchCase.Run]
    var wall: Spread { Spread(runs.map(\.wall)) }
    var decode: Spread { Spread(runs.map(\.decode)) }
    var filter: Spread { Spread(runs.map(\.filter)) }
    var transfer: Spread { Spread(runs.map(\.transfer)) }
    var compile: Spread { Spread(runs.map(\.compile)) }
    var encode: Spread { Spread(runs.map(\.encode)) }
    var peakMiB: Double { Spread(runs.map { Double($0.peakResidentBytes) / 1_048_576 }).median }

    enum CodingKeys: String, CodingKey { case recipe, image, backend, runs }

    /// The JSON form, with the spreads written out.
    struct Summary: Encodable {
        var recipe, image, backend: String
        var runs: Int
        var wallSeconds, decodeSeconds, filterSeconds, transferSeconds, compileSeconds, encodeSeconds: Spread
        var peakResidentMiB: Double
    }

    var summary: Summary {
        Summary(recipe: recipe, image: image, backend: backend, runs: runs.count, wallSeconds: wall, decodeSeconds: decode,
                filterSeconds: filter, transferSeconds: transfer, compileSeconds: compile, encodeSeconds: encode,
                peakResidentMiB: peakMiB)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
