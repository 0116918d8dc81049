import CKernels
/// Converts rows between a storage format and working values: four floats per pixel (RGBA), premultiplied alpha,
/// linear light or sRGB-encoded as the working space says. Grey is stored as its luminance (Rec. 709 weights).
package struct PixelConverter: Sendable {
    package let format: PixelFormat
    package let space: WorkingSpace

    package init(format: PixelFormat, space: WorkingSpace) {
        precondition(!format.isFloat || format == .rgba32f, "rgba16f rows are converted by the device")
        self.format = format
        self.space = space
    }

    /// Reads `width` pixels at `source` into `destination` (4 floats per pixel).
    package func decode(_ source: UnsafeRawPointer, into destination: UnsafeMutablePointer<Float>, width: Int) {
        if format == .rgba32f {
            destination.update(from: source.assumingMemoryBound(to: Float.self), count: width * 4)
            return
        }
        let channels = format.channels
        let alphaIndex = format.hasAlpha ? channels - 1 : -1
        let colourChannels = format.hasAlpha ? channels - 1 : channels
        if format.bytesPerSample == 1 {
            let src = source.assumingMemoryBound(to: UInt8.self)
            if channels == 3 {  // the common photo: nothing to premultiply
                (space == .linear ? Self.linearSums8 : Self.unitSums8).convert(src, channels: 3, into: destination, count: width)
                return
            }
            let table = space == .linear ? SRGB.decode8 : Self.unit8
            table.withUnsafeBufferPointer { lut in
                Self.decodeLoop(src, destination, width, channels, colourChannels, alphaIndex, 1 / 255, lut)
            }
        } else {
            let src = source.assumingMemoryBound(to: UInt16.self)
            if space == .linear {
                SRGB.decode16.withUnsafeBufferPointer { lut in
                    Self.decodeLoop(src, destination, width, channels, colourChannels, alphaIndex, 1 / 65535, lut)
                }
            } else {
                Self.decodeLoop(src, destination, width, channels, colourChannels, alphaIndex, 1 / 65535, nil)
            }
        }
    }

    /// 8-bit codes as unit floats, for the sRGB working space.
    private static let unit8: [Float] = (0..<256).map { Float($0) / 255 }

    /// The working value of each 8-bit colour code in `space`: what `decode` gives an opaque sample.
    package static func table8(_ space: WorkingSpace) -> [Float] { space == .linear ? SRGB.decode8 : unit8 }

    private static let linearSums8 = ChannelSumTable(curve: SRGB.decode8)
    private static let unitSums8 = ChannelSumTable(curve: unit8)

    @inline(__always)
    private static func decodeLoop<T: FixedWidthInteger>(
        _ src: UnsafePointer<T>, _ dst: UnsafeMutablePointer<Float>, _ width: Int, _ channels: Int,
        _ colourChannels: Int, _ alphaIndex: Int, _ scale: Float, _ lut: UnsafeBufferPointer<Float>?
    ) {
        for x in 0..<width {
            let p = src + x * channels
            let a: Float = alphaIndex >= 0 ? Float(p[alphaIndex]) * scale : 1
            var v: SIMD4<Float>
            if colourChannels == 1 {
                let g = lut.map { $0[Int(p[0])] } ?? Float(p[0]) * scale
                v = SIMD4(g, g, g, 1)
            } else if let lut {
                v = SIMD4(lut[Int(p[0])], lut[Int(p[1])], lut[Int(p[2])], 1)
            } else {
                v = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 65535) * scale
            }
            v *= a
            v[3] = a
            (dst + x * 4).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = v }
        }
    }

    /// Writes `width` working pixels from `source` as this format at `destination`: unpremultiplies, clamps to
    /// [0, 1], encodes and rounds to nearest.
    package func encode(_ source: UnsafePointer<Float>, into destination: UnsafeMutableRawPointer, width: Int) {
        if format == .rgba32f {
            destination.assumingMemoryBound(to: Float.self).update(from: source, count: width * 4)
            return
        }
        let channels = format.channels
        if format.bytesPerSample == 1 && space == .linear {
            encodeLinear8(source, into: destination.assumingMemoryBound(to: UInt8.self), width: width)
            return
        }
        if format.bytesPerSample == 1 && space == .srgb {
            encodeDirect8(source, into: destination.assumingMemoryBound(to: UInt8.self), width: width)
            return
        }
        let maxCode: Float = format.bytesPerSample == 1 ? 255 : 65535
        let linear = space == .linear
        SRGB.encodeTable.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            @inline(__always) func code(_ value: Float) -> Float {
                let encoded = linear ? SRGB.encode(value, table: lut) : (value > 0 ? (value < 1 ? value : 1) : 0)
                return encoded * maxCode + 0.5
            }
            for x in 0..<width {
                let (straight, a) = Self.straightClamped(UnsafeRawPointer(source + x * 4).load(as: SIMD4<Float>.self))
                var samples = SIMD4<Float>()
                if channels <= 2 {
                    let y = 0.2126 * straight[0] + 0.7152 * straight[1] + 0.0722 * straight[2]
                    samples[0] = code(y)
                    samples[1] = a * maxCode + 0.5
                } else {
                    samples[0] = code(straight[0])
                    samples[1] = code(straight[1])
                    samples[2] = code(straight[2])
                    samples[3] = a * maxCode + 0.5
                }
                if maxCode == 255 {
                    let dst = destination.assumingMemoryBound(to: UInt8.self) + x * channels
                    for c in 0..<channels { dst[c] = UInt8(truncatingIfNeeded: Int32(samples[c])) }
                } else {
                    let dst = destination.assumingMemoryBound(to: UInt16.self) + x * channels
                    for c in 0..<channels { dst[c] = UInt16(truncatingIfNeeded: Int32(samples[c])) }
                }
            }
        }
    }
}

extension PixelConverter {
    /// Unpremultiplied colour and alpha of a working pixel, each clamped to [0, 1] after dividing by the unclamped
    /// alpha, so an alpha overshoot (a sharpened or ringing alpha edge) keeps its colour (the alpha lane of the
    /// colour is not used).
    @inline(__always)
    static func straightClamped(_ v: SIMD4<Float>) -> (SIMD4<Float>, Float) {
        var straight = v[3] > 0 ? v / v[3] : SIMD4<Float>(repeating: 0)
        let a = v[3] > 0 ? (v[3] < 1 ? v[3] : 1) : 0
        straight = straight.replacing(with: 0, where: .!(straight .>= 0))  // NaN too: a table index must be defined
        straight = straight.replacing(with: 1, where: straight .> 1)
        return (straight, a)
    }

    /// 8-bit samples from values already encoded (the sRGB working space): scale and round, no table (in C, the
    /// arithmetic of `straightClamped` and the rounding above, step for step).
    private func encodeDirect8(_ source: UnsafePointer<Float>, into dst: UnsafeMutablePointer<UInt8>, width: Int) {
        fr_encode8(dst, source, width, Int32(format.channels), nil, nil, 0)
    }

    /// The common case (8-bit samples from linear values) through a direct code table.
    private func encodeLinear8(_ source: UnsafePointer<Float>, into dst: UnsafeMutablePointer<UInt8>, width: Int) {
        SRGB.encode8.withUnsafeBufferPointer { table in
            SRGB.encode8Words.withUnsafeBufferPointer { words in
                fr_encode8(dst, source, width, Int32(format.channels), table.baseAddress, words.baseAddress,
                           Float(SRGB.encodeSteps))
            }
        }
    }
}

extension PixelBuffer {
    /// Converts the whole buffer to working values (rgba32f), in parallel over rows.
    package func workingCopy(space: WorkingSpace) throws -> PixelBuffer {
        guard format != .rgba16f else {
            throw PixelBuffer.LayoutError(description: "rgba16f buffers are converted on the device")
        }
        let result = PixelBuffer(width: width, height: height, format: .rgba32f, ledger: ledger)
        let converter = PixelConverter(format: format, space: space)
        let source = try hostBytes()
        let destination = try result.mutableHostBytes()
        WorkerPool.forEachChunk(0..<height, minChunk: 16) { rows in
            for y in rows {
                converter.decode(source + y * rowStride,
                                 into: (destination + y * result.rowStride).assumingMemoryBound(to: Float.self),
                                 width: width)
            }
        }
        return result
    }

    /// Converts working values (rgba32f) to `format`, in parallel over rows.
    package func converted(to format: PixelFormat, space: WorkingSpace) throws -> PixelBuffer {
        guard self.format == .rgba32f, !format.isFloat || format == .rgba32f else {
            throw PixelBuffer.LayoutError(description: "only working buffers (rgba32f) convert, to integer formats or rgba32f")
        }
        let result = PixelBuffer(width: width, height: height, format: format, ledger: ledger)
        let converter = PixelConverter(format: format, space: space)
        let source = try hostBytes()
        let destination = try result.mutableHostBytes()
        WorkerPool.forEachChunk(0..<height, minChunk: 16) { rows in
            for y in rows {
                converter.encode((source + y * rowStride).assumingMemoryBound(to: Float.self),
                                 into: destination + y * result.rowStride, width: width)
            }
        }
        return result
    }
}
