import ArgumentParser
import FilterRecipe
import Foundation

/// `filterrun stats RECIPE IMAGE` (or `stats IMAGE`, the image as it is): the recipe's result as numbers (histograms, means, main colours, BlurHash) in JSON,
/// for placeholders and auto-tuning without a second tool.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a recipe's result as statistics (histograms, mean, main colours, BlurHash, ThumbHash) in JSON.",
        discussion: """
        The result is rendered on the CPU and streamed through the statistics (never held whole). Histograms count \
        8-bit codes of each channel; main colours are k-means clusters in CIE L*a*b* of the result box-averaged to \
        fit 100×100, as is the BlurHash. Exit codes as for a render.
        """)

    @Argument(help: "The recipe (JSON); with one argument, the image (its statistics as it is).") var recipe: String
    @Argument(help: "The main input image.") var image: String?
    @Option(name: .customLong("input"), help: ArgumentHelp("Another recipe input (repeatable).", valueName: "NAME=PATH"))
    var extraInputs: [String] = []
    @Option(help: ArgumentHelp("BlurHash components, X×Y, 1…9 each.", valueName: "XxY")) var components = "4x3"
    @Option(name: [.customLong("colours"), .customLong("colors")], help: ArgumentHelp("How many main colours, 1…16 (--colors also).", valueName: "N")) var colors = 5

    func run() throws {
        let sizes = components.lowercased().split(separator: "x").compactMap { Int($0) }
        guard sizes.count == 2 else { throw CommandFailure(description: "--components expects X×Y such as 4x3, got \(components)") }
        do {
            // `filterrun stats IMAGE`: the image as it is.
            let recipe = image == nil ? try Recipe(json: Data(#"{"version": 1, "steps": []}"#.utf8)) : try Recipe(contentsOfFile: self.recipe)
            var inputs = try NamedInputs.parse(extraInputs)
            inputs[recipe.inputs.first ?? "main"] = image ?? self.recipe
            let statistics = try Renderer(backend: .cpu).statistics(recipe, inputs: inputs,
                                                                    blurHashComponents: (sizes[0], sizes[1]), colours: colors)
            print(String(decoding: try statistics.jsonData(), as: UTF8.self))
        } catch let error as RecipeError {
            FileHandle.standardError.write(Data("filterrun: \(self.recipe): \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as RenderError {
            FileHandle.standardError.write(Data("filterrun: \(error.description)\n".utf8))
            throw ExitCode(error.exitCode)
        }
    }
}
