import ArgumentParser
import FilterCore
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
                throw CommandFailure(description: "unknown filter \"\(id)\"\(FilterSynonyms.hint(forFilter: id)); filterrun list shows them all")
            }
            specs = [filter.spec]
        }
        if json {
            let objects: [[String: Any]] = specs.map { spec in
                ["id": spec.id.rawValue, "family": spec.family.rawValue, "summary": spec.summary,
                 "formula": spec.formula, "inputs": spec.inputs, "tolerance": spec.tolerance,
                 "follows": spec.id.conformance.standard, "edges": spec.id.conformance.edges,
                 "alpha": spec.id.conformance.alpha,
                 "params": spec.params.map { ["name": $0.name, "accepts": $0.expectation,
                                              "default": $0.defaultValue.jsonObject, "summary": $0.summary] }]
            }
            let data = try JSONSerialization.data(withJSONObject: id == nil ? objects as Any : objects[0], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
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
        let object = value.jsonObject
        if let data = try? JSONSerialization.data(withJSONObject: [object], options: [.fragmentsAllowed]) {
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        return "\(object)"
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
    func run() throws { print(String(decoding: try CatalogueSchema.jsonData(), as: UTF8.self)) }
}

struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance", abstract: "Print the conformance table: each filter's standard, edges, alpha and tests.")
    func run() throws { print(ConformanceTable.markdown(), terminator: "") }
}
