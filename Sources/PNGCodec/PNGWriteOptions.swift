import CPNGShim

/// How rows are compressed. The default favours speed: see BENCHMARKS.md for the measured trade-off.
public struct PNGWriteOptions: Sendable, Equatable {
    /// Row filters libpng may choose from (PNG filter types 0–4).
    public enum Filter: String, CaseIterable, Sendable {
        case none, sub, up, average, paeth
        /// libpng tries every filter on each row and keeps the cheapest (its adaptive heuristic).
        case all

        var mask: Int32 {
            switch self {
            case .none: return Int32(FR_PNG_FILTER_NONE)
            case .sub: return Int32(FR_PNG_FILTER_SUB)
            case .up: return Int32(FR_PNG_FILTER_UP)
            case .average: return Int32(FR_PNG_FILTER_AVG)
            case .paeth: return Int32(FR_PNG_FILTER_PAETH)
            case .all: return Int32(FR_PNG_ALL_FILTERS)
            }
        }
    }

    /// Who compresses the rows: libpng on the encoder's thread, or our filter and deflate on `threads` threads
    /// (0: every worker, `FILTERRUN_THREADS` or the core count) in runs of about `chunkBytes` raw bytes.
    package enum Compressor: Equatable, Sendable {
        case libpng
        case chunked(threads: Int, chunkBytes: Int)
    }

    /// zlib level, 0 (store) to 9 (smallest); values outside are taken as the nearest.
    public var compressionLevel: Int
    public var filter: Filter
    package var compressor: Compressor = .chunked(threads: 0, chunkBytes: 256 << 10)

    public init(compressionLevel: Int = PNGWriteOptions.default.compressionLevel,
                filter: Filter = PNGWriteOptions.default.filter) {
        self.compressionLevel = min(max(compressionLevel, 0), 9)
        self.filter = filter
    }

    private init(level: Int, filter: Filter) {
        compressionLevel = level
        self.filter = filter
    }

    /// Chosen from measurements on real photos (BENCHMARKS.md, "Parallel PNG encoding"): with the rows compressed on
    /// every core, level 5 with libpng's adaptive filters writes files within 3 % of libpng's defaults (level 6,
    /// adaptive) at over 3× their speed on two cores.
    public static let `default` = PNGWriteOptions(level: 5, filter: .all)
    /// libpng's own defaults: zlib level 6 and the adaptive filter heuristic.
    public static let libpngDefault = PNGWriteOptions(level: 6, filter: .all)
}
