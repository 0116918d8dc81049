/// Identity-derived items (`iden`, ISO/IEC 23008-12 §6.6.2.1: another item's picture with transformative
/// properties of its own — `irot`, `imir`, `clap` — applied in the order listed) made readable through libheif 1.15,
/// which decodes none and opens no file holding one: it reads every item's coded data while opening, and an
/// identity has none, so the whole file fails ("Item with ID 1009 has no compressed data"), even when the primary
/// image is a plain one beside them.
///
/// The file is rewritten without moving a coded byte: the identities, and the items built on them (a grid of
/// identity tiles), leave `iinf`, a `free` box of the same size takes their place inside `meta` (so every `iloc`
/// offset still holds), the primary becomes the item its chain of identities ends at (shown, and the references to
/// the primary — Exif, XMP, thumbnails — moved to it), and the identities' transforms come back to be applied to
/// the decoded picture, innermost first (`HEIFPixelMap`). libheif applies the source item's own transforms.
/// An identity with an auxiliary image (alpha, depth) is refused: that image's own transforms make it the
/// identity's size, not its source's, while libheif 1.15 would join it to the source's picture, under the
/// identity's transforms.
package enum HEIFIdentityItems {
    /// The rewritten file and the transforms to apply after decoding it, in order.
    package struct Resolved {
        package let bytes: [UInt8]
        package let transforms: [HEIFTransform]
    }

    /// Why a file with identities cannot be read: `unsupported` for a valid layout this reader does not take apart.
    package struct Refusal: Error {
        package let unsupported: Bool
        package let message: String
    }

    /// Chains of identities longer than this are refused (a file has one or two; a loop never ends).
    static let longestChain = 16

    /// The file made readable, or nil when it holds no identity item (or its boxes do not parse: libheif says why).
    package static func resolve(_ bytes: [UInt8]) throws(Refusal) -> Resolved? {
        typealias P = HEIFProperties
        guard let (inside, primary) = P.primaryItem(bytes), let iinf = inside.first(where: { $0.kind == "iinf" }),
              iinf.body.count >= 6 else { return nil }
        let countBytes = bytes[iinf.body.lowerBound] == 0 ? 2 : 4
        let entriesStart = iinf.body.lowerBound + 4 + countBytes
        var items: [(id: Int, type: String, box: P.Box)] = []
        for entry in P.children(bytes, entriesStart..<iinf.body.upperBound) where entry.kind == "infe" {
            guard entry.body.count >= 4 else { continue }
            let version = bytes[entry.body.lowerBound]
            guard version >= 2 else { continue }
            let idBytes = version == 2 ? 2 : 4, at = entry.body.lowerBound + 4
            guard at + idBytes + 6 <= entry.body.upperBound else { continue }
            items.append((P.number(bytes, at, idBytes), String(decoding: bytes[(at + idBytes + 2)..<(at + idBytes + 6)], as: UTF8.self), entry))
        }
        guard items.contains(where: { $0.type == "iden" }) else { return nil }
        let types = Dictionary(items.map { ($0.id, $0.type) }, uniquingKeysWith: { first, _ in first })
        let references = Self.references(bytes, inside)
        let derivedFrom = Dictionary(references.filter { $0.kind == "dimg" }.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })

        // The primary's chain of identities, outermost first, and the item it ends at.
        var chain: [Int] = [], source = primary
        while types[source] == "iden" {
            guard let to = derivedFrom[source], to.count == 1 else {
                throw Refusal(unsupported: false, message: "its identity-derived item \(source) does not name one item it derives from")
            }
            chain.append(source)
            source = to[0]
            guard !chain.contains(source), chain.count <= longestChain else {
                throw Refusal(unsupported: false, message: "its identity-derived items reference one another in a loop")
            }
        }
        guard types[source] != nil else {
            throw Refusal(unsupported: false, message: "its identity-derived item derives from item \(source), which is not in the file")
        }
        if references.contains(where: { $0.kind == "auxl" && $0.to.contains { chain.contains($0) } }) {
            throw Refusal(unsupported: true, message: "an identity-derived image with an auxiliary image of its own (alpha or depth)")
        }
        // Every identity leaves, and every item built (dimg) on one that leaves; other references to the chain move
        // to the source, and an item with another reference to an item that leaves (a thumbnail of it) leaves too.
        var leaving = Set(items.filter { $0.type == "iden" }.map(\.id))
        var grew = true
        while grew {
            grew = false
            for reference in references where !leaving.contains(reference.from) && reference.from != source {
                let gone = reference.to.contains { leaving.contains($0) && (reference.kind == "dimg" || !chain.contains($0)) }
                if gone { leaving.insert(reference.from); grew = true }
            }
        }
        // The source itself never leaves (it is no identity, and references from it are not followed above), but it
        // may be built on items that do.
        guard !references.contains(where: { $0.from == source && $0.kind == "dimg" && $0.to.contains { leaving.contains($0) } }) else {
            throw Refusal(unsupported: true, message: "a derived image built on identity-derived items (a grid of them)")
        }

        var transforms: [HEIFTransform] = []
        for item in chain.reversed() { transforms += try Self.transforms(bytes, inside, item: item) }
        var edited = bytes
        if !chain.isEmpty {
            // The primary is the source (pitm's ID has the same width), shown; references to the chain point at it.
            if let pitm = inside.first(where: { $0.kind == "pitm" }) {
                store(&edited, source, at: pitm.body.lowerBound + 4, width: bytes[pitm.body.lowerBound] == 0 ? 2 : 4)
            }
            if let entry = items.first(where: { $0.id == source }) { edited[entry.box.body.lowerBound + 3] &= 0xFE }
            for reference in references where reference.kind != "dimg" && !leaving.contains(reference.from) {
                for (i, to) in reference.to.enumerated() where chain.contains(to) {
                    store(&edited, source, at: reference.toAt + i * reference.width, width: reference.width)
                }
            }
        }
        // iinf without the items that leave, then a free box of the bytes they took.
        var kept = [UInt8]()
        for item in items where !leaving.contains(item.id) {
            kept += edited[item.box.start..<item.box.body.upperBound]
        }
        let count = items.count - items.filter { leaving.contains($0.id) }.count
        var body = Array(edited[iinf.body.lowerBound..<(iinf.body.lowerBound + 4)])
        body += (0..<countBytes).map { UInt8(truncatingIfNeeded: count >> (8 * (countBytes - 1 - $0))) }
        body += kept
        let old = iinf.start..<iinf.body.upperBound
        let freed = old.count - (8 + body.count)
        guard freed >= 8 else { return nil }
        var replacement = header(8 + body.count, "iinf") + body
        replacement += header(freed, "free") + [UInt8](repeating: 0, count: freed - 8)
        edited.replaceSubrange(old, with: replacement)
        return Resolved(bytes: edited, transforms: transforms)
    }

    /// One reference of `iref`: its kind, the item it is from, the items it is to and where their IDs are stored.
    struct Reference {
        let kind: String
        let from: Int
        let to: [Int]
        let toAt: Int
        let width: Int
    }

    static func references(_ bytes: [UInt8], _ inside: [HEIFProperties.Box]) -> [Reference] {
        guard let iref = inside.first(where: { $0.kind == "iref" }), iref.body.count >= 4 else { return [] }
        let width = bytes[iref.body.lowerBound] == 0 ? 2 : 4
        return HEIFProperties.children(bytes, (iref.body.lowerBound + 4)..<iref.body.upperBound).compactMap { box in
            let at = box.body.lowerBound
            guard box.body.count >= width + 2 else { return nil }
            let count = HEIFProperties.number(bytes, at + width, 2), toAt = at + width + 2
            guard toAt + count * width <= box.body.upperBound else { return nil }
            let to = (0..<count).map { HEIFProperties.number(bytes, toAt + $0 * width, width) }
            return Reference(kind: box.kind, from: HEIFProperties.number(bytes, at, width), to: to, toAt: toAt, width: width)
        }
    }

    /// The transformative properties `ipma` associates with `item`, in order.
    static func transforms(_ bytes: [UInt8], _ inside: [HEIFProperties.Box], item: Int) throws(Refusal) -> [HEIFTransform] {
        guard let iprp = inside.first(where: { $0.kind == "iprp" }) else { return [] }
        let properties = HEIFProperties.children(bytes, iprp.body)
        guard let ipco = properties.first(where: { $0.kind == "ipco" }),
              let ipma = properties.first(where: { $0.kind == "ipma" }) else { return [] }
        let listed = HEIFProperties.children(bytes, ipco.body)
        var found: [HEIFTransform] = []
        for index in HEIFProperties.associations(bytes, ipma.body, item: item) where index >= 1 && index <= listed.count {
            let box = listed[index - 1], at = box.body.lowerBound
            switch box.kind {
            case "irot" where box.body.count >= 1: found.append(.rotation(quarterTurns: Int(bytes[at] & 3)))
            case "imir" where box.body.count >= 1: found.append(.mirror(leftRight: bytes[at] & 1 == 1))
            case "clap" where box.body.count >= 32:
                let n = (0..<8).map { HEIFProperties.number(bytes, at + 4 * $0, 4) }
                // Offsets are signed; sizes and denominators are not.
                let signed = { (v: Int) in Int(Int32(truncatingIfNeeded: v)) }
                found.append(.crop(CleanAperture(width: (n[0], n[1]), height: (n[2], n[3]),
                                                 horizontalOffset: (signed(n[4]), n[5]), verticalOffset: (signed(n[6]), n[7]))))
            case "irot", "imir", "clap":
                throw Refusal(unsupported: false, message: "its '\(box.kind)' property is truncated")
            default: continue
            }
        }
        return found
    }

    static func store(_ bytes: inout [UInt8], _ value: Int, at: Int, width: Int) {
        for i in 0..<width { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - i))) }
    }

    static func header(_ size: Int, _ kind: String) -> [UInt8] {
        [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16), UInt8(truncatingIfNeeded: size >> 8),
         UInt8(truncatingIfNeeded: size)] + Array(kind.utf8)
    }
}

/// A transformative property of a HEIF item (ISO/IEC 23008-12 §6.5.10–12).
package enum HEIFTransform: Equatable, Sendable {
    /// `irot`: quarter turns anticlockwise.
    case rotation(quarterTurns: Int)
    /// `imir`: left and right exchanged (axis 1), else top and bottom (axis 0) — as libheif and libavif read it.
    case mirror(leftRight: Bool)
    /// `clap`: the clean aperture.
    case crop(CleanAperture)
}

/// A `clap` box's fractions (numerator, denominator): the aperture's size and its centre's offset from the picture's.
package struct CleanAperture: Equatable, Sendable {
    package let width: (Int, Int)
    package let height: (Int, Int)
    package let horizontalOffset: (Int, Int)
    package let verticalOffset: (Int, Int)

    package static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.horizontalOffset == b.horizontalOffset && a.verticalOffset == b.verticalOffset
    }

    /// The pixels kept of a `width`×`height` picture: (left, top, width, height), as libheif rounds and clamps them
    /// (left rounded down, the other edges to nearest, each held inside the picture); nil when a denominator is
    /// zero, a figure overflows or nothing is left.
    func rectangle(width w: Int, height h: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let (left, right) = Self.span(width, horizontalOffset, extent: w, roundStart: { n, d in n / d }),
              let (top, bottom) = Self.span(height, verticalOffset, extent: h, roundStart: { n, d in (n + d / 2) / d }) else { return nil }
        let x = max(left, 0), y = max(top, 0), x1 = min(right, w - 1), y1 = min(bottom, h - 1)
        guard x <= x1, y <= y1 else { return nil }
        return (x, y, x1 - x + 1, y1 - y + 1)
    }

    /// One axis: start = offset + (extent − 1)/2 − (size − 1)/2, rounded by `roundStart`; end = size − 1 + start,
    /// rounded to nearest.
    private static func span(_ size: (Int, Int), _ offset: (Int, Int), extent: Int,
                             roundStart: (Int, Int) -> Int) -> (Int, Int)? {
        let (sn, sd) = size, (on, od) = offset
        guard sd > 0, od > 0, extent > 0 else { return nil }
        // Over the denominator 2·sd·od: 2·on·sd + (extent − 1)·sd·od − (sn − sd)·od.
        let d = 2.multipliedReportingOverflow(by: sd), d2 = d.partialValue.multipliedReportingOverflow(by: od)
        let a = (2 * on).multipliedReportingOverflow(by: sd)
        let b = ((extent - 1) * sd).multipliedReportingOverflow(by: od)
        let c = (sn - sd).multipliedReportingOverflow(by: od)
        guard !d.overflow, !d2.overflow, !a.overflow, !b.overflow, !c.overflow else { return nil }
        let n1 = a.partialValue.addingReportingOverflow(b.partialValue)
        guard !n1.overflow else { return nil }
        let n = n1.partialValue.subtractingReportingOverflow(c.partialValue)
        guard !n.overflow else { return nil }
        let start = roundStart(n.partialValue, d2.partialValue)
        let endNumerator = (sn - sd).addingReportingOverflow(start.multipliedReportingOverflow(by: sd).partialValue)
        guard !start.multipliedReportingOverflow(by: sd).overflow, !endNumerator.overflow else { return nil }
        return (start, (endNumerator.partialValue + sd / 2) / sd)
    }
}

/// Where each pixel of a transformed picture comes from in the decoded one: output (x, y) reads the decoded picture
/// at origin + x·stepX + y·stepY, so rotations, mirrors and crops compose into one map and rows are gathered once.
package struct HEIFPixelMap: Equatable, Sendable {
    package private(set) var width: Int
    package private(set) var height: Int
    package private(set) var origin = (x: 0, y: 0)
    package private(set) var stepX = (x: 1, y: 0)
    package private(set) var stepY = (x: 0, y: 1)

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.width == b.width && a.height == b.height && a.origin == b.origin && a.stepX == b.stepX && a.stepY == b.stepY
    }

    /// Nothing moves.
    package var isIdentity: Bool { origin == (0, 0) && stepX == (1, 0) && stepY == (0, 1) }

    /// The map after `transform`; nil when a clean aperture leaves nothing or does not compute.
    package func applying(_ transform: HEIFTransform) -> HEIFPixelMap? {
        var next = self
        switch transform {
        case .rotation(let turns):
            for _ in 0..<(turns & 3) {
                // A quarter turn anticlockwise: new (x, y) is old (w − 1 − y, x).
                let (w, h) = (next.width, next.height)
                next.origin = (next.origin.x + (w - 1) * next.stepX.x, next.origin.y + (w - 1) * next.stepX.y)
                (next.stepX, next.stepY) = (next.stepY, (-next.stepX.x, -next.stepX.y))
                (next.width, next.height) = (h, w)
            }
        case .mirror(let leftRight):
            if leftRight {
                next.origin = (origin.x + (width - 1) * stepX.x, origin.y + (width - 1) * stepX.y)
                next.stepX = (-stepX.x, -stepX.y)
            } else {
                next.origin = (origin.x + (height - 1) * stepY.x, origin.y + (height - 1) * stepY.y)
                next.stepY = (-stepY.x, -stepY.y)
            }
        case .crop(let aperture):
            guard let r = aperture.rectangle(width: width, height: height) else { return nil }
            next.origin = (origin.x + r.x * stepX.x + r.y * stepY.x, origin.y + r.x * stepX.y + r.y * stepY.y)
            (next.width, next.height) = (r.width, r.height)
        }
        return next
    }

    /// The decoded pixel output pixel (x, y) reads.
    package func source(x: Int, y: Int) -> (x: Int, y: Int) {
        (origin.x + x * stepX.x + y * stepY.x, origin.y + x * stepX.y + y * stepY.y)
    }
}
