import Foundation

/// A colour lookup table read from an Adobe/Resolve `.cube` file (Adobe "Cube LUT Specification 1.0"): a 3D table
/// of size³ RGB entries, red varying fastest, over [domainMin, domainMax] on each axis, or a 1D table of per-channel
/// entries. Inputs outside the domain clamp to it.
package struct ColourLUT: Equatable, Sendable {
    package enum Shape: Equatable, Sendable { case oneD, threeD }

    package var shape: Shape
    package var size: Int
    package var domainMin: SIMD3<Float>
    package var domainMax: SIMD3<Float>
    /// RGB triples: size³ of them (3D, index r + size·(g + size·b)) or size (1D).
    package var table: [Float]
    package var title: String

    /// Largest sizes read: a 65³ table (what grading tools export at most) is 3.3 MB of floats.
    package static let max3D = 65
    package static let max1D = 65536

    /// Parses the text of a `.cube` file; errors name the line.
    package init(cube text: String) throws {
        var title = "", size1D = 0, size3D = 0
        var low = SIMD3<Float>(0, 0, 0), high = SIMD3<Float>(1, 1, 1)
        var values = [Float]()
        var lineNumber = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            func number(_ word: String) throws -> Float {
                guard let v = Float(word), v.isFinite else { throw PlanError("line \(lineNumber): \"\(word)\" is not a number") }
                return v
            }
            func triple() throws -> SIMD3<Float> {
                guard words.count == 4 else { throw PlanError("line \(lineNumber): \(words[0]) needs three numbers") }
                return SIMD3(try number(words[1]), try number(words[2]), try number(words[3]))
            }
            switch words[0] {
            case "TITLE": title = line.dropFirst(5).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "LUT_3D_SIZE", "LUT_1D_SIZE":
                guard values.isEmpty else { throw PlanError("line \(lineNumber): \(words[0]) after the table began") }
                guard words.count == 2, let n = Int(words[1]) else { throw PlanError("line \(lineNumber): \(words[0]) needs one integer") }
                let limit = words[0] == "LUT_3D_SIZE" ? Self.max3D : Self.max1D
                guard (2...limit).contains(n) else {
                    throw PlanError("line \(lineNumber): \(words[0]) \(n) is outside 2...\(limit)")
                }
                if words[0] == "LUT_3D_SIZE" { size3D = n } else { size1D = n }
            case "DOMAIN_MIN": low = try triple()
            case "DOMAIN_MAX": high = try triple()
            case "LUT_3D_INPUT_RANGE", "LUT_1D_INPUT_RANGE":  // Resolve's form of the domain, one range for all axes
                guard words.count == 3 else { throw PlanError("line \(lineNumber): \(words[0]) needs two numbers") }
                low = SIMD3(repeating: try number(words[1]))
                high = SIMD3(repeating: try number(words[2]))
            default:
                guard words.count == 3, let first = words.first, Float(first) != nil else {
                    throw PlanError("line \(lineNumber): \"\(line.prefix(40))\" is neither a keyword nor three numbers")
                }
                guard size1D > 0 || size3D > 0 else {
                    throw PlanError("line \(lineNumber): an entry before LUT_3D_SIZE or LUT_1D_SIZE")
                }
                let limit = 3 * max(size3D * size3D * size3D, size1D)
                guard values.count < limit else {
                    throw PlanError("line \(lineNumber): more entries than the size declares")
                }
                values += [try number(words[0]), try number(words[1]), try number(words[2])]
            }
        }
        guard (size1D > 0) != (size3D > 0) else {
            throw PlanError(size1D > 0 ? "declares both LUT_1D_SIZE and LUT_3D_SIZE" : "declares neither LUT_3D_SIZE nor LUT_1D_SIZE")
        }
        guard all(low .< high) else { throw PlanError("DOMAIN_MIN must be below DOMAIN_MAX on every axis") }
        let expected = 3 * (size3D > 0 ? size3D * size3D * size3D : size1D)
        guard values.count == expected else {
            throw PlanError("holds \(values.count / 3) entries where its size declares \(expected / 3)")
        }
        self.shape = size3D > 0 ? .threeD : .oneD
        self.size = max(size1D, size3D)
        self.domainMin = low
        self.domainMax = high
        self.table = values
        self.title = title
    }

    /// A Hald CLUT image (ImageMagick's `hald:` identity, graded): level L, an L³×L³ image whose pixels, row by row,
    /// are the entries of a 3D table of size L², red fastest. `rgb` holds three sRGB-encoded values in 0...1 a pixel.
    package init(hald rgb: [Float], width: Int, height: Int) throws {
        guard width == height, let l = (2...8).first(where: { $0 * $0 * $0 == width }) else {
            throw PlanError("a Hald CLUT is a square of level³ pixels a side, level 2…8 (8: 512×512); this image is \(width)×\(height)")
        }
        guard rgb.count == 3 * width * height else { throw PlanError("the Hald CLUT image holds \(rgb.count / 3) pixels, not \(width * height)") }
        shape = .threeD
        size = l * l
        domainMin = SIMD3(0, 0, 0)
        domainMax = SIMD3(1, 1, 1)
        table = rgb
        title = "Hald CLUT level \(l)"
    }

    /// Reads the pixels of a Hald CLUT image (the renderer sets it: this module has no codecs).
    package static let imageReader = HaldReader()

    /// The entry at grid point (r, g, b) of a 3D table.
    @inline(__always) func entry(_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Float> {
        let i = 3 * (r + size * (g + size * b))
        return SIMD3(table[i], table[i + 1], table[i + 2])
    }

    /// Looks `c` up: clamped to the domain, scaled to grid units, interpolated (tetrahedral or trilinear for 3D,
    /// linear per channel for 1D).
    package func apply(_ c: SIMD3<Float>, tetrahedral: Bool) -> SIMD3<Float> {
        let n = Float(size - 1)
        var t = (c - domainMin) / (domainMax - domainMin) * n
        t = t.replacing(with: 0, where: .!(t .> 0))  // NaN goes to 0
        t = t.replacing(with: SIMD3(repeating: n), where: t .> n)
        if shape == .oneD {
            var out = SIMD3<Float>()
            for k in 0..<3 {
                let i = min(Int(t[k]), size - 2), f = t[k] - Float(i)
                out[k] = table[3 * i + k] + f * (table[3 * (i + 1) + k] - table[3 * i + k])
            }
            return out
        }
        let r = min(Int(t.x), size - 2), g = min(Int(t.y), size - 2), b = min(Int(t.z), size - 2)
        let f = t - SIMD3(Float(r), Float(g), Float(b))
        let c000 = entry(r, g, b), c111 = entry(r + 1, g + 1, b + 1)
        if !tetrahedral {
            let c100 = entry(r + 1, g, b), c010 = entry(r, g + 1, b), c110 = entry(r + 1, g + 1, b)
            let c001 = entry(r, g, b + 1), c101 = entry(r + 1, g, b + 1), c011 = entry(r, g + 1, b + 1)
            let x00 = c000 + f.x * (c100 - c000), x10 = c010 + f.x * (c110 - c010)
            let x01 = c001 + f.x * (c101 - c001), x11 = c011 + f.x * (c111 - c011)
            let y0 = x00 + f.y * (x10 - x00), y1 = x01 + f.y * (x11 - x01)
            return y0 + f.z * (y1 - y0)
        }
        // Tetrahedral: the cube is cut into six tetrahedra along its main diagonal; the fractions' order picks one.
        if f.x > f.y {
            if f.y > f.z {
                let a = entry(r + 1, g, b), b2 = entry(r + 1, g + 1, b)
                return c000 + f.x * (a - c000) + f.y * (b2 - a) + f.z * (c111 - b2)
            } else if f.x > f.z {
                let a = entry(r + 1, g, b), b2 = entry(r + 1, g, b + 1)
                return c000 + f.x * (a - c000) + f.z * (b2 - a) + f.y * (c111 - b2)
            } else {
                let a = entry(r, g, b + 1), b2 = entry(r + 1, g, b + 1)
                return c000 + f.z * (a - c000) + f.x * (b2 - a) + f.y * (c111 - b2)
            }
        } else {
            if f.z > f.y {
                let a = entry(r, g, b + 1), b2 = entry(r, g + 1, b + 1)
                return c000 + f.z * (a - c000) + f.y * (b2 - a) + f.x * (c111 - b2)
            } else if f.z > f.x {
                let a = entry(r, g + 1, b), b2 = entry(r, g + 1, b + 1)
                return c000 + f.y * (a - c000) + f.z * (b2 - a) + f.x * (c111 - b2)
            } else {
                let a = entry(r, g + 1, b), b2 = entry(r + 1, g + 1, b)
                return c000 + f.y * (a - c000) + f.x * (b2 - a) + f.z * (c111 - b2)
            }
        }
    }
}

extension ColourLUT {
    private static let cache = LUTCache()

    /// The LUT in the `.cube` file at `path`, read once per content (the cache is keyed by path, size and
    /// modification time); at most 32 MiB of text.
    package static func load(path: String) throws -> ColourLUT {
        var info = stat()
        guard stat(path, &info) == 0 else { throw PlanError("cannot read \(FileText.escaped(path)): \(String(cString: strerror(errno)))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw PlanError("\(FileText.escaped(path)) is not a file") }
        guard info.st_size <= 32 << 20 else { throw PlanError("\(FileText.escaped(path)) is \(info.st_size) bytes, more than a LUT of 65³ entries needs (32 MiB)") }
        let key = "\(path)\u{0}\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        if let cached = cache.get(key) { return cached }
        if (path as NSString).pathExtension.lowercased() == "png" {
            guard let read = imageReader.get() else { throw PlanError("\(FileText.escaped(path)): Hald CLUT images are read by the renderer") }
            do {
                let (rgb, width, height) = try read(path)
                let lut = try ColourLUT(hald: rgb, width: width, height: height)
                cache.set(key, lut)
                return lut
            } catch let error as PlanError {
                throw PlanError("\(FileText.escaped(path)), \(error.message)")
            } catch {
                throw PlanError("\(FileText.escaped(path)): \(error)")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlanError("cannot read \(FileText.escaped(path)): \(String(cString: strerror(errno)))")
        }
        do {
            let lut = try ColourLUT(cube: String(decoding: data, as: UTF8.self))
            cache.set(key, lut)
            return lut
        } catch let error as PlanError {
            throw PlanError("\(FileText.escaped(path)), \(error.message)")
        }
    }
}

/// The LUTs read so far (a batch reads its look once, not once per photo), up to eight.
private final class LUTCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, ColourLUT)] = []

    func get(_ key: String) -> ColourLUT? { lock.withLock { entries.first { $0.0 == key }?.1 } }

    func set(_ key: String, _ lut: ColourLUT) {
        lock.withLock {
            entries.removeAll { $0.0 == key }
            entries.append((key, lut))
            if entries.count > 8 { entries.removeFirst() }
        }
    }
}

/// Where the renderer registers how to read a Hald CLUT image: path → sRGB RGB values in 0...1, width, height.
package final class HaldReader: @unchecked Sendable {
    package typealias Read = @Sendable (String) throws -> (rgb: [Float], width: Int, height: Int)
    private let lock = NSLock()
    private var read: Read?

    package func get() -> Read? { lock.withLock { read } }
    package func set(_ read: @escaping Read) { lock.withLock { self.read = read } }
}
