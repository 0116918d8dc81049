import ColourProfiles
import CPUBackend
import FilterCore
import Foundation
import GIFCodec
import HEIFCodec
import JPEGCodec
import JXLCodec
import PNGCodec
import TIFFCodec
import WebPCodec
import VulkanBackend

/// Renders recipes. Safe to use from several threads at once: each render owns its buffers and statistics.
public struct Renderer: Sendable {
    public struct Options: Sendable {
        /// Output depth: 8 or 16, or 32 for float TIFF or JPEG XL (linear light, unclamped); nil follows the main
        /// input (a float input gives a float TIFF or JPEG XL output).
        public var depth: Int?
        public var png: PNGWriteOptions
        public var jpeg: JPEGWriteOptions
        public var webp: WebPWriteOptions
        public var tiff: TIFFWriteOptions
        public var avif: AVIFWriteOptions
        public var jxl: JXLWriteOptions
        public var gif: GIFWriteOptions
        /// The output file's format; nil follows the output's extension (any of `ImageFileFormat.extensions` of a
        /// written format).
        public var fileFormat: ImageFileFormat?
        /// Turn inputs upright by their EXIF orientation before the recipe sees them (on by default).
        public var autorotate: Bool
        /// Convert inputs from their embedded profiles (ICC, PNG gAMA/cHRM) into the working space (on by
        /// default); off reads every input as sRGB.
        public var colourManagement: Bool
        /// The profile outputs are written in and tagged with.
        public var outputProfile: OutputProfile
        /// What outputs carry of the main input's EXIF and XMP: nothing by default (`MetadataPolicy`). JPEG, PNG,
        /// WebP, AVIF, JPEG XL and TIFF outputs carry them (TIFF's EXIF rewritten into its own directories).
        public var metadata: MetadataPolicy
        /// Images declaring more pixels are refused before decoding.
        public var maxPixels: Int
        /// Rewrite the plan before running it (fusion, folding, identities, duplicates); on by default.
        public var optimize: Bool
        /// How close a shrink stays to the exact resize of the full decode (`Fidelity`), over the recipe's own
        /// `fidelity`; nil (the default) takes the recipe's, else `.high`.
        public var fidelity: Fidelity? = nil
        /// Replace an existing output (a regular file, keeping its mode); off by default, so an existing file —
        /// even one that appears during the render — is never overwritten.
        public var replaceExisting: Bool
        /// Bytes of decoded pixels an input may need held whole (interlaced PNGs); larger ones are refused.
        public var maxMemory: Int
        /// Most pixel-taps (output pixels × kernel taps, summed over the plan) a render may cost; nil for no limit.
        public var maxWork: Double?
        /// Which damage in an input stops its decoding (`.error` by default: truncation and corrupt data); damage
        /// let pass is named in the report's warnings.
        public var failOn: FailOn
        /// The page of a multi-page input to read, from 0 (TIFF); other formats have only page 0.
        public var page: Int
        /// Time each Vulkan step with device timestamps, giving per-node times in the report. Off by default:
        /// timing puts a barrier after every step, so independent dispatches cannot overlap.
        public var timeDeviceSteps: Bool
        /// 2^28 pixels a side's product: larger inputs are refused before anything is allocated.
        public static let defaultMaxPixels = PNGDecoder.defaultMaxPixels
        /// 1 GiB.
        public static let defaultMaxMemory = PNGDecoder.defaultMaxMemory
        /// 4·10¹⁰ pixel-taps, about 50 s of work on 2 cores.
        public static let defaultMaxWork = WorkEstimate.defaultLimit
        public init(depth: Int? = nil, png: PNGWriteOptions = .default, jpeg: JPEGWriteOptions = .default,
                    webp: WebPWriteOptions = .default, tiff: TIFFWriteOptions = .default, avif: AVIFWriteOptions = .default, jxl: JXLWriteOptions = .default, gif: GIFWriteOptions = .default, fileFormat: ImageFileFormat? = nil, autorotate: Bool = true, colourManagement: Bool = true,
                    outputProfile: OutputProfile = .sRGB, metadata: MetadataPolicy = .strip,
                    maxPixels: Int = Options.defaultMaxPixels,
                    optimize: Bool = true, replaceExisting: Bool = false, maxMemory: Int = Options.defaultMaxMemory,
                    maxWork: Double? = Options.defaultMaxWork, failOn: FailOn = .default, timeDeviceSteps: Bool = false,
                    page: Int = 0) {
            self.failOn = failOn
            self.page = page
            self.depth = depth
            self.png = png
            self.jpeg = jpeg
            self.webp = webp
            self.tiff = tiff
            self.avif = avif
            self.jxl = jxl
            self.gif = gif
            self.fileFormat = fileFormat
            self.autorotate = autorotate
            self.colourManagement = colourManagement
            self.outputProfile = outputProfile
            self.metadata = metadata
            self.maxPixels = maxPixels
            self.optimize = optimize
            self.replaceExisting = replaceExisting
            self.maxMemory = maxMemory
            self.maxWork = maxWork
            self.timeDeviceSteps = timeDeviceSteps
        }
    }

    public let backend: Backend
    public var options: Options

    /// How many renders share a device's opening (a batch's files): `auto` divides the opening among them when
    /// it prices a render (`BackendChoice`).
    package var sharedRenders = 1

    public init(backend: Backend = .auto, options: Options = Options()) {
        self.backend = backend
        self.options = options
        HaldImages.register
    }

    /// The backend a render will start on, and any warning about the choice. `auto` takes a Vulkan GPU; a software
    /// Vulkan device (lavapipe) is used only when asked for (`Renderer(backend: .vulkan)` or `FILTERRUN_DEVICE`),
    /// because the CPU backend is faster than the same work emulated on the CPU. What `auto` finds is remembered
    /// (`AutoBackendProbe`), and its note is given only when found, not on every render after; `verbose` gives the
    /// reason for the choice every time.
    public func resolveBackend(verbose: Bool = false) throws -> (backend: Backend, warning: String?) {
        switch backend {
        case .cpu: return (.cpu, verbose ? "note: rendering on the CPU, as asked" : nil)
        case .vulkan:
            do { _ = try VulkanContext.shared() } catch {
                throw RenderError.device(.init(kind: .unavailable, message: "Vulkan backend unavailable: \(error)"))
            }
            return (.vulkan, nil)
        case .auto:
            let chosen = ProcessInfo.processInfo.environment["FILTERRUN_DEVICE"] != nil
            if !chosen, let known = AutoBackendProbe.cachedFinding() {
                switch known {
                case .software(let device): return (.cpu, verbose ? Self.softwareNote(device) : nil)
                case .unavailable(let reason): return (.cpu, verbose ? Self.unavailableNote(reason) : nil)
                case .hardware: break
                }
            }
            // With the device's profile known, each render is priced before the device is opened: the device
            // stays closed unless a plan is cheaper there (`priced`).
            if !VulkanContext.isOpen, try DeviceProfiler.known() != nil {
                return (.vulkan, verbose ? "note: auto prices each render on the CPU and on the device, and renders on the "
                        + "cheaper (the explanation of a render shows both prices)" : nil)
            }
            let opening = monotonicSeconds()
            let context: VulkanContext
            do { context = try VulkanContext.shared() } catch {
                if !chosen { AutoBackendProbe.record(.unavailable("\(error)")) }
                return (.cpu, Self.unavailableNote("\(error)"))
            }
            let openSeconds = monotonicSeconds() - opening
            if !chosen { AutoBackendProbe.record(context.isSoftware ? .software(context.deviceName) : .hardware) }
            if context.isSoftware && !chosen { return (.cpu, Self.softwareNote(context.deviceName)) }
            // Measured once per machine and device choice, then cached; a failure leaves `auto` taking the device.
            _ = try? DeviceProfiler.profiles(opening: openSeconds)
            return (.vulkan, nil)
        }
    }

    /// `auto`'s backend for `plan` when a device is in play (`tentative` is Vulkan): the cheaper by the device's
    /// profile (`BackendChoice`), with the prices; otherwise `tentative` as it is.
    func priced(_ plan: Plan, tentative: Backend) throws -> (backend: Backend, choice: BackendChoice?) {
        guard backend == .auto, tentative == .vulkan, let profiles = try DeviceProfiler.known() else { return (tentative, nil) }
        let choice = BackendChoice(plan: plan, profiles: profiles, deviceOpen: VulkanContext.isOpen, renders: sharedRenders)
        return (choice.usesDevice || choice.usesSplit ? .vulkan : .cpu, choice)
    }

    /// For a long-lived process (a server): under `auto`, opens the device now when any of `recipes`, over a
    /// `width`×`height` RGB input (every input of the recipe), is priced cheaper there — so no render waits for the
    /// opening — and says which; otherwise says that renders stay on the CPU. Nil for `cpu` and `vulkan`.
    package func openDeviceIfUsed(by recipes: [(name: String, recipe: Recipe)], width: Int, height: Int) -> String? {
        guard backend == .auto else { return nil }
        guard let (tentative, _) = try? resolveBackend(), tentative == .vulkan else {
            return "auto: no device renders here; every request renders on the CPU"
        }
        let image = PixelBuffer(width: width, height: height, format: .rgb8)
        var paying = [String]()
        for (name, recipe) in recipes {
            let images = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, image) })
            guard let plan = try? plan(recipe, images: images), let (chosen, _) = try? priced(plan, tentative: tentative),
                  chosen == .vulkan else { continue }
            paying.append(name)
        }
        guard !paying.isEmpty else {
            return "auto: no preset is cheaper on the device at \(width)×\(height); requests render on the CPU unless priced otherwise"
        }
        do { _ = try VulkanContext.shared() } catch {
            return "auto: the device did not open (\(error)); every request renders on the CPU"
        }
        return "auto: device opened at start; at \(width)×\(height) it renders " + paying.sorted().joined(separator: ", ")
    }

    static func softwareNote(_ device: String) -> String {
        "note: the only Vulkan device, \(device), is a software renderer; rendering on the CPU (\(SettingName.backendVulkan) uses it)"
    }

    static func unavailableNote(_ reason: String) -> String {
        "warning: Vulkan unavailable (\(reason)); rendering on the CPU"
    }

    /// Decodes the inputs' headers, validates the recipe against their sizes, renders and publishes `output`
    /// atomically (see `Options.replaceExisting`). On any error nothing is left under `output` or beside it.
    @discardableResult
    public func render(_ recipe: Recipe, inputs: [String: String], output: String,
                       control: RenderControl? = nil) throws -> RenderReport {
        try render(recipe, sources: inputs.mapValues(ImageInput.file), output: output, control: control)
    }

    /// Renders inputs that are files or encoded bytes (an image read from a pipe) into the file `output`,
    /// published as `render(_:inputs:output:control:)` publishes it.
    @discardableResult
    public func render(_ recipe: Recipe, sources: [String: ImageInput], output: String,
                       control: RenderControl? = nil) throws -> RenderReport {
        for (name, source) in sources {
            guard case .file(let path) = source, Self.sameFile(path, output) else { continue }
            throw RenderError.output(OutputError(.isInput, path: output, "is the input \"\(name)\"; refusing to overwrite an input"))
        }
        return try againOnTheCPU {
            let file: OutputFile
            do { file = try OutputFile(path: output, replace: options.replaceExisting) }
            catch let error as OutputError { throw RenderError.output(error) }
            // Removed now on every error path, not when the last reference goes (an encoder thread may hold one).
            defer { file.abandon() }
            guard let fileFormat = options.fileFormat ?? ImageFileFormat.from(extensionOf: output) else {
                throw RenderError.output(OutputError(.unknownFormat, path: output, "cannot tell the output format from the "
                    + "name; end it in " + ImageFileFormat.writtenCases.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ")
                    + ", or set \(SettingName.fileFormat)"))
            }
            return try render(recipe, inputs: sources, to: file, as: fileFormat, control: control)
        }
    }

    /// Renders encoded images (PNG or JPEG bytes, told by their contents) to encoded bytes in `format`, without
    /// touching the file system.
    public func render(_ recipe: Recipe, encoded inputs: [String: Data], as format: ImageFileFormat,
                       control: RenderControl? = nil) throws -> (data: Data, report: RenderReport) {
        let sources = Dictionary(uniqueKeysWithValues: inputs.map { ($0.key, ImageInput.encoded($0.value, name: "<\($0.key) in memory>")) })
        return try render(recipe, sources: sources, as: format, control: control)
    }

    /// Renders inputs that are files or encoded bytes to encoded bytes in `format` (for a pipe or a response body).
    public func render(_ recipe: Recipe, sources: [String: ImageInput], as format: ImageFileFormat,
                       control: RenderControl? = nil) throws -> (data: Data, report: RenderReport) {
        var data = Data()
        let report = try againOnTheCPU {
            let file: OutputFile
            do { file = try OutputFile(inMemoryNamed: "output") } catch let error as OutputError { throw RenderError.output(error) }
            defer { file.abandon() }
            let report = try render(recipe, inputs: sources, to: file, as: format, control: control)
            do { data = try file.contents() } catch let error as OutputError { throw RenderError.output(error) }
            return report
        }
        return (data, report)
    }

    /// Decodes and renders `recipe` from files into memory as `format` (the orientation, profile and decode-time
    /// shrink apply as for files), on the CPU.
    func renderToBuffer(_ recipe: Recipe, inputs: [String: ImageInput], format: PixelFormat) throws -> PixelBuffer {
        let (decoders, plan, _, _, _) = try prepare(recipe, inputs: inputs)
        do { return try CPURenderer.render(plan, sources: decoders, format: format) }
        catch let error as CodecError { throw RenderError.reading(error.path, error) }
    }

    /// The render itself, from opened inputs to a prepared output.
    func render(_ recipe: Recipe, inputs: [String: ImageInput], to file: OutputFile, as fileFormat: ImageFileFormat,
                control: RenderControl?) throws -> RenderReport {
        let began = monotonicSeconds()
        let output = file.path
        if let reason = fileFormat.notWrittenReason { throw RenderError.output(OutputError(.unknownFormat, path: output, reason)) }
        var (backendName, warning) = try resolveBackend()
        var warnings = warning.map { [$0] } ?? []
        let (decoders, plan, notes, _, _) = try prepare(recipe, inputs: inputs)
        warnings += notes
        let choice: BackendChoice?
        (backendName, choice) = try priced(plan, tentative: backendName)
        var format = outputFormat(plan: plan, recipe: recipe, inputFormats: decoders.mapValues(\.storedFormat),
                                  greyWhenNeutral: true)
        let written = fileFormat.codec.writeOptions(options)
        if let eightBits = written.reducedToEightBitsNote {
            if format.depth == 16 { warnings.append(eightBits) }
            if format.hasAlpha, let flattened = written.flattenedAlphaNote { warnings.append(flattened) }
            format = PixelFormat.integer(channels: format.channels, depth: 8)!
        }
        let node = plan.nodes[plan.output]
        let stats = RenderStats(timeDeviceSteps: options.timeDeviceSteps)
        stats.backendChoice = choice?.explanation
        let ledger = TransferLedger()
        let profile = outputProfile(recipe: recipe, decoders: decoders)
        if let profile, profile.space != (format.channels <= 2 ? .grey : .rgb) {
            let kind = format.channels <= 2 ? "grey" : "RGB"
            throw RenderError.output(OutputError(.unknownFormat, path: output, "the output profile \"\(profile.name)\" "
                + "is a \(profile.space.name) profile but the output is \(kind) (outputs are never CMYK); use \(SettingName.outputProfileSRGB) "
                + "or an \(kind) profile"))
        }
        let metadata = outputMetadata(recipe: recipe, decoders: decoders, width: node.width, height: node.height,
                                      format: fileFormat, warnings: &warnings)
        let floats = try floatOutput(recipe: recipe, decoders: decoders, fileFormat: fileFormat, profile: profile, output: output)
        let hdr = floats ? nil : hdrOutput(decoders: decoders, fileFormat: fileFormat, profile: profile, format: &format, warnings: &warnings)
        // JPEG to JPEG by moves alone, or by a resampling that shrinks nowhere, keeps the input's chroma subsampling
        // unless one is asked for; moves that read out of order, and such resamplings in the sRGB working space, run
        // on the file's planes.
        let jpegPlanes = fileFormat == .jpeg ? Self.jpegPlanes(plan, decoders: decoders) : nil
        var jpegOptions = options.jpeg
        if jpegOptions.subsampling == nil { jpegOptions.subsampling = jpegPlanes?.layout.subsampling }
        let onPlanes = jpegPlanes.flatMap {
            Self.runsOnPlanes($0, plan: plan, format: format, outputProfile: profile, options: jpegOptions,
                              backend: backendName) ? $0 : nil
        }
        do {
            var codecOptions = options
            codecOptions.jpeg = jpegOptions
            let written = try fileFormat.codec.makeEncoder(
                EncodeRequest(output: file, width: node.width, height: node.height, format: format, icc: profile?.data,
                              metadata: metadata, floats: floats, pq: hdr?.keptAsPQ == true, planes: onPlanes?.layout),
                codecOptions)
            // Outputs in a profile other than sRGB, and HDR renders: working values go to a converting encoder.
            let encoder: any ImageEncoder
            if floats {
                encoder = FloatRowEncoder.linear(written, width: node.width, channels: format.channels, space: plan.workingSpace)
            } else if let hdr, hdr.keptAsPQ {
                encoder = PQEncoder(written, width: node.width, alpha: format.hasAlpha, space: plan.workingSpace)
            } else if let hdr {
                let managed = try ColourManagedEncoder(written, width: node.width, format: format, profile: profile ?? .sRGB,
                                                       space: plan.workingSpace)
                encoder = FloatRowEncoder.toneMapping(managed, width: node.width, sourcePeak: hdr.source.peak, space: plan.workingSpace)
            } else {
                encoder = try profile.map {
                    try ColourManagedEncoder(written, width: node.width, format: format, profile: $0, space: plan.workingSpace)
                } ?? written
            }
            if profile != nil || hdr != nil || floats { format = .rgba32f }
            // A device's result, held whole, to the encoder.
            func encodeWhole(_ result: PixelBuffer) throws -> RenderReport {
                try control?.check()
                let writing = monotonicSeconds()
                try encoder.writeRows(try result.hostBytes(), stride: result.rowStride, count: result.height)
                control?.report(rowsDone: result.height, of: result.height)
                stats.encodeSeconds += monotonicSeconds() - writing
                var report = try finish(encoder, began: began, backend: backendName, node: node, format: format, stats: stats,
                                        ledger: ledger, warnings: warnings, decoders: decoders)
                stats.stage("encode", since: writing)
                report.stages = stats.stages
                return report
            }
            if let onPlanes, let jpeg = written as? JPEGEncoder {
                backendName = .cpu  // the codec moves the planes
                let seconds: (decoding: Double, moving: Double, encoding: Double)
                switch onPlanes.work {
                case .move(let move):
                    seconds = try RenderLoad.run {
                        try JPEGPlaneMoves.transcode(onPlanes.decoder, move, into: jpeg, control: control)
                    }
                case .warp(let warp):
                    // Counted as a render; with one on every core already, its bands are resampled on this thread.
                    seconds = try RenderLoad.run {
                        try JPEGPlaneMoves.transcode(onPlanes.decoder, warp, workers: RenderLoad.saturated ? 0 : WorkerPool.width,
                                                     into: jpeg, control: control)
                    }
                }
                stats.decodeSeconds += seconds.decoding
                stats.encodeSeconds += seconds.encoding
                stats.addTime(id: node.origin, op: node.op + " (JPEG planes)", backend: .cpu, seconds: seconds.moving)
                control?.report(rowsDone: node.height, of: node.height)
            } else if case .source(let name) = node.primitive, node.post.isEmpty, decoders[name]!.format == format {
                backendName = .cpu  // the decoded rows are copied as they are
                try CPURenderer.copyRows(from: decoders[name]!, to: encoder, stats: stats, control: control)
            } else if backendName == .vulkan, let split = choice.flatMap({ $0.usesSplit ? $0.split?.plan : nil }) {
                // The first part on the CPU, streaming its inputs; the rest on the device.
                let firstNames = Set(split.first.nodes.compactMap(\.primitive.sourceName))
                let decoding = monotonicSeconds()
                let restSources = try Self.decodeWhole(decoders.filter { !firstNames.contains($0.key) }, ledger: ledger,
                                                       stats: stats)
                if !restSources.isEmpty { stats.stage("decode", since: decoding) }
                let result = try Self.renderSplit(split, firstSources: decoders.filter { firstNames.contains($0.key) },
                                                  restSources: restSources, format: format, stats: stats, ledger: ledger,
                                                  control: control, fallBack: backend == .auto, warnings: &warnings)
                return try encodeWhole(result)
            } else if backendName == .vulkan, let bands = Self.deviceBands(plan),
                      try Self.streamOnDevice(plan, decoders: decoders, to: encoder, format: format, bands: bands,
                                              stats: stats, ledger: ledger, control: control) {
                // Decoded, rendered and encoded a band at a time, overlapping.
                var report = try finish(encoder, began: began, backend: backendName, node: node, format: format, stats: stats,
                                        ledger: ledger, warnings: warnings, decoders: decoders)
                report.stages = stats.stages
                return report
            } else if backendName == .vulkan {
                try control?.check()
                let decoding = monotonicSeconds()
                let sources = try Self.decodeWhole(decoders, ledger: ledger, stats: stats)
                stats.stage("decode", since: decoding)
                try control?.check()
                let result: PixelBuffer
                do {
                    let device = monotonicSeconds()
                    result = try VulkanRenderer.render(plan, sources: sources, format: format, stats: stats, ledger: ledger)
                    stats.stage("device", since: device)
                } catch let error as VulkanError where backend == .auto {
                    warnings.append("warning: Vulkan render failed (\(error)); rendering on the CPU")
                    backendName = .cpu
                    try CPURenderer.render(plan, sources: sources.mapValues { BufferRowSource($0) }, to: encoder,
                                           format: format, stats: stats, control: control)
                    return try finish(encoder, began: began, backend: backendName, node: node, format: format,
                                      stats: stats, ledger: ledger, warnings: warnings, decoders: decoders)
                }
                return try encodeWhole(result)
            } else {
                let rendering = monotonicSeconds()
                try CPURenderer.render(plan, sources: decoders, to: encoder, format: format, stats: stats, control: control)
                var report = try finish(encoder, began: began, backend: backendName, node: node, format: format, stats: stats,
                                        ledger: ledger, warnings: warnings, decoders: decoders)
                stats.stage("render", since: rendering)
                report.stages = stats.stages
                return report
            }
            return try finish(encoder, began: began, backend: backendName, node: node, format: format, stats: stats,
                              ledger: ledger, warnings: warnings, decoders: decoders)
        } catch let error as RenderError {
            throw error
        } catch is RenderCancelled {
            throw RenderError.cancelled
        } catch let error as OutputError {
            throw RenderError.output(error)
        } catch let error as CodecError where error.kind == .corrupt || error.path != output {
            throw RenderError.reading(error.path, error)
        } catch let error as VulkanError {
            throw RenderError.device(error)
        } catch {
            throw RenderError.render("\(error)")
        }
    }

    /// The input held whole to be turned upright (EXIF 5–8), if the plan turns one: the source its uprighting
    /// step reads.
    static func turnedSource(_ plan: Plan, _ decoders: [String: any ImageDecoder]) -> (any ImageDecoder)? {
        guard let turning = plan.nodes.indices.first(where: {
            plan.nodes[$0].op.hasPrefix("orient (EXIF") && plan.rowRule(of: $0).holdsWhole
        }) else { return nil }
        var node = plan.nodes[turning]
        while true {
            if case .source(let name) = node.primitive { return decoders[name] }
            guard let input = node.inputs.first else { return nil }
            node = plan.nodes[input]
        }
    }

    /// Options a caller may have set out of range.
    func checkOptions() throws {
        if let depth = options.depth, depth != 8 && depth != 16 && depth != 32 {
            throw RenderError.recipe(RecipeError(path: "options.depth", "the output depth must be 8, 16 or 32 (float TIFF or JPEG XL), not \(depth)"))
        }
    }

    /// The recipe checked and normalised as JSON recipes are (one built in Swift may hold anything).
    static func validated(_ recipe: Recipe) throws -> Recipe {
        do { return try recipe.validated() } catch let error as RecipeError { throw RenderError.recipe(error) }
    }

    /// Whether two paths name the same file (after links), or the same path when neither exists.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        if stat(a, &x) == 0, stat(b, &y) == 0 { return x.st_dev == y.st_dev && x.st_ino == y.st_ino }
        return URL(fileURLWithPath: a).standardizedFileURL.resolvingSymlinksInPath()
            == URL(fileURLWithPath: b).standardizedFileURL.resolvingSymlinksInPath()
    }

    private func finish(_ encoder: any ImageEncoder, began: Double, backend: Backend, node: Plan.Node, format: PixelFormat,
                        stats: RenderStats, ledger: TransferLedger, warnings: [String],
                        decoders: [String: any ImageDecoder]) throws -> RenderReport {
        let finishing = monotonicSeconds()
        try encoder.finish()
        let warnings = warnings + decoders.keys.sorted().flatMap { decoders[$0]?.fileWarnings ?? [] }
        stats.encodeSeconds += monotonicSeconds() - finishing
        return RenderReport(
            backend: backend, width: node.width, height: node.height, format: format,
            decodeSeconds: stats.decodeSeconds, filterSeconds: stats.filterSeconds,
            encodeSeconds: stats.encodeSeconds, compileSeconds: stats.compileSeconds,
            transferSeconds: stats.transferSeconds, kernelsCompiled: stats.kernelsCompiled,
            kernelsFromDiskCache: stats.kernelsFromDiskCache, totalSeconds: monotonicSeconds() - began,
            peakResidentBytes: peakResidentBytes(), peakIntermediateBytes: stats.peakIntermediateBytes,
            transfers: ledger.snapshot, nodes: stats.nodes.filter { $0.op != "source" }, warnings: warnings,
            backendChoice: stats.backendChoice, stages: stats.stages)
    }

    /// Reads every input whole, as stored (the Vulkan backend uploads them packed and converts on the device).
    static func decodeWhole(_ decoders: [String: any ImageDecoder], ledger: TransferLedger,
                            stats: RenderStats) throws -> [String: PixelBuffer] {
        let began = monotonicSeconds()
        defer { stats.decodeSeconds += monotonicSeconds() - began }
        return try decoders.mapValues { decoder in
            let buffer = PixelBuffer(width: decoder.width, height: decoder.height, format: decoder.format, ledger: ledger)
            try decoder.readRows(into: try buffer.mutableHostBytes(), stride: buffer.rowStride, count: decoder.height)
            return buffer
        }
    }

    /// Opens the inputs (headers only), lowers the recipe against their sizes and orientations, optimises, and
    /// sets decoders that can shrink while decoding to the reduction the plan chose. Returns, for `explain`, what
    /// filters that look at pixels found and the optimizer's log too.
    func prepare(_ recipe: Recipe, inputs: [String: ImageInput]) throws
        -> (decoders: [String: any ImageDecoder], plan: Plan, notes: [String], findings: [String], log: [String]) {
        let recipe = try Self.validated(recipe)
        try checkOptions()
        var decoders = [String: any ImageDecoder]()
        var notes = [String]()
        for name in recipe.usedInputs {
            guard let input = inputs[name] else {
                throw RenderError.recipe(RecipeError(path: "inputs", "no image given for input \"\(name)\" (give \(SettingName.input(name)))"))
            }
            do {
                var limits = decodeLimits
                limits.fidelity = fidelity(for: recipe)
                let decoder = try input.openDecoder(limits: limits)
                decoders[name] = options.colourManagement
                    ? try InputProfiles.managed(decoder, space: recipe.workingSpace, notes: &notes) : decoder
            } catch { throw RenderError.reading(input.name, error) }
        }
        let (plan, log): (Plan, [String])
        var findings = [String]()
        do {
            (plan, log) = optimized(try lowered(recipe, decoders: decoders, inputs: inputs, findings: &findings), decoders: decoders,
                                    fidelity: fidelity(for: recipe))
        } catch let error as RecipeError { throw RenderError.recipe(error) }
        try Self.reduceDecoders(plan, decoders)
        // The CPU backend chooses again with the output's final layout; this choice is what --explain shows and
        // the memory estimate counts.
        let format = outputFormat(plan: plan, recipe: recipe, inputFormats: decoders.mapValues(\.storedFormat),
                                  greyWhenNeutral: true)
        let chosen = plan.choosingRepresentations(sources: decoders.mapValues(\.sampleLayout), output: format)
        try checkCost(of: chosen, recipe: recipe, decoders: decoders)
        return (decoders, chosen, notes, findings, log)
    }

    /// The limits every input is decoded within.
    var decodeLimits: DecodeLimits {
        DecodeLimits(maxPixels: options.maxPixels, maxMemory: options.maxMemory, failOn: options.failOn, maxWork: options.maxWork,
                     page: options.page)
    }

    /// The profile to write the output in, nil for sRGB (the engine's own encoding, tagged sRGB).
    func outputProfile(recipe: Recipe, decoders: [String: any ImageDecoder]) -> ColourProfile? {
        switch options.outputProfile {
        case .sRGB: return nil
        case .profile(let profile): return profile.isSRGB ? nil : profile
        case .keepInput:
            let main = recipe.inputs.lazy.compactMap { decoders[$0] }.first
            return (main as? ColourManagedDecoder)?.profile
        }
    }

    /// Refuses plans over the work or memory limits, naming the costliest node by its JSON path.
    func checkCost(of plan: Plan, recipe: Recipe, decoders: [String: any ImageDecoder] = [:]) throws {
        let estimate = WorkEstimate(plan)
        let decoding = decoders.values.reduce(0) { $0 + $1.decodingBytes }
        let path = recipe.nodes.firstIndex { $0.id == estimate.costliest }.map(recipe.path(ofNode:)) ?? ""
        if let limit = options.maxWork, estimate.pixelTaps > limit {
            throw RenderError.recipe(RecipeError(path: path, estimate.refusal(limit: limit)))
        }
        if decoding > 0, estimate.workingBytes + decoding > Double(options.maxMemory) {
            let names = decoders.values.filter { $0.decodingBytes > 0 }.map { FileText.escaped($0.path) }.sorted()
            let largest = decoders.values.max { $0.decodingBytes < $1.decodingBytes }?.decodingHolds ?? ""
            // Sizes in GiB, or MiB below a tenth of one.
            func size(_ bytes: Double) -> String {
                bytes >= 0.1 * 1_073_741_824 ? String(format: "%.2f GiB", bytes / 1_073_741_824) : String(format: "%.2f MiB", bytes / 1_048_576)
            }
            throw RenderError.input(.init(kind: .tooLarge, path: names.joined(separator: ", "), message:
                "decoding needs \(size(decoding)) of \(largest) and the render \(size(estimate.workingBytes)) more, over the "
                    + "memory limit of \(size(Double(options.maxMemory))) (\(SettingName.maxMemory))"))
        }
        // A photo stored turned (EXIF 5–8) is held whole to be turned upright: the refusal names the input and its
        // orientation, not the recipe.
        if estimate.workingBytes > Double(options.maxMemory), let decoder = Self.turnedSource(plan, decoders) {
            throw RenderError.input(.init(kind: .tooLarge, path: FileText.escaped(decoder.path), message: String(
                format: "stored turned (EXIF orientation %d): turning it upright holds the whole image, and the render "
                    + "needs about %.2f GiB of working memory, over the limit of %.2f GiB (\(SettingName.maxMemory)); raise the "
                    + "limit, or set \(SettingName.noAutorotate) to keep it as stored", decoder.metadata.orientation,
                estimate.workingBytes / 1_073_741_824, Double(options.maxMemory) / 1_073_741_824)))
        }
        if estimate.workingBytes > Double(options.maxMemory) {
            throw RenderError.recipe(RecipeError(path: "", String(
                format: "rendering this graph needs about %.1f GiB of working memory (%d nodes), over the limit of "
                    + "%.1f GiB (\(SettingName.maxMemory)); raise the limit or simplify the graph",
                estimate.workingBytes / 1_073_741_824, plan.nodes.count, Double(options.maxMemory) / 1_073_741_824)))
        }
    }

    /// The recipe lowered against the inputs' stored sizes and (with `autorotate`) their orientations, analysis
    /// questions answered from `inputs`.
    func lowered(_ recipe: Recipe, decoders: [String: any ImageDecoder], inputs: [String: ImageInput],
                 findings: inout [String]) throws -> Plan {
        try lowered(recipe, sizes: decoders.mapValues { ($0.storedWidth, $0.storedHeight) },
                    orientations: options.autorotate ? decoders.mapValues(\.metadata.orientation) : [:],
                    open: analysisSources(inputs, recipe: recipe), findings: &findings)
    }

    /// Sets decoders that can shrink while decoding to the reduction the plan chose for their source.
    static func reduceDecoders(_ plan: Plan, _ decoders: [String: any ImageDecoder]) throws {
        for case let (index, node) in plan.nodes.enumerated() {
            guard case .source(let name) = node.primitive, let decoder = decoders[name],
                  node.width < decoder.storedWidth else { continue }
            do { try decoder.reduce(toWidth: node.width, height: node.height) } catch { throw RenderError.reading(decoder.path, error) }
            guard decoder.width == node.width, decoder.height == node.height else {
                throw RenderError.render("plan #\(index): \(name) decodes to \(decoder.width)×\(decoder.height), not \(node.width)×\(node.height)")
            }
        }
    }

    /// The plan as lowered and, when optimising, as rewritten, with the rewrites made; `decoders` say which
    /// sources can shrink while decoding.
    func optimized(_ plan: Plan, decoders: [String: any ImageDecoder] = [:], fidelity: Fidelity = .high) -> (plan: Plan, log: [String]) {
        options.optimize
            ? Optimizer.optimize(plan, decodeReductions: decoders.mapValues(\.decodeReductions), fidelity: fidelity) : (plan, [])
    }

    /// The fidelity a render of `recipe` keeps: the options', else the recipe's, else `.high`.
    func fidelity(for recipe: Recipe) -> Fidelity { options.fidelity ?? recipe.fidelity ?? .high }

    /// The plan a render would run, in words, with the rewrites that made it and the device that would run it;
    /// `verbose` adds the generated source of every fused kernel.
    public func explain(_ recipe: Recipe, inputs: [String: String], verbose: Bool = false) throws -> String {
        try explain(recipe, sources: inputs.mapValues(ImageInput.file), verbose: verbose)
    }

    /// The plan for inputs that are files or encoded bytes; see `explain(_:inputs:verbose:)`.
    public func explain(_ recipe: Recipe, sources: [String: ImageInput], verbose: Bool = false) throws -> String {
        var (backendName, reason) = (try? resolveBackend(verbose: true)) ?? (.cpu, nil)
        let (decoders, plan, notes, findings, log) = try prepare(recipe, inputs: sources)
        var lines = [String]()
        if let (priced, choice) = try? priced(plan, tentative: backendName), let choice {
            backendName = priced
            reason = nil
            lines.append("backend: " + choice.explanation)
        }
        for (name, decoder) in decoders.sorted(by: { $0.key < $1.key }) {
            if let managed = decoder as? ColourManagedDecoder, let hdr = managed.hdr {
                lines.append("colour: \(name) is HDR (BT.2100 \(hdr.curve.name), H.273 primaries \(hdr.primaries)): decoded to "
                             + "linear light on sRGB primaries with 203 cd/m² at 1.0 (highlights above 1); an AVIF output at 10 or "
                             + "12 bits or a JPEG XL at 16 is written as PQ, a float TIFF or JPEG XL keeps the light, any other "
                             + "output is tone-mapped into SDR by BT.2390's EETF "
                             + String(format: "(graded peak %.0f cd/m²)", hdr.peak))
            } else if let managed = decoder as? ColourManagedDecoder {
                lines.append("colour: \(name) converted from \"\(managed.profile.name)\" to the \(recipe.workingSpace.rawValue) working space (Little CMS) as rows are decoded")
            }
        }
        if let profile = outputProfile(recipe: recipe, decoders: decoders) {
            lines.append("colour: output converted to \"\(profile.name)\" and tagged with it")
        }
        lines += notes + findings
        let unused = recipe.nodes.map(\.id).filter { id in !recipe.reaches(recipe.output, from: id) }
        if !unused.isEmpty { lines.append("not run (the output does not use them): " + unused.joined(separator: ", ")) }
        if options.optimize {
            lines.append(log.isEmpty ? "optimizer: nothing to rewrite" : "optimizer:")
            lines += log.map { "  \($0)" }
        } else {
            lines.append("optimizer: off (\(SettingName.optimizeOff))")
        }
        lines.append(plan.explanation(backend: backendName))
        var jpegOptions = options.jpeg
        if let planes = Self.jpegPlanes(plan, decoders: decoders), jpegOptions.subsampling == nil {
            jpegOptions.subsampling = planes.layout.subsampling
        }
        if let note = Self.planeNote(plan, decoders: decoders, options: jpegOptions, backend: backendName) { lines.append(note) }
        if verbose {
            for (i, node) in plan.nodes.enumerated() {
                guard case .point(let ops) = node.primitive else { continue }
                lines.append("generated kernel of #\(i) \(node.op) (GLSL, Vulkan):")
                lines.append(KernelSources.point(ops))
            }
        }
        // Only the backend that runs is described: a CPU render says why it is on the CPU, a Vulkan one its device.
        if backendName == .vulkan, let context = try? VulkanContext.shared() {
            lines.append("Vulkan device: \(context.description)")
            lines.append("  \(context.limits.summary)")
            if context.allDevices.count > 1 { lines.append("  all devices: " + context.allDevices.joined(separator: "; ")) }
            let sources = plan.nodes.filter { if case .source = $0.primitive { return true } else { return false } }
            lines.append("  every node runs on Vulkan: \(sources.count) upload(s) of packed samples, 1 download")
            let rowBytes = decoders.mapValues { $0.width * $0.format.bytesPerPixel }
            let format = outputFormat(plan: plan, recipe: recipe, inputFormats: decoders.mapValues(\.storedFormat))
            if let planned = try? VulkanRenderer.plan(plan, sourceRowBytes: rowBytes,
                                                      sourceFormats: decoders.mapValues(\.format), format: format) {
                lines.append(String(format: "  %d band(s) of up to %d output rows; planned device memory for working "
                                    + "buffers %.1f MiB (reused after their last consumer)",
                                    planned.bands, planned.rows, Double(planned.workingBytes) / 1_048_576))
                lines += planned.sharing.map { "  " + $0 }
            }
            lines.append("  " + Self.explainStreaming(plan, decoders: decoders, format: format))
        } else if let reason {
            lines.append("backend: " + reason.replacingOccurrences(of: "note: ", with: ""))
        }
        return lines.joined(separator: "\n")
    }

    /// Renders to memory, on the Vulkan device when the backend choice says so (falling back to the CPU under
    /// `auto`). Without `format`, the result has the main input's layout, with alpha added where the recipe makes
    /// transparency and colour where it colours a grey image.
    public func render(_ recipe: Recipe, images: [String: PixelBuffer], format: PixelFormat? = nil) throws -> PixelBuffer {
        let (backendName, _) = try resolveBackend()
        let recipe = try Self.validated(recipe)
        try checkOptions()
        if format == .rgba16f || images.values.contains(where: { $0.format == .rgba16f }) {
            throw RenderError.recipe(RecipeError(path: "format", "rgba16f is a device format; use rgba32f or an integer format"))
        }
        let plan = try self.plan(recipe, images: images)
        try checkCost(of: plan, recipe: recipe)
        let chosen = format ?? outputFormat(plan: plan, recipe: recipe, inputFormats: images.mapValues(\.format))
        let (placed, choice) = try priced(plan, tentative: backendName)
        if placed == .vulkan, let split = choice.flatMap({ $0.usesSplit ? $0.split?.plan : nil }) {
            let firstNames = Set(split.first.nodes.compactMap(\.primitive.sourceName))
            let used = images.filter { recipe.usedInputs.contains($0.key) }
            var warnings = [String]()
            return try Self.renderSplit(split, firstSources: used.filter { firstNames.contains($0.key) }.mapValues { BufferRowSource($0) },
                                        restSources: used.filter { !firstNames.contains($0.key) }, format: chosen,
                                        stats: RenderStats(), ledger: TransferLedger(), control: nil, fallBack: backend == .auto,
                                        warnings: &warnings)
        }
        if placed == .vulkan {
            do {
                return try VulkanRenderer.render(plan, sources: images.filter { recipe.usedInputs.contains($0.key) },
                                                 format: chosen)
            } catch let error as VulkanError {
                if backend != .auto { throw RenderError.device(error) }
            }
        }
        return try CPURenderer.render(plan, sources: images.mapValues { BufferRowSource($0) }, format: chosen)
    }

    /// The optimized plan of a recipe over images in memory (the recipe checked as JSON would be).
    package func plan(_ recipe: Recipe, images: [String: PixelBuffer]) throws -> Plan {
        let recipe = try Self.validated(recipe)
        var findings = [String]()
        do {
            return optimized(try lowered(recipe, sizes: images.mapValues { ($0.width, $0.height) }, orientations: [:],
                                         open: analysisSources(images), findings: &findings),
                             fidelity: fidelity(for: recipe)).plan
        }
        catch let error as RecipeError { throw RenderError.recipe(error) }
    }

    /// The layout of the first recipe input the output depends on (the main image), alpha added when the graph can
    /// make transparency, at the requested depth.
    /// Colour is added when a grey input's result has colour (a sepia tone), as alpha is; with `greyWhenNeutral` (a
    /// file's layout) a colour input's result with no colour is written grey (`Plan.outputIsNeutral`).
    func outputFormat(plan: Plan, recipe: Recipe, inputFormats: [String: PixelFormat],
                      greyWhenNeutral: Bool = false) -> PixelFormat {
        let main = recipe.inputs.lazy.compactMap { inputFormats[$0] }.first ?? .rgba8
        let alpha = plan.outputMayHaveAlpha(sourceHasAlpha: inputFormats.mapValues(\.hasAlpha))
        let format = Self.format(following: main, alpha: alpha, depth: options.depth)
        let neutral = plan.outputIsNeutral(sourceIsGrey: inputFormats.mapValues { !$0.isFloat && $0.channels <= 2 })
        if format.channels <= 2 && !neutral { return PixelFormat.integer(channels: format.channels + 2, depth: format.depth)! }
        if format.channels >= 3 && neutral && greyWhenNeutral {
            return PixelFormat.integer(channels: format.channels - 2, depth: format.depth)!
        }
        return format
    }

    /// The input's layout, with alpha added when the recipe makes transparency, at the requested depth.
    static func format(following input: PixelFormat, alpha: Bool, depth: Int?) -> PixelFormat {
        var channels = input.isFloat ? 4 : input.channels
        if alpha && !input.hasAlpha { channels += 1 }
        // Float outputs (32) take the 16-bit layout's channels; the encoder writes floats.
        let stored = depth.map { $0 == 32 ? 16 : $0 } ?? (input.depth == 16 ? 16 : 8)
        return PixelFormat.integer(channels: channels, depth: stored == 16 ? 16 : 8)!
    }
}
