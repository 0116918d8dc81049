import CPUBackend
import FilterCore
import Foundation

/// What a recipe's result looks like in numbers, for placeholders and auto-tuning: histograms, means, main colours,
/// a BlurHash and a ThumbHash. `filterrun stats` prints it as JSON (this type's `Codable` form).
public struct ImageStatistics: Codable, Sendable, Equatable {
    public struct Colour: Codable, Sendable, Equatable {
        /// "#rrggbb", sRGB.
        public var hex: String
        /// The fraction of the (opaque) pixels in this colour's cluster.
        public var share: Double
    }

    public var width: Int
    public var height: Int
    /// The result's channels, in order: "grey", "grey"+"alpha", "red", "green", "blue" (+ "alpha").
    public var channels: [String]
    /// Mean of each channel, sRGB-encoded, in 0...1.
    public var mean: [Double]
    /// 256 counts of 8-bit codes for each channel, by channel name.
    public var histograms: [String: [Int]]
    /// The main colours (k-means in CIE L*a*b*), largest share first.
    public var dominantColors: [Colour]
    /// BlurHash of the result box-averaged to fit 100×100.
    public var blurHash: String
    public var blurHashComponents: [Int]
    /// ThumbHash (base64) of the same small copy: keeps the aspect ratio and alpha.
    public var thumbHash: String

    /// The statistics as pretty-printed JSON with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension Renderer {
    /// Renders `recipe` on the CPU into statistics instead of a file: the result streams through, never held whole.
    /// `blurHashComponents` are BlurHash's x and y counts (1…9), `colours` how many main colours to find (1…16).
    public func statistics(_ recipe: Recipe, inputs: [String: String], blurHashComponents: (x: Int, y: Int) = (4, 3),
                           colours: Int = 5) throws -> ImageStatistics {
        guard (1...9).contains(blurHashComponents.x), (1...9).contains(blurHashComponents.y) else {
            throw RenderError.recipe(RecipeError(path: "blurHashComponents", "BlurHash takes 1…9 components on each axis"))
        }
        guard (1...16).contains(colours) else {
            throw RenderError.recipe(RecipeError(path: "colours", "give 1…16 main colours"))
        }
        let (decoders, plan, _, _, _) = try prepare(recipe, inputs: inputs.mapValues(ImageInput.file))
        let natural = outputFormat(plan: plan, recipe: recipe, inputFormats: decoders.mapValues(\.storedFormat))
        let format = PixelFormat.integer(channels: natural.channels, depth: 8)!
        let node = plan.nodes[plan.output]
        let sink = StatisticsSink(width: node.width, height: node.height, channels: format.channels)
        do { try CPURenderer.render(plan, sources: decoders, to: sink, format: format) }
        catch let error as CodecError { throw RenderError.reading(error.path, error) }
        let names: [String]
        switch format.channels {
        case 1: names = ["grey"]
        case 2: names = ["grey", "alpha"]
        case 3: names = ["red", "green", "blue"]
        default: names = ["red", "green", "blue", "alpha"]
        }
        let reduced = sink.reducedRGBA
        let clusters = DominantColours.clusters(rgba: reduced, count: colours)
        return ImageStatistics(
            width: node.width, height: node.height, channels: names, mean: sink.means,
            histograms: Dictionary(uniqueKeysWithValues: zip(names, sink.histograms)),
            dominantColors: clusters.map { c in
                ImageStatistics.Colour(hex: String(format: "#%02x%02x%02x", c.rgb[0], c.rgb[1], c.rgb[2]), share: c.share)
            },
            blurHash: BlurHash.encode(rgba: reduced, width: sink.gridWidth, height: sink.gridHeight,
                                      x: blurHashComponents.x, y: blurHashComponents.y),
            blurHashComponents: [blurHashComponents.x, blurHashComponents.y],
            thumbHash: Data(ThumbHash.encode(rgba: reduced, width: sink.gridWidth, height: sink.gridHeight)).base64EncodedString())
    }
}
