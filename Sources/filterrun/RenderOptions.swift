import ArgumentParser
import FilterRecipe
import Foundation

/// What `filterrun RECIPE INPUT OUTPUT` accepts: the arguments and options of a render or a batch. The lists of
/// choices in the help come from the same tables the code reads (formats, backends, damage levels, PNG filters), so
/// the help cannot name a choice the code refuses.
struct RenderOptions: ParsableArguments {
    enum ExplainDetail: String, ExpressibleByArgument, CaseIterable { case plan, verbose }
    enum StatsFormat: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum Frames: String, ExpressibleByArgument, CaseIterable { case first, all }

    /// `--format`'s word as a format this build writes (its name or an extension, any case).
    static func writtenFormat(_ word: String) throws -> ImageFileFormat {
        guard let format = ImageFileFormat(word: word) else {
            throw ValidationError("give one of \(ImageFileFormat.formatWords.joined(separator: ", "))")
        }
        if let reason = format.notWrittenReason { throw ValidationError(reason) }
        return format
    }

    /// The recipe argument `filterrun convert IN OUT` stands for: no steps (the image converted as it is).
    static let noRecipe = "\u{0}convert"

    @Argument(help: "Recipe JSON file.", completion: .file(extensions: ["json"])) var recipe: String
    @Argument(help: ArgumentHelp("INPUT OUTPUT, or INPUT... OUTPUT_DIR.", discussion: """
        One image: INPUT is an image (\(ImageFileFormat.readableNames), told by its bytes) or - for one read from \
        standard input; OUTPUT is the file to write, or - for standard output (with --format). A batch: each INPUT \
        is an image or a directory (its \(Self.extensionList) files), then the output directory.
        """, valueName: "paths"), completion: .file())
    var paths: [String] = []

    @Option(help: "Which engine renders (auto: a Vulkan GPU if there is one, else the CPU).")
    var backend: Backend = .auto
    @Option(name: .customLong("input"), help: ArgumentHelp("Another recipe input (repeatable).", valueName: "NAME=PATH"))
    var inputs: [String] = []
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a parameter (repeatable): ID is a node's id, or a chain step's \"id\" or position (0, 1, …).",
        valueName: "ID.PARAM=VALUE"))
    var overrides: [String] = []
    @Option(name: .customLong("inputs-from"), help: ArgumentHelp(
        "Batch: read input paths from FILE, one a line (- for standard input).", valueName: "FILE"),
            completion: .file())
    var inputsFrom: String?

    @Option(defaultAsFlag: ExplainDetail.plan, parsing: .next, help: ArgumentHelp(
        "Print the plan before rendering (rewrites, nodes, representation, backend); verbose adds the generated kernels.",
        valueName: ExplainDetail.allCases.map(\.rawValue).joined(separator: "|")))
    var explain: ExplainDetail? = nil
    @Flag(help: "Run the plan as lowered, without the optimizer's rewrites (for comparison).") var noOptimize = false
    @Option(help: ArgumentHelp(
        "How close a shrink stays to resizing the full decode: exact; high (≥ 40 dB PSNR; the default unless the recipe names one); fast (Pillow's draft mode).",
        valueName: Fidelity.allCases.map(\.rawValue).joined(separator: "|")))
    var fidelity: Fidelity?
    @Option(defaultAsFlag: StatsFormat.text, parsing: .next, help: ArgumentHelp(
        "Print timings and memory to stderr, as text or JSON.", valueName: StatsFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var stats: StatsFormat? = nil
    @Flag(name: [.short, .long], help: "Say why the backend was chosen on every run (by default once, when it is first found).")
    var verbose = false

    // Numbers take the next argument whatever it looks like (so "-1" is a value, refused by `validate()` with the
    // accepted range, rather than an unknown option).
    @Option(parsing: .unconditional, help: "Output depth: 8, 16, or 32 for float TIFF or JPEG XL (linear light, unclamped) (default: the input's).") var depth: Int?
    @Option(help: ArgumentHelp("Output format: \(ImageFileFormat.formatWords.joined(separator: ", ")) (default: the output's extension; in a batch, each input's).",
                               valueName: "format"), transform: Self.writtenFormat)
    var format: ImageFileFormat?
    @Flag(help: "Write the format --format names even when the output's extension names another.") var forceFormat = false
    @Option(parsing: .unconditional, help: "PNG zlib level 0-9 (default 5; 6 is libpng's default), compressed on every core.")
    var compression: Int?
    @Option(help: "PNG row filter: \(PNGWriteOptions.Filter.allCases.map(\.rawValue).joined(separator: ", ")) (default all: libpng's per-row choice).")
    var filter: PNGWriteOptions.Filter?
    @Option(parsing: .unconditional, help: "JPEG, WebP, AVIF and JPEG XL quality 1-100 (default 90 for JPEG and JPEG XL, 80 for WebP, 50 for AVIF).") var quality: Int?
    @Flag(help: "WebP, AVIF and JPEG XL: lossless (every pixel kept).") var lossless = false
    @Option(parsing: .unconditional, help: "WebP lossless: 0-100, how far pixels may move to compress better (default 100: none).")
    var nearLossless: Int?
    @Option(parsing: .unconditional, help: "WebP, AVIF, JPEG XL and GIF: encoding effort, slower for smaller files (WebP 0-6, AVIF 0-9, JPEG XL 1-9, GIF 0-9; default 4, 4, 7, 6).") var effort: Int?
    @Option(parsing: .unconditional, help: "WebP: alpha plane quality 0-100 (default 100: lossless alpha).") var alphaQuality: Int?
    @Option(parsing: .unconditional, help: "AVIF: bits a sample, 8, 10 or 12 (default 8).") var bitDepth: Int?
    @Option(name: [.customLong("colours"), .customLong("colors")], parsing: .unconditional,
            help: "GIF: the most colours a frame's palette holds, 2-256 (default 256; --colors also).") var colours: Int?
    @Option(parsing: .unconditional, help: "GIF: dithering 0-1, how much error diffusion hides the palette's steps (default 1; 0 maps each pixel to its nearest colour).")
    var dither: Double?
    @Option(help: "TIFF compression: \(TIFFWriteOptions.Compression.allCases.map(\.rawValue).joined(separator: ", ")) (default deflate).")
    var tiffCompression: TIFFWriteOptions.Compression?
    @Option(help: "JPEG and AVIF chroma subsampling: \(JPEGWriteOptions.Subsampling.allCases.map { String($0.rawValue) }.joined(separator: ", ")) (JPEG: default 444 at quality 90 and above, 420 below, and a JPEG only moved (turned, flipped, cropped) or resampled without a shrink (rotated by any angle) keeps its own; AVIF: 420, lossless 444).")
    var subsampling: JPEGWriteOptions.Subsampling?
    @Flag(help: "JPEG: write a progressive file.") var progressive = false
    @Flag(help: "JPEG: fit the Huffman tables to the image (a few percent smaller, a little slower).") var optimizeCoding = false
    @Option(help: "JPEG: colour transparent pixels are flattened onto: white (default), black, #rrggbb or r,g,b in 0-1.")
    var background: RGBA?
    @Flag(help: "Keep inputs as stored instead of turning them upright by their EXIF orientation.") var noAutorotate = false
    @Option(parsing: .unconditional, help: "Which page of a multi-page TIFF input to read, from 0 (default 0).") var page: Int?
    @Option(help: "Animated GIF, WebP or JPEG XL, or AVIF sequence input: render the first frame (default), or all frames into an animated WebP, GIF, AVIF or JPEG XL (durations and loop count kept).")
    var frames: Frames = .first
    @Option(help: "Output colour profile: srgb (default: converted to sRGB and tagged so), keep (the main input's profile, embedded), or an .icc file.")
    var profile: String?
    @Flag(help: "Read every input as sRGB, ignoring embedded ICC profiles and PNG gAMA/cHRM.") var ignoreProfiles = false
    @Flag(help: "Copy the main input's EXIF and XMP to the output (JPEG, PNG, WebP, AVIF, JPEG XL): orientation reset to upright, embedded thumbnail dropped, dimensions updated. By default outputs carry neither.")
    var keepMetadata = false
    @Flag(help: "With --keep-metadata: leave out the location (EXIF GPS, and XMP that holds GPS properties).")
    var stripLocation = false
    @Option(parsing: .unconditional, help: "Refuse images with more pixels than this (default 2^28).") var maxPixels: Int?
    @Option(parsing: .unconditional, help: "Refuse work needing more bytes held at once than this: interlaced images decoded whole, graphs whose strips add up (default 1 GiB).")
    var maxMemory: Int?
    @Option(parsing: .unconditional, help: "Refuse renders costing more pixel-taps (pixels × kernel taps over the graph) than this, e.g. 1e11, or 'none' (default 4e10).")
    var maxWork: WorkLimit?
    @Option(help: "Damage in an input that stops its decoding: \(FailOn.allCases.map(\.rawValue).joined(separator: ", ")) (default error: truncation and corrupt data). Damage let pass is named in a warning.")
    var failOn: FailOn = .default
    @Flag(help: "Replace existing outputs (regular files only; their mode is kept).") var force = false
    @Flag(help: "Batch: include images in subdirectories.") var recursive = false
    @Option(parsing: .unconditional, help: "Batch: files rendered at once (default: the number of cores).") var jobs: Int?
    @Flag(name: [.short, .long], help: "Batch: no progress output.") var quiet = false
    @Option(name: .customLong("output-name"), parsing: .unconditional, help: ArgumentHelp(
        "Batch: each output's name from a template, as vips -o: %s the input's name without extension, %n its place "
        + "in the listing, %% a percent sign; an extension in it sets the format (tn_%s.webp).", valueName: "TEMPLATE"))
    var outputName: String?
    @Option(parsing: .unconditional, help: "Batch: render only part I/N of the files (I from 0), chosen by a stable hash of each output path, so N processes on N machines cover every file once; auto reads a Kubernetes Indexed Job or Slurm array (docs/scale-out).", transform: { try BatchShard(parsing: $0) })
    var shard: BatchShard?
    @Option(help: "Batch: also write the --stats=json summary to this file (published atomically).") var statsFile: String?
    @Option(parsing: .unconditional, help: "Refuse recipe files larger than this many bytes (default 1 MiB).") var maxRecipeBytes: Int?
    @Option(parsing: .unconditional, help: "Refuse recipes with more nodes than this (default 1000).") var maxNodes: Int?

    static var extensionList: String { ImageFileFormat.allCases.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ") }

    /// Each number within its range, and an optional value given with `=` one of its words: `--explain=bogus` is an
    /// error, not a bare flag (a value after a space that is not one of them is the next argument, as
    /// `--explain out.png` must be).
    func validate() throws {
        try Self.check("--depth", depth, allowed: [8, 16, 32])
        try Self.check("--compression", compression, 0...9)
        try Self.check("--quality", quality, 1...100)
        try Self.check("--near-lossless", nearLossless, 0...100)
        try Self.check("--effort", effort, 0...9)  // each format's own range is checked against the output's format
        try Self.check("--alpha-quality", alphaQuality, 0...100)
        try Self.check("--bit-depth", bitDepth, allowed: [8, 10, 12])
        try Self.check("--colours", colours, 2...256)
        if let dither, !(0...1).contains(dither) {
            throw ValidationError("--dither must be a number from 0 to 1, got \"\(dither)\"")
        }
        try Self.check("--page", page, 0...65_535)
        try Self.check("--max-pixels", maxPixels, 1...(1 << 40))
        try Self.check("--max-memory", maxMemory, 1...(1 << 50))
        try Self.check("--jobs", jobs, 1...1024)
        try Self.check("--max-recipe-bytes", maxRecipeBytes, 1...(1 << 30))
        try Self.check("--max-nodes", maxNodes, 1...1_000_000)
        if case .taps(let taps) = maxWork, !(1...1e18).contains(taps) {
            throw ValidationError("--max-work must be a number from 1 to 1e18 (e.g. 1e11) or none, got \"\(taps)\"")
        }
        for argument in CommandLine.arguments.dropFirst() {
            for (option, words) in [("--explain", ExplainDetail.allCases.map(\.rawValue)),
                                    ("--stats", StatsFormat.allCases.map(\.rawValue))] {
                guard argument.hasPrefix(option + "="), !words.contains(String(argument.dropFirst(option.count + 1))) else { continue }
                throw ValidationError("\(option) takes \(words.joined(separator: " or ")), got \"\(argument.dropFirst(option.count + 1))\"")
            }
        }
    }

    static func check(_ option: String, _ value: Int?, _ range: ClosedRange<Int>) throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(value)\"")
    }

    static func check(_ option: String, _ value: Int?, allowed: [Int]) throws {
        guard let value, !allowed.contains(value) else { return }
        throw ValidationError("\(option) must be \(allowed.map(String.init).joined(separator: ", ").replacingLastComma()), got \"\(value)\"")
    }
}

/// `--max-work`: a number of pixel-taps, or none.
enum WorkLimit: ExpressibleByArgument {
    case taps(Double), none

    init?(argument: String) {
        if argument == "none" { self = .none; return }
        guard let taps = Double(argument.trimmingCharacters(in: .whitespaces)), taps.isFinite else { return nil }
        self = .taps(taps)
    }

    var limit: Double? { if case .taps(let taps) = self { return taps }; return nil }
}

extension String {
    /// "8, 10, 12" as "8, 10 or 12".
    func replacingLastComma() -> String {
        guard let range = range(of: ", ", options: .backwards) else { return self }
        return replacingCharacters(in: range, with: " or ")
    }
}

extension FailOn: ExpressibleByArgument {}
extension Fidelity: ExpressibleByArgument {}
extension Backend: ExpressibleByArgument {}
extension PNGWriteOptions.Filter: ExpressibleByArgument {}
extension TIFFWriteOptions.Compression: ExpressibleByArgument {}
extension JPEGWriteOptions.Subsampling: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: Int(argument) ?? -1) }
    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
}
extension RGBA: ExpressibleByArgument {
    /// white, black, #rrggbb or r,g,b in 0-1.
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `--input NAME=PATH` entries (repeatable), as the render and `stats` read them.
enum NamedInputs {
    static func parse(_ entries: [String]) throws -> [String: String] {
        var named = [String: String]()
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw CommandFailure(description: "--input expects NAME=PATH, got \(entry)") }
            named[parts[0]] = parts[1]
        }
        return named
    }
}
