import CKernels
import FilterCore

@inline(__always) func luminance(_ v: SIMD4<Float>) -> Float {
    0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
}

/// Sharpens luminance: RGB += amount·(Y − [1 2 1]ᵀ[1 2 1]/16 ∗ Y).
final class SharpenLuminanceStage: Stage {
    let amount: Float

    init(amount: Float, node: Plan.Node, stats: RenderStats) {
        self.amount = amount
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        let input = inputs[0], width = width, amount = amount
        parallelRows(rows) { chunk in
            for y in chunk {
                let above = input.pixels(y - 1), centre = input.pixels(y), below = input.pixels(y + 1)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                @inline(__always) func column(_ x: Int) -> Float {
                    let c = x < 0 ? 0 : (x >= width ? width - 1 : x)
                    return luminance(above[c]) + 2 * luminance(centre[c]) + luminance(below[c])
                }
                var left = column(-1), middle = column(0)
                for x in 0..<width {
                    let right = column(x + 1)
                    let blurred = (left + 2 * middle + right) / 16
                    let delta = amount * (luminance(centre[x]) - blurred)
                    out[x] = centre[x] + SIMD4(delta, delta, delta, 0)
                    left = middle
                    middle = right
                }
            }
        }
    }
}

/// Gradient magnitude of luminance with 3×3 Sobel kernels, divided by 4; opaque output.
final class SobelStage: Stage {
    /// The input's samples and their conversion, where the plan has the stage read them itself
    /// (`Primitives.Sobel.onSamples`); `rounding` where its result is held as samples.
    private let reading: PixelConverter?
    private let rounding: PixelConverter?
    /// For 8-bit samples: each channel's luminance weight times each code's working value (`fr_luminance_row8`).
    private let weighted: [Float]?

    init(input: Plan.Node, node: Plan.Node, space: WorkingSpace, stats: RenderStats) {
        if node.readsSamples, case .samples(let format, _) = input.representation {
            reading = PixelConverter(format: format, space: space)
        } else {
            reading = nil
        }
        if let reading, reading.format.depth == 8 {
            // The working value of every code, as the conversion gives it, times fr_luminance_row's weights.
            let grey = PixelConverter(format: .grey8, space: space)
            var values = [Float](repeating: 0, count: 256 * 4)
            let codes = (0..<256).map { UInt8($0) }
            codes.withUnsafeBytes { grey.decode($0.baseAddress!, into: &values, width: 256) }
            weighted = ([0.2126, 0.7152, 0.0722] as [Float]).flatMap { w in (0..<256).map { w * values[4 * $0] } }
        } else {
            weighted = nil
        }
        if case .samples(let format, _) = node.representation {
            rounding = PixelConverter(format: format, space: space)
        } else {
            rounding = nil
        }
        super.init(node: node, stats: stats)
    }

    /// Reading samples, each worker's chunk converts the two rows beyond it again: strips of up to 64 rows (both
    /// sides held at 1–8 bytes a pixel) keep that to a few per cent.
    override func connect(_ input: Stage) {
        super.connect(input)
        guard reading != nil else { return }
        stripHeight = max(stripHeight, min(64, (1 << 20) / max(1, width * 8)))
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        try compute(rows, inputs: inputs, bytes: UnsafeMutableRawPointer(output))
    }

    /// Each input row's luminance is computed once (`fr_luminance_row`; stored samples converted first, a row at a
    /// time in cache), padded with its edge values, and kept for the three output rows that read it; `fr_sobel_row`
    /// then reads the three rows around each output row, and a result held as samples is rounded a row at a time.
    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        let input = inputs[0], width = width, padded = width + 2, height = height
        let reading = reading, rounding = rounding, weighted = weighted, rowBytes = width * pixelBytes
        parallelRows(rows) { chunk in
            let lines = UnsafeMutablePointer<Float>.allocate(capacity: 3 * padded)
            let working = UnsafeMutablePointer<Float>.allocate(capacity: reading != nil || rounding != nil ? width * 4 : 0)
            defer { lines.deallocate(); working.deallocate() }
            // Which input row each of the three buffers holds.
            var held = [Int](repeating: Int.min, count: 3)
            func line(_ y: Int) -> UnsafeMutablePointer<Float> {
                let clamped = min(max(y, 0), height - 1), slot = ((clamped % 3) + 3) % 3
                let buffer = lines + slot * padded
                if held[slot] != clamped {
                    if let weighted {
                        fr_luminance_row8(buffer + 1, input.bytes(clamped).assumingMemoryBound(to: UInt8.self), width,
                                          Int32(reading?.format.channels ?? 1), weighted)
                    } else if let reading {
                        reading.decode(input.bytes(clamped), into: working, width: width)
                        fr_luminance_row(buffer + 1, working, width)
                    } else {
                        fr_luminance_row(buffer + 1, input.row(clamped), width)
                    }
                    buffer[0] = buffer[1]
                    buffer[width + 1] = buffer[width]
                    held[slot] = clamped
                }
                return buffer
            }
            for y in chunk {
                let a = line(y - 1), b = line(y), c = line(y + 1)
                let out = output + (y - rows.lowerBound) * rowBytes
                if let rounding {
                    fr_sobel_row(working, a, b, c, width)
                    rounding.encode(working, into: out, width: width)
                } else {
                    fr_sobel_row(out.assumingMemoryBound(to: Float.self), a, b, c, width)
                }
            }
        }
    }
}

/// Per-channel median of the (2r+1)² window.
final class MedianStage: Stage {
    let radius: Int

    init(radius: Int, node: Plan.Node, stats: RenderStats) {
        self.radius = radius
        super.init(node: node, stats: stats)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], into output: UnsafeMutablePointer<Float>) throws {
        if radius == 1 { return median3x3(rows, input: inputs[0], into: output) }
        return medianByNetwork(rows, input: inputs[0], into: output)
    }

    override func compute(_ rows: Range<Int>, inputs: [RowView], bytes output: UnsafeMutableRawPointer) throws {
        guard case .samples(let format, _) = representation else {
            return try compute(rows, inputs: inputs, into: output.assumingMemoryBound(to: Float.self))
        }
        medianOfSamples(rows, input: inputs[0], format: format, into: output)
    }
}

extension MedianStage {
    /// On stored samples without alpha (the plan keeps them there): a median selects one of its inputs and the
    /// sRGB decode is increasing, so the median of the samples is the sample of the working values' median. The
    /// rows of the window are padded with their edge pixels once, then `fr_median_row` runs the network on 16 bytes
    /// of samples at a time.
    func medianOfSamples(_ rows: Range<Int>, input: RowView, format: PixelFormat, into output: UnsafeMutableRawPointer) {
        let r = radius, bpp = format.bytesPerPixel, width = width, channels = format.channels
        let paddedBytes = (width + 2 * r) * bpp, window = (rows.lowerBound - r)..<(rows.upperBound + r)
        let padded = UnsafeMutableRawPointer.allocate(byteCount: window.count * paddedBytes, alignment: 64)
        defer { padded.deallocate() }
        WorkerPool.forEachChunk(window, minChunk: 8) { chunk in
            for y in chunk {
                let row = padded + (y - window.lowerBound) * paddedBytes, source = input.bytes(y)
                (row + r * bpp).copyMemory(from: source, byteCount: width * bpp)
                for k in 0..<r {
                    (row + k * bpp).copyMemory(from: source, byteCount: bpp)
                    (row + (r + width + k) * bpp).copyMemory(from: source + (width - 1) * bpp, byteCount: bpp)
                }
            }
        }
        let pairs = MedianNetwork.pairs(count: (2 * r + 1) * (2 * r + 1)).flatMap { [UInt8($0.0), UInt8($0.1)] }
        parallelRows(rows) { chunk in
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 2 * r + 1) { pointers in
                for y in chunk {
                    for dy in 0...(2 * r) {
                        pointers[dy] = UnsafeRawPointer(padded + (y + dy - r - window.lowerBound) * paddedBytes + r * bpp)
                    }
                    fr_median_row(output + (y - rows.lowerBound) * width * bpp, pointers.baseAddress, width * channels,
                                  Int32(channels), Int32(r), Int32(format.bytesPerSample), pairs, Int32(pairs.count / 2))
                }
            }
        }
    }
}

extension MedianStage {
    /// Radius 1, the common denoising case: the median of 9 by `MedianNetwork`'s 19 compare-exchanges (written out
    /// here so the nine values stay in registers), all four channels at once in one vector. Selects exactly the
    /// element a full sort would put in the middle.
    func median3x3(_ rows: Range<Int>, input: RowView, into output: UnsafeMutablePointer<Float>) {
        let width = width
        @inline(__always) func order(_ a: inout SIMD4<Float>, _ b: inout SIMD4<Float>) {
            let low = a.replacing(with: b, where: b .< a)
            b = b.replacing(with: a, where: b .< a)
            a = low
        }
        parallelRows(rows) { chunk in
            for y in chunk {
                let above = input.pixels(y - 1), centre = input.pixels(y), below = input.pixels(y + 1)
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    let l = x > 0 ? x - 1 : 0, r = x < width - 1 ? x + 1 : width - 1
                    var p0 = above[l], p1 = above[x], p2 = above[r]
                    var p3 = centre[l], p4 = centre[x], p5 = centre[r]
                    var p6 = below[l], p7 = below[x], p8 = below[r]
                    order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
                    order(&p0, &p1); order(&p3, &p4); order(&p6, &p7)
                    order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
                    order(&p0, &p3); order(&p5, &p8); order(&p4, &p7)
                    order(&p3, &p6); order(&p1, &p4); order(&p2, &p5)
                    order(&p4, &p7); order(&p4, &p2); order(&p6, &p4)
                    order(&p4, &p2)
                    out[x] = p4
                }
            }
        }
    }
}

extension MedianStage {
    /// Radii 2 and 3: Batcher's odd–even merge network over the window padded with +∞ to 32 or 64 values, pruned to
    /// the exchanges the middle element depends on, on whole SIMD4 pixels (all channels at once).
    func medianByNetwork(_ rows: Range<Int>, input: RowView, into output: UnsafeMutablePointer<Float>) {
        let width = width, r = radius, count = (2 * r + 1) * (2 * r + 1)
        let pairs = MedianNetwork.pairs(count: count)
        parallelRows(rows) { chunk in
            let slots = MedianNetwork.size(count)
            let window = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: slots)
            defer { window.deallocate() }
            for y in chunk {
                let out = UnsafeMutableRawPointer(output + (y - rows.lowerBound) * width * 4)
                    .assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width {
                    var n = 0
                    for dy in -r...r {
                        let row = input.pixels(y + dy)
                        for dx in -r...r {
                            let sx = x + dx
                            window[n] = row[sx < 0 ? 0 : (sx >= width ? width - 1 : sx)]
                            n += 1
                        }
                    }
                    (window + count).update(repeating: SIMD4(repeating: .infinity), count: slots - count)
                    pairs.withUnsafeBufferPointer { list in
                        for (a, b) in list {
                            let low = window[a], high = window[b]
                            let swap = high .< low
                            window[a] = low.replacing(with: high, where: swap)
                            window[b] = high.replacing(with: low, where: swap)
                        }
                    }
                    out[x] = window[count / 2]
                }
            }
        }
    }
}
