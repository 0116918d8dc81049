extension PixelBuffer {
    /// Multiplies colour by alpha in place (rgba32f only), in parallel over rows.
    package func premultiply() throws {
        try forEachWorkingPixel { v in
            let a = v[3]
            v *= a
            v[3] = a
        }
    }

    /// Divides colour by alpha in place (rgba32f only); fully transparent pixels become transparent black.
    package func unpremultiply() throws {
        try forEachWorkingPixel { v in
            let a = v[3]
            v = a > 0 ? v / a : SIMD4<Float>(repeating: 0)
            v[3] = a
        }
    }

    @inline(__always)
    private func forEachWorkingPixel(_ body: (inout SIMD4<Float>) -> Void) throws {
        precondition(format == .rgba32f, "premultiplication applies to working buffers")
        let base = try mutableHostBytes()
        let stride = rowStride
        let width = width
        WorkerPool.forEachChunk(0..<height, minChunk: 16) { rows in
            for y in rows {
                let row = (base + y * stride).assumingMemoryBound(to: SIMD4<Float>.self)
                for x in 0..<width { body(&row[x]) }
            }
        }
    }
}
