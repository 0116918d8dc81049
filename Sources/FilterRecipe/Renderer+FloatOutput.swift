import ColourProfiles
import FilterCore

extension Renderer {
    /// Whether the output is a float TIFF or JPEG XL: asked for (`depth` 32), or a TIFF or JPEG XL following a float
    /// input (TIFF or JPEG XL) when no depth is asked. Floats are linear light on sRGB primaries (scRGB; a TIFF untagged, a
    /// JPEG XL declaring linear sRGB): other outputs of depth 32 and other output profiles are refused rather than
    /// written as something else.
    func floatOutput(recipe: Recipe, decoders: [String: any ImageDecoder], fileFormat: ImageFileFormat,
                     profile: ColourProfile?, output: String) throws -> Bool {
        let main = recipe.inputs.lazy.compactMap { decoders[$0] }.first
        let writesFloats = fileFormat == .tiff || fileFormat == .jxl
        let floats = options.depth == 32 || (options.depth == nil && writesFloats && main?.storesFloats == true)
        guard floats else { return false }
        guard writesFloats else {
            throw RenderError.output(OutputError(.unknownFormat, path: output, "32-bit float output is written as TIFF "
                + "or JPEG XL only; end the name in .tif, .tiff or .jxl, or ask for depth 8 or 16"))
        }
        if let profile, profile !== ColourProfile.linearSRGB {
            throw RenderError.output(OutputError(.unknownFormat, path: output, "a float \(fileFormat.name) is written as "
                + "linear light on sRGB primaries; the output profile \"\(profile.name)\" cannot be kept (ask for depth 16 "
                + "to write in it)"))
        }
        return true
    }
}
