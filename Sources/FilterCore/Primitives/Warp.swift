extension Primitives {
    /// Each output pixel samples the input at `map`(its centre), affine or projective (`WarpMap`).
    package struct Warp: PrimitiveDescriptor {
        package var map: WarpMap
        package var kernel: ResampleKernel
        package var background: RGBA
        package var summary: String { "\(kernel.rawValue) \(map.isAffine ? "affine" : "perspective") resample" }
        package func rowRule(_ shape: NodeShape) -> RowRule {
            let (map, kernel, width) = (self.map, self.kernel, shape.width)
            return .streamed("the rows its map reaches") { rows in
                let needed = map.inputRows(for: rows, outWidth: width, kernel: kernel)
                return needed.lo..<needed.hi
            }
        }
        package func taps(_ shape: NodeShape) -> Double { map.meanTaps(width: shape.width, height: shape.height, kernel: kernel) }
        /// With bilinear, bicubic or Lanczos-3 taps, a projective map, and an affine one that shrinks nowhere (a
        /// rotation, a shear, an enlargement), read 8-bit samples through a table: the band of input rows is held
        /// at 1–4 bytes a pixel.
        package var onSamples: SampleAction {
            let (map, kernel) = (self.map, self.kernel)
            return .readsThroughTable { format in
                guard format.depth == 8, !format.isFloat, kernel != .nearest else { return false }
                let scale = map.kernelScale
                return !map.isAffine || (scale.x < 1 + 1e-9 && scale.y < 1 + 1e-9)
            }
        }
        package func keepsNeutral(_ inputs: [Bool]) -> Bool { inputs[0] && background.isNeutral }
        /// A transparent background shows where the map reaches past the input (`WarpMap.covers`).
        package func mayHaveAlpha(_ inputs: [Bool], _ shape: NodeShape) -> Bool {
            inputs[0] || (background.a < 1 && !map.covers(outWidth: shape.width, outHeight: shape.height,
                                                          inWidth: shape.input.width, inHeight: shape.input.height,
                                                          kernel: kernel))
        }
        package func isIdentity(_ shape: NodeShape) -> Bool { false }
        package var amplifiesDifferences: Bool { false }
    }
}
