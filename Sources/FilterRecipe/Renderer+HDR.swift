import ColourProfiles
import FilterCore

/// How an HDR render (an input in BT.2100 PQ or HLG) reaches its output: as PQ where the file can carry it (AVIF
/// at 10 or 12 bits, JPEG XL at 16, with the default output profile or the input's kept), else tone-mapped into SDR
/// by BT.2390's EETF. (Float TIFF and JPEG XL outputs keep the light as it is, linear and unclamped.)
struct HDROutput {
    /// The brightest HDR input.
    let source: HDRSource
    /// Written as BT.2100 PQ on BT.2020 primaries rather than tone-mapped.
    let keptAsPQ: Bool
}

extension Renderer {
    /// The HDR handling of this render, nil when no input is HDR. A grey layout becomes RGB (the tone map and the
    /// PQ encoding write colour); the note says which way the render went and how to get the other.
    func hdrOutput(decoders: [String: any ImageDecoder], fileFormat: ImageFileFormat, profile: ColourProfile?,
                   format: inout PixelFormat, warnings: inout [String]) -> HDROutput? {
        let sources = decoders.sorted { $0.key < $1.key }.compactMap { name, decoder in
            (decoder as? ColourManagedDecoder)?.hdr.map { (decoder.path, $0) }
        }
        guard let (path, source) = sources.max(by: { $0.1.peak < $1.1.peak }) else { return nil }
        if format.channels <= 2 { format = PixelFormat.integer(channels: format.channels + 2, depth: format.depth)! }
        let file = FileText.escaped(path)
        // Keeping the input's colour keeps an HDR input HDR; another profile asked for is an SDR target.
        var keepsInput = false
        if case .keepInput = options.outputProfile { keepsInput = true }
        let deep = fileFormat == .avif && options.avif.bitDepth > 8 || fileFormat == .jxl && format.depth == 16
        let bits = fileFormat == .jxl ? 16 : options.avif.bitDepth
        let keptAsPQ = deep && (profile == nil || keepsInput)
        if keptAsPQ {
            warnings.append("note: \(file) is HDR (BT.2100 \(source.curve.name)); written as HDR: BT.2100 PQ on BT.2020 "
                            + "primaries at \(bits) bits")
        } else {
            let how = deep ? "the output profile asked for is SDR; without it (or keeping the input's) it stays HDR"
                : fileFormat == .avif ? "AVIF written with \(SettingName.avifBitDepth) keeps it HDR"
                : fileFormat == .jxl ? "JPEG XL at 16 bits (\(SettingName.depth(16))) or as floats (\(SettingName.depth(32))) keeps it HDR"
                : "write AVIF at 10 or 12 bits, or JPEG XL at 16 or 32, to keep it HDR"
            warnings.append("note: \(file) is HDR (BT.2100 \(source.curve.name)); tone-mapped into SDR by BT.2390's EETF "
                            + String(format: "(graded peak %.0f cd/m² into SDR white, %.0f cd/m²); ", source.peak, HDR.referenceWhite)
                            + how)
        }
        return HDROutput(source: source, keptAsPQ: keptAsPQ)
    }
}
