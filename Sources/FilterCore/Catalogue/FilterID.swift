/// Every filter of the catalogue, by the name recipes use. Backends switch over the primitives these lower to.
public enum FilterID: String, CaseIterable, Sendable {
    // Colour, per pixel
    case exposure, colorControls, gamma, hueRotate, vibrance, temperatureTint, colorMatrix, levels, curves
    case invert, grayscale, sepia, threshold, posterize, opacity, vignette, clamp, lut, monochrome, autoLevels, whitePoint
    // Neighbourhood
    case gaussianBlur, boxBlur, unsharpMask, sharpen, convolve, sobel, median, dilate, erode, motionBlur, zoomBlur, bilateral, noiseReduction
    // Local tone
    case highlightsShadows, localContrast
    // Geometry
    case resize, crop, trim, flip, rotate, straighten, transpose, pad, affine, perspective
    // Compositing
    case blend, blendWithMask, over, setAlpha
    // Generators
    case solidColor, linearGradient, radialGradient, checkerboard, text

    public var spec: FilterSpec {
        switch self {
        case .exposure: return ColourFilters.exposure
        case .colorControls: return ColourFilters.colorControls
        case .gamma: return ColourFilters.gamma
        case .hueRotate: return ColourFilters.hueRotate
        case .vibrance: return ColourFilters.vibrance
        case .temperatureTint: return ColourFilters.temperatureTint
        case .colorMatrix: return ColourFilters.colorMatrix
        case .levels: return ColourFilters.levels
        case .curves: return ColourFilters.curves
        case .invert: return ColourFilters.invert
        case .grayscale: return ColourFilters.grayscale
        case .sepia: return ColourFilters.sepia
        case .threshold: return ColourFilters.threshold
        case .posterize: return ColourFilters.posterize
        case .opacity: return ColourFilters.opacity
        case .clamp: return ColourFilters.clamp
        case .vignette: return ColourFilters.vignette
        case .lut: return ColourFilters.lut
        case .monochrome: return ColourFilters.monochrome
        case .autoLevels: return ColourFilters.autoLevels
        case .whitePoint: return ColourFilters.whitePoint
        case .gaussianBlur: return NeighbourhoodFilters.gaussianBlur
        case .boxBlur: return NeighbourhoodFilters.boxBlur
        case .unsharpMask: return NeighbourhoodFilters.unsharpMask
        case .sharpen: return NeighbourhoodFilters.sharpen
        case .convolve: return NeighbourhoodFilters.convolve
        case .sobel: return NeighbourhoodFilters.sobel
        case .median: return NeighbourhoodFilters.median
        case .dilate: return NeighbourhoodFilters.dilate
        case .erode: return NeighbourhoodFilters.erode
        case .motionBlur: return NeighbourhoodFilters.motionBlur
        case .zoomBlur: return NeighbourhoodFilters.zoomBlur
        case .bilateral: return NeighbourhoodFilters.bilateral
        case .noiseReduction: return NeighbourhoodFilters.noiseReduction
        case .highlightsShadows: return ToneFilters.highlightsShadows
        case .localContrast: return ToneFilters.localContrast
        case .resize: return GeometryFilters.resize
        case .crop: return GeometryFilters.crop
        case .trim: return GeometryFilters.trim
        case .flip: return GeometryFilters.flip
        case .rotate: return GeometryFilters.rotate
        case .straighten: return GeometryFilters.straighten
        case .transpose: return GeometryFilters.transpose
        case .pad: return GeometryFilters.pad
        case .affine: return GeometryFilters.affine
        case .perspective: return GeometryFilters.perspective
        case .blend: return CompositingFilters.blend
        case .blendWithMask: return CompositingFilters.blendWithMask
        case .setAlpha: return CompositingFilters.setAlpha
        case .over: return CompositingFilters.over
        case .solidColor: return GeneratorFilters.solidColor
        case .linearGradient: return GeneratorFilters.linearGradient
        case .radialGradient: return GeneratorFilters.radialGradient
        case .checkerboard: return GeneratorFilters.checkerboard
        case .text: return GeneratorFilters.text
        }
    }
}
