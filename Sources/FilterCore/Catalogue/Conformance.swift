/// What each filter conforms to, how it treats edges and alpha, and which tests check it: printed by
/// `filterrun list ID` and published as docs/CONFORMANCE.md (a test keeps that file current).
public struct Conformance: Sendable {
    /// The published definition followed, or "own definition" with the formula in the catalogue.
    public let standard: String
    /// What the filter reads outside the image.
    public let edges: String
    /// What the filter does with transparency.
    public let alpha: String
    /// Tests that check the filter beyond the sweep every filter gets (float64 reference, CPU against Vulkan,
    /// banding).
    public let tests: [String]
}

extension FilterID {
    public var conformance: Conformance {
        let straight = "acts on straight (unpremultiplied) colour; alpha kept"
        let perPixel = "none (per pixel)"
        let replicate = "replicate the edge pixel (OpenCV BORDER_REPLICATE)"
        let premultiplied = "works on premultiplied RGBA, so transparent pixels never darken edges"
        let moves = "moves premultiplied pixels exactly"
        func c(_ standard: String, _ edges: String, _ alpha: String, _ tests: [String] = []) -> Conformance {
            Conformance(standard: standard, edges: edges, alpha: alpha, tests: tests)
        }
        switch self {
        case .exposure: return c("Core Image CIExposureAdjust (v·2^ev)", perPixel, straight)
        case .colorControls: return c("Core Image CIColorControls (Rec. 709 luma)", perPixel, straight)
        case .gamma: return c("Core Image CIGammaAdjust (sign kept below 0)", perPixel, straight)
        case .hueRotate: return c("W3C Filter Effects 1, hue-rotate matrix", perPixel, straight)
        case .vibrance: return c("own definition (saturation weighted by 1 − spread)", perPixel, straight)
        case .temperatureTint: return c("own definition (linear channel gains)", perPixel, straight)
        case .colorMatrix: return c("W3C Filter Effects 1, feColorMatrix type=\"matrix\" (4×5 on straight RGBA)", perPixel,
                                    "alpha row of the matrix applies")
        case .levels: return c("Photoshop-style levels (input range, gamma, output range); clamps to the output range",
                               perPixel, straight)
        case .curves: return c("monotone cubic tone curves (Fritsch–Carlson)", perPixel, straight)
        case .invert: return c("W3C Filter Effects 1, invert(1)", perPixel, straight)
        case .grayscale: return c("W3C Filter Effects 1, grayscale(1) (Rec. 709 luma)", perPixel, straight)
        case .sepia: return c("W3C Filter Effects 1, sepia() matrix", perPixel, straight)
        case .threshold: return c("own definition (Rec. 709 luma ≥ level)", perPixel, straight)
        case .posterize: return c("Core Image CIColorPosterize", perPixel, straight)
        case .opacity: return c("W3C Filter Effects 1, opacity()", perPixel, "multiplies alpha")
        case .lut: return c("Adobe Cube LUT Specification 1.0 (.cube, 1D and 3D, DOMAIN_MIN/MAX); tetrahedral or trilinear",
                            perPixel, straight, ["LUTTests"])
        case .monochrome: return c("own definition (Rec. 709 luminance × the tint, as CIColorMonochrome's intent)", perPixel, straight)
        case .autoLevels: return c("Photoshop-style auto levels (percentile clipping; per channel or together)", perPixel, straight,
                                   ["AutoLevelsTests"])
        case .whitePoint: return c("chromatic adaptation with Bradford's cone matrix (ICC v4 / Lindbloom), in linear light",
                                   perPixel, straight, ["WhitePointTests"])
        case .vignette: return c("own definition (quadratic fall-off over the half-diagonal)", perPixel, straight)
        case .clamp: return c("the clamp CSS and SVG filter chains apply after every step", perPixel,
                              "clamps straight colour and alpha", ["ConventionTests.testClampBetweenStepsGivesTheCSSChain"])
        case .gaussianBlur: return c("OpenCV GaussianBlur (taps to ⌈3σ⌉, normalised)", replicate, premultiplied,
                                     ["ConventionTests.testNeighbourhoodFiltersReplicateTheEdge"])
        case .boxBlur: return c("OpenCV blur (normalised box)", replicate, premultiplied)
        case .unsharpMask: return c("classic unsharp mask: v + amount·(v − GaussianBlur(v)) where |d| ≥ threshold", replicate,
                                    "sharpens straight colour against an alpha-weighted blur; alpha kept",
                                    ["AlphaEdgeTests.testUnsharpMaskKeepsFlatColourAndAlpha",
                                     "AlphaEdgeTests.testSharpeningACutOutDoesNotDarkenItsEdge"])
        case .sharpen: return c("own definition (luminance only, 3×3 binomial blur)", replicate, "adds to colour; alpha kept")
        case .convolve: return c("W3C Filter Effects 1, feConvolveMatrix (preserveAlpha, bias), kernel as OpenCV filter2D "
                                 + "(a correlation)", replicate,
                                 "preserveAlpha true (default): straight colour, alpha kept; false: premultiplied RGBA",
                                 ["AlphaEdgeTests.testConvolvePreservingAlphaKeepsFlatColourAndAlpha",
                                  "AlphaEdgeTests.testConvolvingPremultipliedChannelsKeepsFlatColour",
                                  "AlphaEdgeTests.testBiasIsAddedToStraightColour"])
        case .sobel: return c("OpenCV Sobel 3×3 on Rec. 709 luma, magnitude ÷ 4", replicate, "output opaque")
        case .median: return c("OpenCV medianBlur, per channel", replicate, "per premultiplied channel")
        case .dilate, .erode:
            return c("grey-level morphology with a flat element (Gonzalez & Woods 9.6; OpenCV dilate/erode with "
                     + "MORPH_RECT for the square)", "outside pixels left out (same as replicate)",
                     "per premultiplied channel", ["MorphologyTests"])
        case .motionBlur:
            return c("own definition after Core Image's CIMotionBlur: a box along the direction, bilinear samples",
                     replicate, premultiplied, ["LineBlurTests"])
        case .bilateral:
            return c("Tomasi & Manduchi 1998 (Euclidean range distance on premultiplied RGBA; OpenCV bilateralFilter "
                     + "uses L1 on BGR); separable: Pham & van Vliet 2005", "outside pixels left out",
                     premultiplied, ["BilateralTests"])
        case .noiseReduction:
            return c("own composition after Core Image's CINoiseReduction: W3C luminosity blend onto a gaussian blur, "
                     + "Tomasi & Manduchi's bilateral filter, the luminance sharpen", "as gaussianBlur, bilateral and sharpen",
                     "W3C compositing of the image onto its blur", ["NoiseReductionTests"])
        case .highlightsShadows, .localContrast:
            return c("own definition after Durand & Dorsey 2002 (base and detail; the base edge-aware at a shrunk scale), "
                     + "in the spirit of Core Image's CIHighlightShadowAdjust", "as resize and bilateral",
                     "straight colour scaled; alpha kept", ["LocalToneTests"])
        case .zoomBlur:
            return c("own definition after Core Image's CIZoomBlur: a box along the ray to the centre, bilinear samples",
                     replicate, premultiplied, ["LineBlurTests"])
        case .resize: return c("separable resampling: Keys bicubic a = −0.5 (Pillow), Lanczos-3, bilinear, nearest",
                               replicate, premultiplied + "; a contain box is the background colour",
                               ["ConventionTests.testNearestShrinkingSkipsPixels", "FitTests",
                                "SmartCropTests"])
        case .trim: return c("libvips find_trim / sharp trim (3×3 median, threshold in 8-bit codes)", "none", moves,
                             ["TrimTests"])
        case .crop, .flip, .transpose: return c("exact", "none", moves)
        case .pad: return c("exact", "the border colour", moves)
        case .rotate: return c("OpenCV warpAffine about the centres, BORDER_CONSTANT (pixel centres at i + ½); quarter turns exact",
                               "the background colour", premultiplied,
                               ["RotationTests", "BandingTests.testAffineResamplingIsBandedWhereItsWindowFits"])
        case .straighten: return c("rotate with canvas inside (OpenCV warpAffine about the centres)", "none: the canvas "
                                   + "stays inside the rotated image", premultiplied, ["RotationTests.testStraightenIsRotateInside"])
        case .affine: return c("OpenCV warpAffine, BORDER_CONSTANT (pixel centres at i + ½), kernel widened when shrinking",
                               "the background colour", premultiplied,
                               ["RotationTests", "BandingTests.testAffineResamplingIsBandedWhereItsWindowFits"])
        case .perspective: return c("OpenCV warpPerspective, BORDER_CONSTANT (pixel centres at i + ½); corners by Heckbert's "
                                    + "square-to-quad map; kernel widened by the local shrink (at most 16×)",
                                    "the background colour", premultiplied,
                                    ["PerspectiveTests", "BandingTests.testAffineResamplingIsBandedWhereItsWindowFits"])
        case .blend: return c("W3C Compositing and Blending 1: source-over with the §9 blend modes", "source transparent outside",
                              "W3C compositing of premultiplied colour")
        case .over: return c("Porter–Duff source-over", "source transparent outside", "premultiplied source-over")
        case .blendWithMask: return c("Core Image CIBlendWithMask (mask luminance × alpha)", "transparent outside", premultiplied)
        case .setAlpha: return c("own definition (the mask's stored grey level becomes alpha)", "transparent outside the mask",
                                 "multiplies alpha; colour kept")
        case .solidColor, .linearGradient, .radialGradient, .checkerboard:
            return c("own definition (colours interpolated in the working space)", "none", "colours as given")
        case .text: return c("pango-view (Pango with cairo, unhinted, subpixel positions, grey antialiasing): the same coverage", "transparent "
                             + "around the block", "colour × coverage, premultiplied", ["TextTests"])
        }
    }
}

package enum ConformanceTable {
    /// docs/CONFORMANCE.md.
    package static func markdown() -> String {
        var out = """
        # Conformance

        Generated from the catalogue (`FilterID.conformance`); regenerate with `filterrun conformance > docs/CONFORMANCE.md`.
        Every filter is also checked, at every swept parameter set and stored layout, against a float64 reference
        written from its standard (`FilterReferenceTests`), CPU against Vulkan (`CrossBackendTests`) and whole against
        banded on Vulkan (`BandingTests`). Conventions shared by all filters: docs/conventions.md.

        | filter | follows | edges | alpha | further tests |
        |---|---|---|---|---|

        """
        for id in FilterID.allCases {
            let c = id.conformance
            let tests = c.tests.isEmpty ? "—" : c.tests.map { "`\($0)`" }.joined(separator: ", ")
            out += "| `\(id.rawValue)` | \(c.standard) | \(c.edges) | \(c.alpha) | \(tests) |\n"
        }
        return out
    }
}
