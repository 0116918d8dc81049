import ColourProfiles
import FilterCore

extension Renderer {
    /// Whether the output is a float TIFF: asked for (`depth` 32), or a TIFF following a float TIFF input when no
    /// depth is asked. Floats are linear light on sRGB primaries, untagged (scRGB): other outputs of depth 32 and
    /// other output profiles are refused rather than written as something else.
    func floatOutput(recipe: Recipe, decoders: [String: any ImageDecoder], fileFormat: ImageFileFormat,
                     profile: ColourProfile?, output: String) throws -> Bool {
        let main = recipe.inputs.lazy.compactMap { decoders[$0] }.first
        let floats = options.depth == 32 || (options.depth == nil && fileFormat == .tiff && main?.storesFloats == true)
        guard floats else { return false }
        guard fileFormat == .tiff else {
            throw RenderError.output(OutputError(.unknownFormat, path: output, "32-bit float output is written as TIFF "
                + "only; end the name in .tif or .tiff, or ask for depth 8 or 16"))
        }
        if let profile, profile !== ColourProfile.linearSRGB {
            throw RenderError.output(OutputError(.unknownFormat, path: output, "a float TIFF is written as linear light on "
                + "sRGB primaries, untagged; the output profile \"\(profile.name)\" cannot be kept (ask for depth 16 to "
                + "write in it)"))
        }
        return true
    }
}
