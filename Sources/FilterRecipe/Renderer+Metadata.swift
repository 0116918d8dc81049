import FilterCore
import JPEGCodec

extension Renderer {
    /// The EXIF and XMP the output carries under `options.metadata`, from the main input (the recipe's first), edited
    /// for the output; notes in `warnings` what a format cannot carry.
    func outputMetadata(recipe: Recipe, decoders: [String: any ImageDecoder], width: Int, height: Int,
                        format: ImageFileFormat, warnings: inout [String]) -> OutputMetadata? {
        guard options.metadata != .strip, let main = recipe.inputs.lazy.compactMap({ decoders[$0] }).first else { return nil }
        guard var carried = OutputMetadata(from: main.metadata, policy: options.metadata, width: width, height: height,
                                           upright: options.autorotate) else { return nil }
        switch format {
        case .jpeg:
            // One APP1 segment for EXIF; XMP in one, or as a JPEG input's standard packet and its extension.
            if let exif = carried.exif, exif.count > JPEGEncoder.maxExifBytes {
                warnings.append("note: the input's EXIF (\(exif.count) bytes) does not fit a JPEG APP1 segment; it is left out")
                carried.exif = nil
            }
            if let xmp = carried.xmp, xmp.count > JPEGEncoder.maxXMPBytes {
                if let split = carried.extendedXMP, split.standard.count <= JPEGEncoder.maxXMPBytes {
                    carried.xmp = split.standard
                } else {
                    warnings.append("note: the input's XMP (\(xmp.count) bytes) does not fit a JPEG APP1 segment and was not "
                                    + "read as standard and extended XMP; it is left out")
                    carried.xmp = nil
                    carried.extendedXMP = nil
                }
            } else {
                carried.extendedXMP = nil
            }
            return carried
        case .png, .webp, .avif, .jxl:
            return carried
        case .tiff:
            // XMP goes in the XMLPacket tag; EXIF is rewritten field by field into the file's own Exif and GPS
            // directories (the maker note, whose inner offsets would not survive the move, is left out).
            return carried
        case .gif:
            // XMP in its application extension; GIF has no place for EXIF.
            if carried.exif != nil {
                warnings.append("note: GIF has no place for EXIF; the input's EXIF is left out (its XMP is kept)")
            }
            carried.exif = nil
            return carried.xmp == nil ? nil : carried
        case .heic:
            warnings.append("note: \(format.name) outputs do not carry EXIF or XMP yet; \(SettingName.keepMetadata) has no effect on them")
            return nil
        }
    }
}
