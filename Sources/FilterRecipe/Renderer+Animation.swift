import ColourProfiles
import CPUBackend
import FilterCore
import Foundation

/// What an animation render did.
public struct AnimationReport: Sendable, CustomStringConvertible {
    /// Frames rendered and written.
    public var frames: Int
    public var width: Int
    public var height: Int
    /// Times the output plays (0: forever), as the input said.
    public var loopCount: Int
    public var seconds: Double
    /// Notes on what the output could not carry (a GIF has no place for EXIF).
    public var warnings: [String] = []

    public var description: String {
        String(format: "%d frames, %d×%d, %@, %.3f s", frames, width, height,
               loopCount == 0 ? "looping forever" : "playing \(loopCount)×", seconds)
    }
}

extension Renderer {
    /// Renders `recipe` on every frame of an animation (GIF, WebP, an AVIF sequence, JPEG XL) — the recipe's main
    /// (first) input — and writes the frames as an animated WebP (lossy or lossless as `options.webp` say), GIF
    /// (each frame's palette chosen by libimagequant, `options.gif`; delays in hundredths of a second), AVIF
    /// sequence (`options.avif`) or JPEG XL animation (`options.jxl`) at `output`, keeping each frame's
    /// duration and the loop count. Frames are composed first (each frame's disposal and transparency applied, as a
    /// viewer shows them), then filtered one at a time: memory holds one frame, the encoder's canvases and the file.
    /// The recipe's other inputs are read once and used for every frame. The output is published atomically as
    /// `render(_:inputs:output:control:)` publishes it; frames × their pixels count against `options.maxWork`.
    /// The input's EXIF and XMP are carried as `options.metadata` says, as for a still (a GIF keeps XMP only);
    /// frames are written as the reader gives them, so the orientation tag stays as it was but for JPEG XL's,
    /// which libjxl turns upright.
    @discardableResult
    public func renderAnimation(_ recipe: Recipe, inputs: [String: String], output: String,
                                control: RenderControl? = nil) throws -> AnimationReport {
        try renderAnimation(recipe, sources: inputs.mapValues(ImageInput.file), output: output, control: control)
    }

    /// `renderAnimation(_:inputs:output:control:)` for inputs that are files or encoded bytes (an animation piped
    /// in, say).
    @discardableResult
    public func renderAnimation(_ recipe: Recipe, sources inputs: [String: ImageInput], output: String,
                                control: RenderControl? = nil) throws -> AnimationReport {
        let began = monotonicSeconds()
        let recipe = try Self.validated(recipe)
        try checkOptions()
        guard let main = recipe.inputs.first(where: recipe.usedInputs.contains), let input = inputs[main] else {
            throw RenderError.recipe(RecipeError(path: "inputs", "no image given for the main input (\(recipe.inputs.first ?? "main"))"))
        }
        let path = input.name
        for (name, input) in inputs {
            guard case .file(let file) = input, Self.sameFile(file, output) else { continue }
            throw RenderError.output(OutputError(.isInput, path: output, "is the input \"\(name)\"; refusing to overwrite an input"))
        }
        guard let format = options.fileFormat ?? ImageFileFormat.from(extensionOf: output), format.writesAnimations else {
            let formats = ImageFileFormat.animationCases
            throw RenderError.output(OutputError(.unknownFormat, path: output, "animations are written as "
                + ImageFileFormat.names(formats, joinedBy: "or") + "; end the output's name in "
                + ImageFileFormat.list(formats.map { "." + $0.extensions[0] }, joinedBy: "or") + " (or render the first frame alone)"))
        }
        let reader: any AnimationReader
        do { reader = try Self.openAnimation(input, limits: decodeLimits) } catch { throw RenderError.reading(path, error) }
        // Frames in another profile than sRGB are converted into the working space as they come.
        var transform: InputColourTransform?
        if options.colourManagement, let icc = reader.iccProfile {
            do {
                let profile = try ColourProfile(icc: icc, source: path)
                if profile.unusableClass == nil, !profile.isSRGB {
                    transform = try InputColourTransform(from: profile, format: .rgba8, space: recipe.workingSpace)
                }
            } catch { throw RenderError.reading(path, error) }
        } else if options.colourManagement, let points = reader.codingPoints, let profile = ColourProfile.codingPoints(points) {
            do { transform = try InputColourTransform(from: profile, format: .rgba8, space: recipe.workingSpace) }
            catch { throw RenderError.reading(path, error) }
        }
        var images = [String: PixelBuffer]()
        for name in recipe.usedInputs where name != main {
            guard let other = inputs[name] else {
                throw RenderError.recipe(RecipeError(path: "inputs", "no image given for input \"\(name)\" (give \(SettingName.input(name)))"))
            }
            do { images[name] = try stillInput(other, space: recipe.workingSpace) } catch let error as RenderError { throw error } catch {
                throw RenderError.reading(other.name, error)
            }
        }
        let file: OutputFile
        do { file = try OutputFile(path: output, replace: options.replaceExisting) }
        catch let error as OutputError { throw RenderError.output(error) }
        defer { file.abandon() }
        // What a frame holds — the reader's canvases, the frame as the recipe's input (samples, or floats through a
        // profile) — is checked against the memory limit before any frame is decoded; the writer's share once the
        // output's size is known.
        let canvasPixels = Double(reader.width) * Double(reader.height)
        // Beside them, the process's own pages (code, libraries, strips): about 16 MiB, measured as filterrun's
        // peak on a small render.
        let inputBytes = canvasPixels * (reader.heldBytesPerPixel + (transform == nil ? 4 : 16)) + Double(16 << 20)
        try checkAnimationMemory(inputBytes, path: path, what: "its \(reader.width)×\(reader.height) frames")
        // Each frame costs its canvas's decoding, composition, conversion and encoding beside the recipe's own taps;
        // a file that declares its frames is refused before any is decoded.
        var frameWork = Double(reader.width) * Double(reader.height) * Self.frameTapsPerPixel + Self.frameTaps
        if let limit = options.maxWork, let declared = reader.declaredFrameCount, Double(declared) * frameWork > limit {
            throw RenderError.reading(path, CodecError(kind: .tooLarge, path: path, message: "its \(declared) frames of "
                + "\(reader.width)×\(reader.height) are more work than the limit (\(SettingName.maxWork)); raise it to render this animation"))
        }
        var writer: (any AnimationWriter)?
        var frames = 0, size = (width: 0, height: 0), pixels = 0.0
        // The coded frames a WebP, AVIF or JPEG XL writer holds until the file is written (a GIF's go to the file).
        var codedBytesPerFrame = 0.0, writerBytes = 0.0
        var warnings = [String]()
        while true {
            try control?.check()
            let frame: AnimationFrame
            do {
                guard let next = try reader.nextFrame() else { break }
                frame = next
            } catch { throw RenderError.reading(path, error) }
            pixels += frameWork
            if let limit = options.maxWork, pixels > limit {
                throw RenderError.reading(path, CodecError(kind: .tooLarge, path: path, message: "its frames are more work "
                    + "than the limit (\(SettingName.maxWork)) after \(frames) of them; raise it to render this animation"))
            }
            images[main] = nil  // the last frame's buffer goes before the next is made
            images[main] = try Self.frameBuffer(frame, width: reader.width, height: reader.height, transform: transform)
            let result = try render(recipe, images: images, format: .rgba8)
            // Packed rows: the buffer's own where they are (always, for rgba8), else a packed copy.
            let rows = result.rowStride == result.width * 4 ? nil : try result.packedData()
            do {
                let frameWriter: any AnimationWriter
                if let writer { frameWriter = writer } else {
                    let outputBytes = Double(result.width) * Double(result.height) * format.codec.animationWriterBytesPerPixel
                    try checkAnimationMemory(inputBytes + outputBytes, path: path,
                                             what: "its frames with a \(result.width)×\(result.height) \(format.name) animation written")
                    writerBytes = outputBytes
                    codedBytesPerFrame = Double(result.width) * Double(result.height) * format.codec.writeOptions(options).codedBytesPerPixel
                    if let declared = reader.declaredFrameCount {
                        try checkAnimationMemory(inputBytes + outputBytes + Double(declared) * codedBytesPerFrame, path: path,
                                                 what: "its \(declared) frames, coded and held until the file is written,")
                    }
                    // Each frame is encoded too: once the output's size is known, its cost joins each frame's.
                    let encoding = Double(result.width) * Double(result.height) * format.codec.encoderTapsPerPixel
                        + format.codec.encoderTapsPerFrame
                    frameWork += encoding
                    pixels += encoding
                    if let limit = options.maxWork, let declared = reader.declaredFrameCount, Double(declared) * frameWork > limit {
                        throw RenderError.reading(path, CodecError(kind: .tooLarge, path: path, message: "its \(declared) frames, "
                            + "written as a \(result.width)×\(result.height) animation, are more work than the limit "
                            + "(\(SettingName.maxWork)); raise it to render this animation"))
                    }
                    let carried = animationMetadata(reader.metadata, width: result.width, height: result.height, format: format,
                                                    upright: reader.framesUpright, warnings: &warnings)
                    guard let made = try format.codec.makeAnimationWriter(
                        AnimationWriteRequest(output: file, width: result.width, height: result.height,
                                              loopCount: reader.loopCount, metadata: carried), options) else {
                        throw RenderError.output(OutputError(.unknownFormat, path: output, "\(format.name) is not written as an animation"))
                    }
                    frameWriter = made
                }
                writer = frameWriter
                size = (result.width, result.height)
                if let rows {
                    try rows.withUnsafeBytes { bytes in
                        guard let base = bytes.baseAddress else { return }
                        try frameWriter.add(rgba: base, durationMilliseconds: frame.durationMilliseconds)
                    }
                } else {
                    try frameWriter.add(rgba: try result.hostBytes(), durationMilliseconds: frame.durationMilliseconds)
                }
            } catch let error as RenderError { throw error } catch {
                throw RenderError.output(OutputError(.notWritable, path: output, "\(error)"))
            }
            frames += 1
            if codedBytesPerFrame > 0 {
                try checkAnimationMemory(inputBytes + writerBytes + Double(frames) * codedBytesPerFrame, path: path,
                                         what: "its first \(frames) frames, coded and held until the file is written,")
            }
        }
        guard let writer else { throw RenderError.reading(path, CodecError(kind: .corrupt, path: path, message: "it holds no frame")) }
        do { try writer.finish() } catch let error as OutputError { throw RenderError.output(error) } catch {
            throw RenderError.output(OutputError(.notWritable, path: output, "\(error)"))
        }
        return AnimationReport(frames: frames, width: size.width, height: size.height, loopCount: reader.loopCount,
                               seconds: monotonicSeconds() - began, warnings: warnings)
    }

    /// Refuses an animation render whose frames would hold more than the memory limit.
    func checkAnimationMemory(_ bytes: Double, path: String, what: String) throws {
        guard bytes > Double(options.maxMemory) else { return }
        throw RenderError.reading(path, CodecError(kind: .tooLarge, path: path, message: String(
            format: "rendering %@ holds %.2f GiB at once, over the memory limit of %.2f GiB (\(SettingName.maxMemory))",
            what, bytes / 1_073_741_824, Double(options.maxMemory) / 1_073_741_824)))
    }



    /// Pixel-taps a frame's canvas pixel costs outside the recipe (decoding, composition, conversion), so that
    /// `maxWork` (4·10¹⁰ taps ≈ 50 s on this project's 2-core machine) bounds an animation's time as it bounds a
    /// still's; measured with animated WebP inputs (BENCHMARKS.md, "Hostile files").
    static let frameTapsPerPixel = 10.0

    /// Pixel-taps every frame costs whatever its size (the recipe's plan, the encoder's frame set-up): 100 000 frames
    /// of 16×16 from GIF to GIF took 64.7 s here, 0.65 ms a frame ≈ 5·10⁵ taps at 0.8·10⁹ taps/s.
    static let frameTaps = 5e5


    /// The EXIF and XMP an animation's output carries under `options.metadata`, edited for its size; the orientation
    /// tag says 1 where the reader turned the frames `upright`, else is kept (frames written as stored). A GIF keeps
    /// XMP only, and says so.
    func animationMetadata(_ input: ImageMetadata, width: Int, height: Int, format: ImageFileFormat, upright: Bool,
                           warnings: inout [String]) -> OutputMetadata? {
        guard var carried = OutputMetadata(from: input, policy: options.metadata, width: width, height: height, upright: upright) else {
            return nil
        }
        carried.extendedXMP = nil
        return format.codec.carried(carried, &warnings)
    }

    /// A composed frame as a render's input: its samples, or working values through its profile.
    static func frameBuffer(_ frame: AnimationFrame, width: Int, height: Int, transform: InputColourTransform?) throws -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height, format: transform == nil ? .rgba8 : .rgba32f, ledger: TransferLedger())
        let target = try buffer.mutableHostBytes()
        frame.pixels.withUnsafeBytes { samples in
            guard let base = samples.baseAddress else { return }
            guard let transform else { return target.copyMemory(from: base, byteCount: samples.count) }
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: width * 3)
            defer { scratch.deallocate() }
            for y in 0..<height {
                let row = (target + y * buffer.rowStride).assumingMemoryBound(to: Float.self)
                transform.convert(base + y * width * 4, into: row, width: width, scratch: scratch)
            }
        }
        return buffer
    }

    static func openAnimation(_ input: ImageInput, limits: DecodeLimits) throws -> any AnimationReader {
        let (format, fd) = try input.openDescriptor()
        guard let reader = try format.codec.openAnimation(fd, input.name, limits) else {
            let animated = ImageFileFormat.allCases.filter { $0.codec.animationHeadBytes != nil }
            throw CodecError(kind: .unsupported, path: input.name, message: "a \(format.name) image is not an animation this "
                             + "build renders frame by frame (" + ImageFileFormat.names(animated, joinedBy: "and") + " are read so)")
        }
        return reader
    }

    /// A still input used beside every frame, read as the still path reads it — turned upright, through its
    /// profile — into working values once.
    private func stillInput(_ input: ImageInput, space: WorkingSpace) throws -> PixelBuffer {
        let prepared = try prepare(Recipe.chain([], workingSpace: space), inputs: ["main": input])
        return try CPURenderer.render(prepared.plan, sources: prepared.decoders, format: .rgba32f)
    }
}
