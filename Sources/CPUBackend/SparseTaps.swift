import CKernels
import FilterCore

/// A kernel of scattered taps (a 2D convolution's nonzero weights, a motion blur's bilinear samples): each output row
/// is one weighted sum of shifted rows (`fr_vertical_taps_avx2`, or the portable loop in the same order). Working
/// rows are read where they are, the few edge columns tap their clamped pixels; rows that must be converted first
/// (stored samples, straight colour) are copied with their edge pixels repeated on both sides, so no tap needs a
/// bounds check (the same as clamping each tap).
struct SparseTaps {
    let offsets: [(dx: Int, dy: Int)]
    let weights: [Float]
    private let padX: Int, reach: Int

    init(offsets: [(dx: Int, dy: Int)], weights: [Float]) {
        self.offsets = offsets
        self.weights = weights
        padX = offsets.map { abs($0.dx) }.max() ?? 0
        reach = offsets.map { abs($0.dy) }.max() ?? 0
    }

    /// Output rows `chunk` into `output` (whose first row is `first`), reading `input` (its stored samples, converted
    /// as they are padded, with `samples`); with `straight` the rows are unpremultiplied as they are padded (a
    /// convolution of straight colour).
    func apply(_ chunk: Range<Int>, input: RowView, samples: PixelConverter? = nil, width: Int, straight: Bool, avx2: Bool,
               into output: UnsafeMutablePointer<Float>, first outputFirst: Int) {
        if samples == nil && !straight && width > 2 * padX {
            return applyInPlace(chunk, input: input, width: width, avx2: avx2, into: output, first: outputFirst)
        }
        let first = chunk.lowerBound - reach, count = chunk.count + 2 * reach, stride = width + 2 * padX
        let padded = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: count * stride)
        let sources = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: max(1, offsets.count))
        defer { padded.deallocate(); sources.deallocate() }
        for k in 0..<count {
            Self.pad(input, row: first + k, into: padded + k * stride + padX, width: width, pad: padX, samples: samples,
                     straight: straight)
        }
        let floats = UnsafeMutableRawPointer(padded).assumingMemoryBound(to: Float.self)
        for y in chunk {
            let out = output + (y - outputFirst) * width * 4
            for (n, o) in offsets.enumerated() {
                sources[n] = UnsafePointer(floats + ((y - first + o.dy) * stride + padX + o.dx) * 4)
            }
            weights.withUnsafeBufferPointer { Self.sum(sources, $0, pixels: width, avx2: avx2, into: out) }
        }
    }

    /// The same sums read from the input's working rows where they are: the columns whose taps all lie inside the
    /// row go through the row loop with pointers into the rows themselves, and the `padX` columns at each edge through
    /// the same loop over small clamped copies of their window, so no padded copy of the chunk's rows is made (a
    /// motion blur's window: 3 MiB less on a 20 MP photo).
    private func applyInPlace(_ chunk: Range<Int>, input: RowView, width: Int, avx2: Bool,
                              into output: UnsafeMutablePointer<Float>, first outputFirst: Int) {
        let sources = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: max(1, offsets.count))
        // For the edge columns: each window row's pixels from padX before to padX after them, clamped to the row.
        let span = 3 * padX, rowsHeld = 2 * reach + 1
        let edges = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, rowsHeld * span))
        defer { sources.deallocate(); edges.deallocate() }
        let inner = width - 2 * padX
        weights.withUnsafeBufferPointer { weights in
            for y in chunk {
                let out = output + (y - outputFirst) * width * 4
                for (n, o) in offsets.enumerated() { sources[n] = UnsafePointer(input.row(y + o.dy) + (padX + o.dx) * 4) }
                Self.sum(sources, weights, pixels: inner, avx2: avx2, into: out + padX * 4)
                // The padX columns at each edge through the same sum, reading clamped copies.
                for x0 in [0, width - padX] {
                    for k in 0..<rowsHeld {
                        let src = input.pixels(y - reach + k), strip = edges + k * span
                        for i in 0..<span { strip[i] = src[min(max(x0 - padX + i, 0), width - 1)] }
                    }
                    for (n, o) in offsets.enumerated() {
                        sources[n] = UnsafeRawPointer(edges + (o.dy + reach) * span + padX + o.dx).assumingMemoryBound(to: Float.self)
                    }
                    Self.sum(sources, weights, pixels: padX, avx2: avx2, into: out + x0 * 4)
                }
            }
        }
    }

    /// Input row `y` into `row` (`width` pixels, with `pad` more before and after it repeating the edge pixels):
    /// converted from stored samples with `samples`, unpremultiplied with `straight`, else copied.
    static func pad(_ input: RowView, row y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, pad: Int,
                    samples: PixelConverter?, straight: Bool) {
        if let samples {
            samples.decode(input.bytes(y), into: UnsafeMutableRawPointer(row).assumingMemoryBound(to: Float.self), width: width)
        } else if straight {
            let src = input.pixels(y)
            for x in 0..<width {
                let v = src[x], a = v[3]
                row[x] = a > 0 ? v / a : SIMD4()
            }
        } else {
            row.update(from: input.pixels(y), count: width)
        }
        (row - pad).update(repeating: row[0], count: pad)
        (row + width).update(repeating: row[width - 1], count: pad)
    }

    /// out[x] = Σₙ weights[n]·sources[n][x] over `pixels` working pixels: `fr_vertical_taps_avx2` (fused, in tap
    /// order), or the portable loop in the same order.
    static func sum(_ sources: UnsafePointer<UnsafePointer<Float>?>, _ weights: UnsafeBufferPointer<Float>, pixels: Int,
                    avx2: Bool, into out: UnsafeMutablePointer<Float>) {
        if avx2 && !weights.isEmpty {
            fr_vertical_taps_avx2(out, sources, weights.baseAddress, Int32(weights.count), pixels * 4, 0)
            return
        }
        let result = UnsafeMutableRawPointer(out).assumingMemoryBound(to: SIMD4<Float>.self)
        result.update(repeating: SIMD4(), count: pixels)
        for n in 0..<weights.count {
            let src = UnsafeRawPointer(sources[n]!).assumingMemoryBound(to: SIMD4<Float>.self), k = weights[n]
            for x in 0..<pixels { result[x] += src[x] * k }
        }
    }
}
