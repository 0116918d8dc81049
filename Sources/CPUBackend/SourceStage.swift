import CKernels
import FilterCore

/// Turns stored rows into working values: through the source's profile conversion when it has one, else the
/// plain sRGB decode.
struct SampleDecoding {
    let converter: PixelConverter
    let conversion: ConvertingRowSource?
    let width: Int

    init(format: PixelFormat, conversion: ConvertingRowSource?, space: WorkingSpace, width: Int) {
        converter = PixelConverter(format: format, space: space)
        self.conversion = conversion
        self.width = width
    }

    /// Converts `count` stored rows (`rowBytes` apart) to working rows, on the workers.
    func convert(_ stored: UnsafeRawPointer, _ count: Int, rowBytes: Int, into output: UnsafeMutablePointer<Float>) {
        let converter = converter, width = width
        if let conversion {
            WorkerPool.forEachChunk(0..<count, minChunk: max(1, 4096 / max(1, width))) { chunk in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: width * 3) { floats in
                    guard let floats = floats.baseAddress else { return }
                    for i in chunk {
                        conversion.convertRow(stored + i * rowBytes, into: output + i * width * 4, width: width, scratch: floats)
                    }
                }
            }
        } else {
            WorkerPool.forEachChunk(0..<count, minChunk: max(1, 4096 / max(1, width))) { chunk in
                for i in chunk {
                    converter.decode(stored + i * rowBytes, into: output + i * width * 4, width: width)
                }
            }
        }
    }
}

/// Reads rows from a streaming source strip by strip: as stored samples when the plan holds the node as samples,
/// else converted to working values.
final class SourceStage: Stage {
    let source: ImageRowSource
    /// `source` when it is a decoder thread, whose rows are converted where it left them.
    private let reader: DecoderThread?
    private let decoding: SampleDecoding
    private var scratch: UnsafeMutableRawPointer
    private var scratchRows = 0
    private let rowBytes: Int

    /// With `conversion`, `source` delivers the stored rows that `conversion` makes working values.
    init(source: ImageRowSource, conversion: ConvertingRowSource? = nil, space: WorkingSpace, node: Plan.Node,
         stats: RenderStats) {
        self.source = source
        reader = source as? DecoderThread
        decoding = SampleDecoding(format: source.format, conversion: conversion, space: space, width: source.width)
        rowBytes = source.width * source.format.bytesPerPixel
        scratch = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64)
        super.init(node: node, stats: stats)
    }

    deinit { scratch.deallocate() }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let samples = representation != .working
        // A decoder thread's rows are converted (or copied) where the thread left them (rows nobody needs, above a
        // crop, are passed over unread); its own time is counted when it stops, so here only the conversion is.
        if let reader {
            if reader.nextRow < rows.lowerBound { try reader.borrowRows(rows.lowerBound - reader.nextRow) { _, _, _ in } }
            try checkOrder(rows)
            try reader.borrowRows(rows.count) { stored, first, count in
                let began = monotonicSeconds()
                if samples {
                    (output + first * rowBytes).copyMemory(from: stored, byteCount: count * rowBytes)
                } else {
                    decoding.convert(stored, count, rowBytes: rowBytes,
                                     into: (output + first * width * 16).assumingMemoryBound(to: Float.self))
                }
                stats.decodeSeconds += monotonicSeconds() - began
            }
        } else {
            let began = monotonicSeconds()
            if rows.count > scratchRows {
                scratch.deallocate()
                scratch = UnsafeMutableRawPointer.allocate(byteCount: rows.count * rowBytes, alignment: 64)
                scratchRows = rows.count
            }
            if source.nextRow < rows.lowerBound { try source.skipRows(rows.lowerBound - source.nextRow) }  // above a crop
            try checkOrder(rows)
            if samples {
                try source.readRows(into: output, stride: rowBytes, count: rows.count)
            } else {
                try source.readRows(into: scratch, stride: rowBytes, count: rows.count)
                decoding.convert(scratch, rows.count, rowBytes: rowBytes, into: output.assumingMemoryBound(to: Float.self))
            }
            stats.decodeSeconds += monotonicSeconds() - began
        }
        // Working values lose the colour of a fully transparent pixel (premultiplied); samples lose it here, so
        // both representations give the same pixels. A profile's stored samples are converted whole later (the
        // fourth sample of a CMYK photo is ink, not alpha).
        let format = source.format
        if samples && format.hasAlpha && decoding.conversion == nil {
            fr_clear_transparent(output, rows.count * width, Int32(format.channels), Int32(format.bytesPerSample))
        }
    }

    private func checkOrder(_ rows: Range<Int>) throws {
        guard source.nextRow == rows.lowerBound else {
            throw PlanError("rows \(rows) of \(origin) asked after row \(source.nextRow): sources are read top to bottom once")
        }
    }
}

/// Working values from a node held as samples, for the consumers that compute new values.
final class ConvertStage: Stage {
    private let decoding: SampleDecoding
    private let rowBytes: Int

    init(from samples: Plan.Node, format: PixelFormat, conversion: ConvertingRowSource?, space: WorkingSpace,
         stats: RenderStats) {
        decoding = SampleDecoding(format: format, conversion: conversion, space: space, width: samples.width)
        rowBytes = samples.width * format.bytesPerPixel
        var node = samples
        node.representation = .working
        if !samples.postOnConversion { node.post = [] }
        node.op = "to working values"
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        decoding.convert(inputs[0].bytes(rows.lowerBound), rows.count, rowBytes: rowBytes, into: output)
    }
}

/// Fills rows from a generator.
final class GeneratorStage: Stage {
    let generator: Generator
    let space: WorkingSpace

    init(_ generator: Generator, space: WorkingSpace, node: Plan.Node, stats: RenderStats) {
        self.generator = generator
        self.space = space
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let width = width, height = height, generator = generator, space = space
        parallelRows(rows) { chunk in
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                GeneratorKernel.fill(out, y: y, width: width, height: height, generator, space)
            }
        }
    }
}

/// Pixel values of the generators (shared by every CPU caller).
enum GeneratorKernel {
    static func fill(_ out: UnsafeMutablePointer<SIMD4<Float>>, y: Int, width: Int, height: Int,
                     _ generator: Generator, _ space: WorkingSpace) {
        switch generator {
        case .solid(let c):
            out.update(repeating: c.working(space), count: width)
        case let .linear(x0, y0, x1, y1, from, to):
            let a = from.working(space), b = to.working(space)
            let dx = (x1 - x0) * Float(width), dy = (y1 - y0) * Float(height)
            let length2 = dx * dx + dy * dy
            let py = Float(y) + 0.5 - y0 * Float(height)
            for x in 0..<width {
                let px = Float(x) + 0.5 - x0 * Float(width)
                var t = length2 > 0 ? (px * dx + py * dy) / length2 : 0
                t = t > 0 ? (t < 1 ? t : 1) : 0
                out[x] = a + (b - a) * t
            }
        case let .radial(cx, cy, radius, from, to):
            let a = from.working(space), b = to.working(space)
            let half = (Float(width * width + height * height)).squareRoot() / 2
            let py = Float(y) + 0.5 - cy * Float(height)
            for x in 0..<width {
                let px = Float(x) + 0.5 - cx * Float(width)
                var t = (px * px + py * py).squareRoot() / (radius * half)
                t = t < 1 ? t : 1
                out[x] = a + (b - a) * t
            }
        case let .checkerboard(size, first, second):
            let a = first.working(space), b = second.working(space)
            let rowParity = (y / size) & 1
            for x in 0..<width { out[x] = ((x / size) & 1) == rowParity ? a : b }
        case .text(let block):
            let colour = block.color.working(space) / 255
            out.update(repeating: .zero, count: width)
            let row = y - block.y
            guard row >= 0, row < block.height else { return }
            let first = max(0, block.x), last = min(width, block.x + block.width)
            guard first < last else { return }
            block.coverage.withUnsafeBufferPointer { coverage in
                let line = coverage.baseAddress! + row * block.width - block.x
                for x in first..<last { out[x] = colour * Float(line[x]) }
            }
        }
    }
}
