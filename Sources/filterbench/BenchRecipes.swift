import FilterCore
import FilterRecipe
import Foundation

/// Single-filter recipes for `--filters`: each catalogue filter at its defaults, with the few parameters that
/// have no useful default set to ordinary values.
enum BenchRecipes {
    static let overrides: [FilterID: [String: ParamValue]] = [
        .resize: ["scale": 0.5],
        .crop: ["x": 16, "y": 16, "width": 256, "height": 256],
        .unsharpMask: ["amount": 1],
        .sharpen: ["amount": 1],
    ]

    /// A look shipped in the repository, for the LUT filter (by absolute path: the recipes are written elsewhere).
    static let look = FileManager.default.currentDirectoryPath + "/recipes/looks/teal-orange.cube"

    static func singleFilters(in directory: URL) throws -> [String] {
        try FilterID.allCases.map { id in
            let spec = id.spec
            let inputs = ["main"] + (1..<max(1, spec.inputs.count)).map { "in\($0)" }
            let params = id == .lut ? ["path": ParamValue.string(look)] : overrides[id] ?? [:]
            var node = Recipe.Node(id: id.rawValue, op: id, inputs: spec.isGenerator ? ["main"] : inputs, params: params)
            if spec.inputs.count > 1 { node.inputs = inputs.reversed() }
            let recipe = Recipe(inputs: inputs, nodes: [node], output: id.rawValue)
            let path = directory.appendingPathComponent("\(id.rawValue).json")
            try recipe.jsonData().write(to: path)
            return path.path
        }
    }
}
