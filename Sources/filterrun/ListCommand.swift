import ArgumentParser
import FilterRecipe
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the filter catalogue.")

    @Argument(help: "One filter to describe in detail.") var id: String?
    @Flag(help: "Machine-readable output.") var json = false

    func run() throws {
        var specs = FilterID.allCases.map(\.spec)
        if let id {
            guard let filter = FilterID(rawValue: id) else {
                throw CommandFailure(description: "unknown filter \"\(id)\"\(CommandLineFace.hint(forUnknownFilter: id)); filterrun list shows them all")
            }
            specs = [filter.spec]
        }
        if json {
            let entries = specs.map(CatalogueEntry.init)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = id == nil ? try encoder.encode(entries) : try encoder.encode(entries[0])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for spec in specs {
            let params = spec.params.map { "\($0.name)=\(defaultText($0.defaultValue)) (\(shortRange($0)))" }
            if id == nil {
                print(([spec.id.rawValue] + params).joined(separator: " "))
                continue
            }
            print("\(spec.id.rawValue) (\(spec.family.rawValue)): \(spec.summary)")
            print("  formula: \(spec.formula)")
            print("  inputs: \(spec.inputs.joined(separator: ", "))\(spec.isGenerator ? " (optional: gives the size)" : "")")
            print("  tolerance between backends: \(spec.tolerance) (8-bit codes)")
            let conformance = spec.id.conformance
            print("  follows: \(conformance.standard)")
            print("  edges: \(conformance.edges)")
            print("  alpha: \(conformance.alpha)")
            for p in spec.params {
                print("  \(p.name): \(p.summary); \(p.expectation); default \(defaultText(p.defaultValue))")
            }
        }
    }

    func defaultText(_ value: ParamValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }

    func shortRange(_ p: ParamSpec) -> String {
        switch p.kind {
        case .number(let r): return "\(r.lowerBound)...\(r.upperBound)"
        case .integer(let r): return "\(r.lowerBound)...\(r.upperBound)"
        case .choice(let o): return o.joined(separator: "|")
        default: return p.expectation
        }
    }
}

/// An error printed as it is, without the usage lines a mistyped option gets.
struct CommandFailure: Error, CustomStringConvertible { let description: String }

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "schema", abstract: "Print the recipe JSON Schema.")
    func run() throws { print(String(decoding: try CommandLineFace.recipeSchema(), as: UTF8.self)) }
}

struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance", abstract: "Print the conformance table: each filter's standard, edges, alpha and tests.")
    func run() throws { print(CommandLineFace.conformanceTable(), terminator: "") }
}

/// One filter of `filterrun list --json`: its declaration and conformance, as `filterrun list ID` prints them.
struct CatalogueEntry: Encodable {
    struct Parameter: Encodable {
        let name: String, accepts: String, summary: String
        let `default`: ParamValue
    }

    let id: String, family: String, summary: String, formula: String
    let inputs: [String]
    let tolerance: Double
    let follows: String, edges: String, alpha: String
    let params: [Parameter]

    init(_ spec: FilterSpec) {
        id = spec.id.rawValue
        family = spec.family.rawValue
        summary = spec.summary
        formula = spec.formula
        inputs = spec.inputs
        tolerance = spec.tolerance
        let conformance = spec.id.conformance
        (follows, edges, alpha) = (conformance.standard, conformance.edges, conformance.alpha)
        params = spec.params.map { Parameter(name: $0.name, accepts: $0.expectation, summary: $0.summary, default: $0.defaultValue) }
    }
}
