/// How `resize` reconciles a width×height box with the input's aspect ratio: sharp's `fit` definitions (after CSS
/// `object-fit`), its `withoutEnlargement`, and where a cover crop or a contain box places the image.
package enum ResizeFit: String, CaseIterable, Sendable {
    /// Both sizes exactly, the aspect ratio ignored.
    case fill
    /// The aspect kept, scaled to fit inside the box, the rest of the box filled with the background.
    case contain
    /// The aspect kept, scaled to cover the box, the overflow cropped away.
    case cover
    /// The aspect kept, as large as fits inside the box (the output may be smaller on one axis).
    case inside
    /// The aspect kept, as small as covers the box (the output may be larger on one axis).
    case outside
}

/// Where a cover crop keeps, or a contain box places, the image: the centre or a compass point; `attention` and
/// `entropy` (cover only) look at the pixels (`CropStrategy`).
package enum ResizePosition: String, CaseIterable, Sendable {
    case centre, north, northeast, east, southeast, south, southwest, west, northwest, attention, entropy

    package var strategy: CropStrategy? { CropStrategy(rawValue: rawValue) }

    /// The offset along an axis of `excess` pixels (what a crop cuts or a box adds): 0 at the west or north edge,
    /// all of it at the east or south edge, half (rounded down) otherwise.
    package func offset(excess: Int, horizontal: Bool) -> Int {
        let (start, end) = edges(horizontal: horizontal)
        return start ? 0 : end ? excess : excess / 2
    }

    /// Whether this position sits against the start (west, north) or the end (east, south) of an axis; neither
    /// for a centred one.
    package func edges(horizontal: Bool) -> (start: Bool, end: Bool) {
        horizontal ? (rawValue.hasSuffix("west"), rawValue.hasSuffix("east"))
                   : (rawValue.hasPrefix("north"), rawValue.hasPrefix("south"))
    }
}

/// Sizes a resize produces: the resample's output, then the node's (after the cover crop or contain box).
package struct ResizeSizes: Equatable, Sendable {
    package var scaledWidth: Int, scaledHeight: Int
    package var width: Int, height: Int

    /// `scale` > 0, or `width` and/or `height` > 0 (one alone keeps the aspect whatever `fit` says). The factor on
    /// each axis is target ÷ input (the smaller of the two for cover and outside, the larger for contain and inside,
    /// each its own for fill); `withoutEnlargement` caps it at 1; an axis is never scaled below one pixel. Scaled
    /// sizes round to the nearest pixel.
    package init(inWidth w: Int, inHeight h: Int, scale: Double, width tw: Int, height th: Int, fit: ResizeFit,
                 withoutEnlargement: Bool) {
        // A factor kept as a ratio so that sizes round exactly as `in · target / input` does.
        typealias Factor = (num: Double, den: Double)
        var fx: Factor, fy: Factor
        if scale > 0 {
            fx = (scale, 1); fy = fx
        } else if tw > 0 && th > 0 {
            fx = (Double(tw), Double(w)); fy = (Double(th), Double(h))
            let xSmaller = fx.num * fy.den < fy.num * fx.den
            switch fit {
            case .fill: break
            case .cover, .outside: if xSmaller { fx = fy } else { fy = fx }
            case .contain, .inside: if xSmaller { fy = fx } else { fx = fy }
            }
        } else if tw > 0 {
            fx = (Double(tw), Double(w)); fy = fx
        } else {
            fy = (Double(th), Double(h)); fx = fy
        }
        if withoutEnlargement {
            if fx.num > fx.den { fx = (1, 1) }
            if fy.num > fy.den { fy = (1, 1) }
        }
        scaledWidth = max(1, Int((Double(w) * fx.num / fx.den).rounded()))
        scaledHeight = max(1, Int((Double(h) * fy.num / fy.den).rounded()))
        width = scaledWidth
        height = scaledHeight
        guard scale == 0, tw > 0, th > 0 else { return }
        switch fit {
        case .cover: width = min(tw, scaledWidth); height = min(th, scaledHeight)
        case .contain: width = max(tw, scaledWidth); height = max(th, scaledHeight)
        case .fill, .inside, .outside: break
        }
    }
}
