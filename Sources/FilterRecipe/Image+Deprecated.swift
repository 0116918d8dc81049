import FilterCore

/// Names the builder had before its methods were generated from the catalogue (one name per filter). They stay, deprecated, so
/// code written against them still compiles and says what to write instead; they go in a later minor version.
extension Image {
    @available(*, deprecated, renamed: "resize(scale:kernel:)")
    public func resized(scale: Double, kernel: ResampleKernel = .lanczos3) throws -> Image {
        try resize(scale: scale, kernel: kernel)
    }

    @available(*, deprecated, renamed: "resize(width:height:kernel:)")
    public func resized(width: Int? = nil, height: Int? = nil, kernel: ResampleKernel = .lanczos3) throws -> Image {
        try resize(width: width ?? 0, height: height ?? 0, kernel: kernel)
    }

    @available(*, deprecated, renamed: "crop(x:y:width:height:)")
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws -> Image {
        try crop(x: x, y: y, width: width, height: height)
    }

    /// Blends `self` (the source) onto `backdrop`.
    @available(*, deprecated, renamed: "blend(backdrop:mode:opacity:)")
    public func blended(onto backdrop: Image, mode: BlendMode = .normal, opacity: Double = 1) throws -> Image {
        try blend(backdrop: backdrop, mode: mode, opacity: opacity)
    }
}
