import Foundation

/// One recipe on one image with one backend, run as child processes of filterrun so that each run's peak memory
/// is its own; stage times come from `--stats=json`.
struct BenchCase {
    var recipe: String
    var recipeName: String
    var image: String
    var backend: String
    var extraInputs: [String]
    /// More filterrun arguments (e.g. --no-optimize), shown in the case's label.
    var arguments: [String] = []

    var label: String { ([backend] + arguments).joined(separator: " ") }

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
        var arguments = [recipe, image, output, "--backend", backend, "--force", "--stats=json"]
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
              let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw BenchError("\(recipeName) on \(image) (\(backend)) failed: \(text)")
        }
        func seconds(_ key: String) -> Double { json[key] as? Double ?? 0 }
        return Run(wall: wall, decode: seconds("decodeSeconds"), filter: seconds("filterSeconds"),
                   transfer: seconds("transferSeconds"), compile: seconds("compileSeconds"),
                   encode: seconds("encodeSeconds"), total: seconds("totalSeconds"),
                   peakResidentBytes: json["peakResidentBytes"] as? Int ?? 0, ranOn: json["backend"] as? String ?? "?")
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
    var summary: [String: Any] {
        func spread(_ s: Spread) -> [String: Double] { ["median": s.median, "min": s.min, "max": s.max] }
        return ["recipe": recipe, "image": image, "backend": backend, "runs": runs.count,
                "wallSeconds": spread(wall), "decodeSeconds": spread(decode), "filterSeconds": spread(filter),
                "transferSeconds": spread(transfer), "compileSeconds": spread(compile), "encodeSeconds": spread(encode),
                "peakResidentMiB": peakMiB]
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
