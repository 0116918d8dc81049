import FilterCore
import Foundation

/// GIF writer into an `OutputFile`: the picture gathered (8-bit grey to RGBA), quantised to at most 256 colours
/// by libimagequant, written by giflib and published by `finish()`; `abandon()` (or dropping the encoder
/// unfinished) removes it. Pixels under half opacity are transparent, the rest opaque (GIF has no partial alpha).
package final class GIFEncoder: WholePictureEncoder {
    package let output: OutputFile
    package let width: Int
    package let height: Int
    package let format: PixelFormat
    package var gathered: GatheredPicture
    private let options: GIFWriteOptions
    /// The XMP packet written in an application extension (GIF has no place for EXIF).
    private let xmp: [UInt8]?

    /// 8-bit layouts (16-bit rows are reduced by the caller).
    package static func accepts(_ format: PixelFormat) -> Bool { !format.isFloat && format.depth == 8 }

    package init(output: OutputFile, width: Int, height: Int, format: PixelFormat, options: GIFWriteOptions = .default,
                 metadata: OutputMetadata? = nil) throws {
        self.output = output
        xmp = metadata?.xmp
        self.width = width
        self.height = height
        self.format = format
        self.options = options
        do {
            guard Self.accepts(format) else {
                throw CodecError(kind: .invalidRequest, path: output.path, message: "GIF output takes 8-bit rows, not \(format.rawValue)")
            }
            guard (1...65535).contains(width), (1...65535).contains(height) else {
                throw CodecError(kind: .invalidRequest, path: output.path,
                                 message: "GIF holds images up to 65535 pixels a side; this one is \(width)×\(height)")
            }
            try GIFQuantiser.validate(options, path: output.path)
            try GIFQuantiser.load(for: output.path)
        } catch {
            output.abandon()
            throw error
        }
        gathered = GatheredPicture(width: width, height: height, channels: format.hasAlpha ? 4 : 3, sampleBytes: 1)
    }

    deinit { if !gathered.isPublished { output.abandon() } }

    package func encode(_ gathered: GatheredPicture) throws -> [UInt8] {
        var rgba = Self.rgba(gathered.pixels, channels: format.hasAlpha ? 4 : 3)
        let frame = try GIFQuantiser.quantise(&rgba, width: width, height: height, options: options, path: path)
        let stream = try GIFStream(width: width, height: height, path: path)
        if let xmp { try stream.xmp(xmp) }
        try stream.add(frame, delay: nil, disposal: .none)
        return try stream.finish()
    }

    /// RGB made RGBA (opaque); RGBA as it is.
    static func rgba(_ pixels: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 3 else { return pixels }
        var out = [UInt8](repeating: 255, count: pixels.count / 3 * 4)
        for p in 0..<pixels.count / 3 {
            out[p * 4] = pixels[p * 3]; out[p * 4 + 1] = pixels[p * 3 + 1]; out[p * 4 + 2] = pixels[p * 3 + 2]
        }
        return out
    }
}

/// An animated GIF written a frame at a time (delays in hundredths of a second, the loop count as NETSCAPE2.0 says
/// it), published atomically by `finish()`. An opaque frame is written as the rectangle where it differs from what
/// the screen shows, quantised to its own colour table, its unchanged pixels transparent over the frame before, left
/// in place (as gifsicle's and cgif's optimisers do: a still background costs almost nothing after the first
/// frame); a frame with transparent pixels is written whole, the frame before cleared first. Each frame waits for
/// the next, which decides how it leaves the screen. Holds the coded frames, the waiting one, the last frame's
/// pixels and what the screen shows, never the raw frames before them.
package final class AnimatedGIFWriter: AnimationWriter {
    package let output: OutputFile
    package var path: String { output.path }
    private let width: Int, height: Int
    private let options: GIFWriteOptions
    private var stream: GIFStream?
    private var published = false
    /// The last frame's pixels (alpha settled), and what the screen shows (each pixel's source when last written).
    private var previous: [UInt8]?, shown: [UInt8]?
    /// The last frame, coded, its area and delay.
    private var waiting: (frame: QuantisedFrame, area: GIFStream.Area, delay: Int)?

    /// `xmp`: a packet written after the loop count, in its application extension.
    package init(output: OutputFile, width: Int, height: Int, loopCount: Int, options: GIFWriteOptions = .default,
                 xmp: [UInt8]? = nil) throws {
        self.output = output
        self.width = width
        self.height = height
        self.options = options
        do {
            try GIFQuantiser.validate(options, path: output.path)
            try GIFQuantiser.load(for: output.path)
            let stream = try GIFStream(width: width, height: height, path: output.path)
            try stream.loop(loopCount)
            if let xmp { try stream.xmp(xmp) }
            self.stream = stream
        } catch {
            output.abandon()
            throw error
        }
    }

    deinit { if !published { output.abandon() } }

    package func add(rgba pixels: UnsafeRawPointer, durationMilliseconds: Int) throws {
        guard let stream else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        var rgba = [UInt8](UnsafeRawBufferPointer(start: pixels, count: width * height * 4))
        let opaque = GIFQuantiser.settle(&rgba)
        let whole: GIFStream.Area = (0, 0, width, height)
        let area = opaque ? shown.map { Self.changed(from: $0, to: rgba, width: width, height: height) } ?? whole : whole
        if var waiting {
            // Clearing to the background clears only a frame's own rectangle: before a frame with transparent
            // pixels, the frame before is written whole so that the whole screen clears.
            if !opaque, waiting.area != whole, var all = previous {
                waiting.frame = try GIFQuantiser.quantise(&all, width: width, height: height, options: options, path: path)
                waiting.area = whole
            }
            try stream.add(waiting.frame, delay: waiting.delay, disposal: opaque ? .keep : .background, area: waiting.area)
        }
        var part = area == whole ? rgba : Self.crop(rgba, width: width, area: area)
        if opaque, var screen = shown {
            // Inside the rectangle, what has not changed is transparent: the screen keeps showing it, and runs of
            // the one transparent index cost LZW almost nothing.
            for row in 0..<area.height {
                for column in 0..<area.width {
                    let p = ((area.top + row) * width + area.left + column) * 4, q = (row * area.width + column) * 4
                    if Self.differs(screen, rgba, at: p) {
                        for c in 0..<4 { screen[p + c] = rgba[p + c] }
                    } else {
                        for c in 0..<4 { part[q + c] = 0 }
                    }
                }
            }
            shown = screen
        } else {
            shown = rgba
        }
        let frame = try GIFQuantiser.quantise(&part, width: area.width, height: area.height, options: options, path: path)
        waiting = (frame, area, (max(0, durationMilliseconds) + 5) / 10)
        previous = rgba
    }

    /// How far a colour may move and still count as unchanged: less than quantising to 256 colours moves a pixel,
    /// so a source whose frames were quantised each to its own palette does not make every frame whole.
    static let unchanged = 3

    /// Whether the pixel at byte `p` of `next` differs from `last` by more than `unchanged` in a colour, or in alpha.
    static func differs(_ last: [UInt8], _ next: [UInt8], at p: Int) -> Bool {
        if last[p + 3] != next[p + 3] { return true }
        return abs(Int(last[p]) - Int(next[p])) > unchanged || abs(Int(last[p + 1]) - Int(next[p + 1])) > unchanged
            || abs(Int(last[p + 2]) - Int(next[p + 2])) > unchanged
    }

    /// The smallest rectangle holding every pixel of `next` that differs from what the screen shows (`last`); one
    /// pixel when none does (a frame must still carry its delay).
    static func changed(from last: [UInt8], to next: [UInt8], width: Int, height: Int) -> GIFStream.Area {
        var (left, top, right, bottom) = (width, height, -1, -1)
        for row in 0..<height {
            let base = row * width
            guard let first = (0..<width).first(where: { differs(last, next, at: (base + $0) * 4) }) else { continue }
            let last = (0..<width).last(where: { differs(last, next, at: (base + $0) * 4) }) ?? first
            left = min(left, first); right = max(right, last)
            top = min(top, row); bottom = row
        }
        return right < 0 ? (0, 0, 1, 1) : (left, top, right - left + 1, bottom - top + 1)
    }

    static func crop(_ rgba: [UInt8], width: Int, area: GIFStream.Area) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(area.width * area.height * 4)
        for row in area.top..<(area.top + area.height) {
            let start = (row * width + area.left) * 4
            out += rgba[start..<(start + area.width * 4)]
        }
        return out
    }

    package func finish() throws {
        guard let stream else { throw CodecError(kind: .invalidRequest, path: path, message: "the animation is finished") }
        self.stream = nil
        let bytes: [UInt8]
        do {
            if let waiting { try stream.add(waiting.frame, delay: waiting.delay, disposal: .background, area: waiting.area) }
            waiting = nil
            bytes = try stream.finish()
        } catch {
            output.abandon()
            throw error
        }
        try WholePicture.publish(bytes, to: output)
        published = true
    }
}
