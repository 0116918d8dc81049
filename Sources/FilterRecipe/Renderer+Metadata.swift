import FilterCore

extension Renderer {
    /// The EXIF and XMP the output carries under `options.metadata`, from the main input (the recipe's first), edited
    /// for the output; notes in `warnings` what a format cannot carry (its codec says, `ImageCodec.carried`).
    func outputMetadata(recipe: Recipe, decoders: [String: any ImageDecoder], width: Int, height: Int,
                        format: ImageFileFormat, warnings: inout [String]) -> OutputMetadata? {
        guard options.metadata != .strip, let main = recipe.inputs.lazy.compactMap({ decoders[$0] }).first else { return nil }
        guard let carried = OutputMetadata(from: main.metadata, policy: options.metadata, width: width, height: height,
                                           upright: options.autorotate) else { return nil }
        return format.codec.carried(carried, &warnings)
    }
}
