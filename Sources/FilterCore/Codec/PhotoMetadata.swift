import Foundation

/// What an output carries of its main input's EXIF and XMP. By default nothing (as sharp and imgproxy do: a
/// photo's location never leaves by accident); the colour profile is another matter and is always written.
public enum MetadataPolicy: String, Sendable, Equatable, CaseIterable {
    /// No EXIF, no XMP.
    case strip
    /// EXIF and XMP copied, edited for the output: orientation upright (when the image was turned upright), the
    /// embedded thumbnail dropped (it shows the photo before the recipe), the pixel dimensions the output's.
    case keep
    /// As `keep`, less the location: EXIF's GPS directory removed and erased, an XMP packet with GPS properties
    /// dropped whole.
    case keepWithoutLocation
}

/// The EXIF block (the TIFF structure, without JPEG's "Exif\0\0") and XMP packet an encoder writes.
package struct OutputMetadata: Sendable, Equatable {
    package var exif: [UInt8]?
    package var xmp: [UInt8]?
    /// `xmp` as a JPEG input's standard packet and its extension (the standard one edited): what a JPEG output
    /// writes where the whole does not fit one segment (the renderer clears it where it does); other formats write
    /// `xmp` whole.
    package var extendedXMP: ExtendedXMP?

    package init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil) {
        self.exif = exif
        self.xmp = xmp
    }

    /// The input's metadata edited for an output of `width` × `height` by `policy`; nil when nothing is carried.
    /// `upright` says the pixels were turned upright by the EXIF orientation (so the tag must say 1 now).
    package init?(from input: ImageMetadata, policy: MetadataPolicy, width: Int, height: Int, upright: Bool) {
        guard policy != .strip else { return nil }
        let stripLocation = policy == .keepWithoutLocation
        exif = input.exif.flatMap { Exif.edited($0, width: width, height: height, upright: upright, stripLocation: stripLocation) }
        xmp = input.xmp.flatMap { XMP.edited($0, width: width, height: height, upright: upright, stripLocation: stripLocation) }
        // The location check read the merged packet: what passed it holds none in the extension either.
        if xmp != nil, let split = input.extendedXMP,
           let standard = XMP.edited(split.standard, width: width, height: height, upright: upright, stripLocation: stripLocation) {
            extendedXMP = ExtendedXMP(standard: standard, extensionPacket: split.extensionPacket, guid: split.guid)
        }
        if exif == nil && xmp == nil { return nil }
    }
}

/// Edits of an XMP packet for an output, on its text: the two ways RDF writes a simple property (an attribute
/// `tiff:Orientation="6"` or an element `<tiff:Orientation>6</tiff:Orientation>`) are both rewritten.
package enum XMP {
    package static func edited(_ packet: [UInt8], width: Int, height: Int, upright: Bool, stripLocation: Bool) -> [UInt8]? {
        guard var text = String(bytes: packet, encoding: .utf8) else { return nil }
        // Location lives in exif:GPS… properties; a packet holding any is dropped whole rather than half-edited.
        if stripLocation && text.contains("exif:GPS") { return nil }
        if upright { text = set("tiff:Orientation", to: 1, in: text) }
        text = set("exif:PixelXDimension", to: width, in: text)
        text = set("exif:PixelYDimension", to: height, in: text)
        return Array(text.utf8)
    }

    static func set(_ property: String, to value: Int, in text: String) -> String {
        var text = text
        for (open, close) in [(property + "=\"", "\""), ("<" + property + ">", "</" + property + ">")] {
            var result = "", rest = text[...]
            while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
                let old = rest[start.upperBound..<end.lowerBound]
                let numeric = !old.isEmpty && old.count <= 12 && old.allSatisfy(\.isNumber)
                result += rest[..<start.upperBound] + (numeric ? String(value) : String(old)) + rest[end.lowerBound..<end.upperBound]
                rest = rest[end.upperBound...]
            }
            text = result + rest
        }
        return text
    }
}
