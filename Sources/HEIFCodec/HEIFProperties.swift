/// The primary item's properties, read from the file's boxes (ISO/IEC 23008-12 `meta` → `iprp`): its HDR light
/// levels — `clli` (CTA-861.3's MaxCLL, cd/m²) and `mdcv` (SMPTE ST 2086's mastering display, its peak in 0.0001
/// cd/m²), which libheif 1.15 gives only on a decoded image, while the tone map is chosen before anything is
/// decoded — and whether it is coded as grey alone.
package enum HEIFProperties {
    /// The brightest light the file declares for its primary image, cd/m²: MaxCLL when set, else the mastering
    /// display's peak; nil when it declares neither (or the boxes do not parse).
    package static func peakLuminance(_ bytes: [UInt8]) -> Double? {
        var cll: Double?, mastering: Double?
        for box in primaryProperties(bytes) {
            if box.kind == "clli", box.body.count >= 4 {
                let value = number(bytes, box.body.lowerBound, 2)
                if value > 0 { cll = Double(value) }
            } else if box.kind == "mdcv", box.body.count >= 24 {
                let value = number(bytes, box.body.lowerBound + 16, 4)
                if value > 0 { mastering = Double(value) / 10000 }
            }
        }
        return cll ?? mastering
    }

    /// Whether the primary item is coded as grey alone: its AV1 configuration (`av1C`) says `mono_chrome`, or its
    /// HEVC one (`hvcC`) chroma format 0 (4:0:0). False for a derived primary (a grid), which has neither.
    package static func primaryIsMonochrome(_ bytes: [UInt8]) -> Bool {
        primaryProperties(bytes).contains { box in
            if box.kind == "av1C", box.body.count >= 3 { return bytes[box.body.lowerBound + 2] & 0x10 != 0 }
            if box.kind == "hvcC", box.body.count >= 17 { return bytes[box.body.lowerBound + 16] & 0x03 == 0 }
            return false
        }
    }

    /// What the primary item is that libheif 1.15 does not decode right, in words for a refusal; nil when none.
    /// A predictively coded item (a `pred` reference: its picture needs another item's) decodes to a flat grey
    /// picture with no error. (Identity derivations, which it refuses as corrupt, are resolved first:
    /// `HEIFIdentityItems`.)
    package static func unsupportedPrimary(_ bytes: [UInt8]) -> String? {
        guard let (inside, primary) = primaryItem(bytes) else { return nil }
        if let iref = inside.first(where: { $0.kind == "iref" }), iref.body.count >= 4 {
            let wide = bytes[iref.body.lowerBound] != 0 ? 4 : 2
            for reference in children(bytes, (iref.body.lowerBound + 4)..<iref.body.upperBound) where reference.kind == "pred" {
                if reference.body.count >= wide, number(bytes, reference.body.lowerBound, wide) == primary {
                    return "a predictively coded image (its primary item is coded against another: a 'pred' reference)"
                }
            }
        }
        return nil
    }

    /// The boxes inside `meta` and the primary item's ID (`pitm`).
    static func primaryItem(_ bytes: [UInt8]) -> (inside: [Box], primary: Int)? {
        guard let meta = children(bytes, 0..<bytes.count).first(where: { $0.kind == "meta" }), meta.body.count >= 4 else { return nil }
        let inside = children(bytes, (meta.body.lowerBound + 4)..<meta.body.upperBound)  // a FullBox
        guard let pitm = inside.first(where: { $0.kind == "pitm" }), pitm.body.count >= 6 else { return nil }
        let primary = bytes[pitm.body.lowerBound] == 0 ? number(bytes, pitm.body.lowerBound + 4, 2)
            : number(bytes, pitm.body.lowerBound + 4, 4)
        return (inside, primary)
    }

    /// The properties `ipma` associates with the primary item (`pitm`), in order; none when the boxes do not parse.
    static func primaryProperties(_ bytes: [UInt8]) -> [Box] {
        guard let (inside, primary) = primaryItem(bytes), let iprp = inside.first(where: { $0.kind == "iprp" }) else { return [] }
        let properties = children(bytes, iprp.body)
        guard let ipco = properties.first(where: { $0.kind == "ipco" }),
              let ipma = properties.first(where: { $0.kind == "ipma" }) else { return [] }
        let listed = children(bytes, ipco.body)
        return associations(bytes, ipma.body, item: primary).compactMap { $0 >= 1 && $0 <= listed.count ? listed[$0 - 1] : nil }
    }

    struct Box {
        let kind: String
        let body: Range<Int>
        /// Where the box's header starts.
        let start: Int
    }

    /// The boxes laid end to end in `range` (32- and 64-bit sizes; size 0 runs to the end), stopping at the first
    /// that does not fit.
    static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] {
        var boxes = [Box](), at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = number(bytes, at, 4), header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { break }
                size = number(bytes, at + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            boxes.append(Box(kind: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), body: (at + header)..<(at + size), start: at))
            at += size
        }
        return boxes
    }

    /// The 1-based property indices `ipma` associates with `item`.
    static func associations(_ bytes: [UInt8], _ body: Range<Int>, item: Int) -> [Int] {
        guard body.count >= 8 else { return [] }
        let version = bytes[body.lowerBound], wide = bytes[body.lowerBound + 3] & 1 == 1
        var at = body.lowerBound + 4
        let entries = number(bytes, at, 4)
        at += 4
        for _ in 0..<min(entries, body.count) {
            let idBytes = version < 1 ? 2 : 4
            guard at + idBytes + 1 <= body.upperBound else { return [] }
            let id = number(bytes, at, idBytes)
            let count = Int(bytes[at + idBytes])
            at += idBytes + 1
            let step = wide ? 2 : 1
            guard at + count * step <= body.upperBound else { return [] }
            let indices = (0..<count).map { wide ? number(bytes, at + $0 * 2, 2) & 0x7FFF : Int(bytes[at + $0]) & 0x7F }
            at += count * step
            if id == item { return indices }
        }
        return []
    }

    /// A big-endian unsigned number of `size` bytes at `at` (the caller has checked the bounds).
    static func number(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
        guard at >= 0, at + size <= bytes.count else { return 0 }
        return bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) }
    }
}
