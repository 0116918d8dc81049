import CKernels
import FilterCore

/// A stage that mixes its inputs pixel by pixel, a row at a time (the blends). On working values it reads its
/// inputs' rows where they lie. Held as samples (`SampleAction.mixesPixels`), it converts each input row to working
/// values in cache, mixes them there and rounds the result to its samples: the working path's arithmetic, to the
/// bit, without a strip of floats per input and one for the output (16 bytes a pixel each, written and read back).
class PixelMixStage: Stage {
    let inputSizes: [(width: Int, height: Int)]
    /// Where the node is held as samples: the conversion to working values of each input held as samples (nil for
    /// one that arrives as working values, a generated image), and the result's to samples.
    private let samples: (decoders: [PixelConverter?], encoder: PixelConverter)?
    /// Where the node is held as samples: whether input i's stored row is, byte for byte, what its working values
    /// round to as the result (the result's layout and width, and every code comes back through the conversions).
    private let copies: [Bool]

    /// `inputs`: the stages it reads, as connected (an input's samples or its working values).
    init(inputs: [Stage], node: Plan.Node, space: WorkingSpace, stats: RenderStats) {
        inputSizes = inputs.map { ($0.width, $0.height) }
        if case .samples(let format, _) = node.representation {
            samples = (inputs.map { input in
                guard case .samples(let stored, _) = input.representation else { return nil }
                return PixelConverter(format: stored, space: space)
            }, PixelConverter(format: format, space: space))
            let roundTrips = Self.roundTrips(PixelConverter(format: format, space: space))
            copies = inputs.map { input in
                guard case .samples(format, _) = input.representation else { return false }
                return input.width == node.width && roundTrips
            }
        } else {
            samples = nil
            copies = inputs.map { _ in false }
        }
        super.init(node: node, stats: stats)
    }

    /// Whether every stored sample of the converter's layout comes back through working values unchanged: tried
    /// on each code (8-bit without alpha; a stored colour under alpha 0 would not come back).
    private static func roundTrips(_ converter: PixelConverter) -> Bool {
        let format = converter.format
        guard format.depth == 8, !format.hasAlpha, !format.isFloat else { return false }
        let stored = (0..<256).flatMap { [UInt8](repeating: UInt8($0), count: format.channels) }
        var working = [Float](repeating: 0, count: 256 * 4)
        var back = [UInt8](repeating: 0, count: stored.count)
        converter.decode(stored, into: &working, width: 256)
        working.withUnsafeBufferPointer { converter.encode($0.baseAddress!, into: &back, width: 256) }
        return back == stored
    }

    /// The input whose row is the result as it is, if one is, given `clear(i)`: whether input i's row is clear
    /// (below its last row, or all zero: transparent), known for the inputs that arrive as working values. Only
    /// where the node is held as samples, whose working values are finite, so that a clear source's composite is
    /// exactly its backdrop.
    func passesThrough(_ clear: (Int) -> Bool) -> Int? { nil }

    /// Mixes row `y`: `rows[i]` is input `i`'s row `y` (nil below its last row; the first input is the only one
    /// that may be narrower or shorter than the node; rows are read, never written), `out` the result.
    func mix(_ y: Int, _ rows: UnsafeMutablePointer<UnsafeMutablePointer<SIMD4<Float>>?>,
             into out: UnsafeMutablePointer<SIMD4<Float>>) {
        fatalError("mix not implemented for \(op)")
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let width = width, sizes = inputSizes
        parallelRows(rows) { chunk in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<SIMD4<Float>>?.self, capacity: sizes.count) { pointers in
                guard let row = pointers.baseAddress else { return }
                for y in chunk {
                    for i in sizes.indices { row[i] = y < sizes[i].height ? inputs[i].pixels(y) : nil }
                    mix(y, row, into: UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                        .assumingMemoryBound(to: SIMD4<Float>.self))
                }
            }
        }
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        guard let samples else {
            return try compute(rows, inputs: inputs, into: output.assumingMemoryBound(to: Float.self))
        }
        let sizes = inputSizes, width = width, rowBytes = width * pixelBytes
        // Row i's working values at offsets[i], the result's after the last.
        let offsets = sizes.reduce(into: [0]) { $0.append($0.last! + $1.width) }
        parallelRows(rows) { chunk in
            let scratch = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: offsets.last! + width)
            defer { scratch.deallocate() }
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<SIMD4<Float>>?.self, capacity: sizes.count) { pointers in
                guard let row = pointers.baseAddress else { return }
                for y in chunk {
                    let target = output + (y - rows.lowerBound) * rowBytes
                    // A row the result takes from one input as it is: copied, or converted without mixing.
                    if let passed = passesThrough({ i in
                        y >= sizes[i].height
                            || samples.decoders[i] == nil && fr_floats_zero(inputs[i].row(y), sizes[i].width * 4) != 0
                    }), y < sizes[passed].height, sizes[passed].width == width {
                        if copies[passed] {
                            target.copyMemory(from: inputs[passed].bytes(y), byteCount: rowBytes)
                            continue
                        }
                        var values = inputs[passed].row(y)
                        if let decoder = samples.decoders[passed] {
                            values = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: Float.self)
                            decoder.decode(inputs[passed].bytes(y), into: values, width: width)
                        }
                        samples.encoder.encode(values, into: target, width: width)
                        continue
                    }
                    for i in sizes.indices {
                        guard y < sizes[i].height else { row[i] = nil; continue }
                        guard let decoder = samples.decoders[i] else { row[i] = inputs[i].pixels(y); continue }
                        decoder.decode(inputs[i].bytes(y), into: UnsafeMutableRawPointer(scratch + offsets[i])
                            .assumingMemoryBound(to: Float.self), width: sizes[i].width)
                        row[i] = scratch + offsets[i]
                    }
                    let out = scratch + offsets[sizes.count]
                    mix(y, row, into: out)
                    samples.encoder.encode(UnsafeRawPointer(out).assumingMemoryBound(to: Float.self), into: target,
                                           width: width)
                }
            }
        }
    }
}
