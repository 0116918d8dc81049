// Generated from the filter catalogue by CatalogueSwiftAPI.source(): one method per filter. Do not edit;
// re-record with `FILTERRECIPE_RECORD_API=1 swift test --filter GeneratedAPITests`.
import FilterCore

extension Image {
    /// Scales light by a power of two, as a camera's exposure does.
    ///
    /// Formula: RGB ↦ RGB·2^ev
    ///
    /// - Parameters:
    ///   - ev: Exposure change in stops; a number in -10...10, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func exposure(ev: Double = 0.0) throws -> Image {
        try applying(.exposure, ["ev": .number(ev)])
    }

    /// Brightness, contrast and saturation.
    ///
    /// Formula: RGB ↦ contrast·(mix(Y, RGB, saturation) − ½) + ½ + brightness; Y = Rec. 709 luminance
    ///
    /// - Parameters:
    ///   - brightness: Added to every channel; a number in -1...1, default 0.
    ///   - contrast: Scale about mid-grey (½); a number in 0...4, default 1.
    ///   - saturation: 0 grey, 1 unchanged, above 1 more colourful; a number in 0...4, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func colorControls(brightness: Double = 0.0, contrast: Double = 1.0, saturation: Double = 1.0) throws -> Image {
        try applying(.colorControls, ["brightness": .number(brightness), "contrast": .number(contrast), "saturation": .number(saturation)])
    }

    /// Raises each colour channel to a power.
    ///
    /// Formula: RGB ↦ sign(v)·|v|^power
    ///
    /// - Parameters:
    ///   - power: Exponent; below 1 brightens, above 1 darkens; a number in 0.01...10, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func gamma(power: Double = 1.0) throws -> Image {
        try applying(.gamma, ["power": .number(power)])
    }

    /// Rotates hues around the grey axis, keeping luminance.
    ///
    /// Formula: RGB ↦ M(θ)·RGB with the luminance-preserving hue matrix of the Filter Effects spec
    ///
    /// - Parameters:
    ///   - degrees: Rotation angle; a number in -360...360, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func hueRotate(degrees: Double = 0.0) throws -> Image {
        try applying(.hueRotate, ["degrees": .number(degrees)])
    }

    /// Raises saturation most where colours are muted.
    ///
    /// Formula: k = 1 + amount·(1 − clamp(max − min)); RGB ↦ Y + (RGB − Y)·k
    ///
    /// - Parameters:
    ///   - amount: Strength; negative mutes; a number in -1...1, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func vibrance(amount: Double = 0.0) throws -> Image {
        try applying(.vibrance, ["amount": .number(amount)])
    }

    /// Warms or cools (red against blue) and tints (green against magenta).
    ///
    /// Formula: R ↦ R·(1 + 0.3t), B ↦ B·(1 − 0.3t), G ↦ G·(1 − 0.3u); t = temperature/100, u = tint/100
    ///
    /// - Parameters:
    ///   - temperature: Positive warms, negative cools; a number in -100...100, default 0.
    ///   - tint: Positive towards magenta, negative towards green; a number in -100...100, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func temperatureTint(temperature: Double = 0.0, tint: Double = 0.0) throws -> Image {
        try applying(.temperatureTint, ["temperature": .number(temperature), "tint": .number(tint)])
    }

    /// Any affine colour transform: 4 rows (R, G, B, A) of 4 coefficients and an offset.
    ///
    /// Formula: out_r = Σ_c m[r][c]·in_c + m[r][4] on straight RGBA
    ///
    /// - Parameters:
    ///   - matrix: 20 numbers, row by row; a list of 20 numbers, default [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0].
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func colorMatrix(matrix: [Double] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]) throws -> Image {
        try applying(.colorMatrix, ["matrix": .numbers(matrix)])
    }

    /// Input and output black and white points with a midtone gamma.
    ///
    /// Formula: RGB ↦ outBlack + (outWhite − outBlack)·clamp((v − inBlack)/(inWhite − inBlack), 0, 1)^(1/gamma)
    ///
    /// - Parameters:
    ///   - inBlack: Input value mapped to outBlack; a number in 0...1, default 0.
    ///   - inWhite: Input value mapped to outWhite; a number in 0...1, default 1.
    ///   - gamma: Midtone gamma; above 1 brightens; a number in 0.01...10, default 1.
    ///   - outBlack: Darkest output; a number in 0...1, default 0.
    ///   - outWhite: Brightest output; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func levels(inBlack: Double = 0.0, inWhite: Double = 1.0, gamma: Double = 1.0, outBlack: Double = 0.0, outWhite: Double = 1.0) throws -> Image {
        try applying(.levels, ["inBlack": .number(inBlack), "inWhite": .number(inWhite), "gamma": .number(gamma), "outBlack": .number(outBlack), "outWhite": .number(outWhite)])
    }

    /// Tone curves through control points (monotone cubic), master and per channel.
    ///
    /// Formula: RGB ↦ master(channel_c(v)); curves are Fritsch–Carlson monotone cubics, flat outside their points
    ///
    /// - Parameters:
    ///   - points: Master curve; a list of at least 2 [x, y] points in 0...1 with increasing x, default [(0, 0), (1, 1)].
    ///   - red: Red curve (empty: identity); a list of at least 0 [x, y] points in 0...1 with increasing x, default [].
    ///   - green: Green curve (empty: identity); a list of at least 0 [x, y] points in 0...1 with increasing x, default [].
    ///   - blue: Blue curve (empty: identity); a list of at least 0 [x, y] points in 0...1 with increasing x, default [].
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func curves(points: [(x: Double, y: Double)] = [(0.0, 0.0), (1.0, 1.0)], red: [(x: Double, y: Double)] = [], green: [(x: Double, y: Double)] = [], blue: [(x: Double, y: Double)] = []) throws -> Image {
        try applying(.curves, ["points": .points(points.map { [$0.x, $0.y] }), "red": .points(red.map { [$0.x, $0.y] }), "green": .points(green.map { [$0.x, $0.y] }), "blue": .points(blue.map { [$0.x, $0.y] })])
    }

    /// Negative image.
    ///
    /// Formula: RGB ↦ 1 − RGB
    ///
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func invert() throws -> Image {
        try applying(.invert, [:])
    }

    /// Luminance only.
    ///
    /// Formula: RGB ↦ Y = 0.2126R + 0.7152G + 0.0722B
    ///
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func grayscale() throws -> Image {
        try applying(.grayscale, [:])
    }

    /// Warm brown monochrome.
    ///
    /// Formula: RGB ↦ mix(RGB, S·RGB, intensity), S the classic sepia matrix
    ///
    /// - Parameters:
    ///   - intensity: 0 unchanged, 1 full sepia; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func sepia(intensity: Double = 1.0) throws -> Image {
        try applying(.sepia, ["intensity": .number(intensity)])
    }

    /// Black and white by luminance.
    ///
    /// Formula: RGB ↦ Y ≥ level ? 1 : 0
    ///
    /// - Parameters:
    ///   - level: Luminance at which white starts; a number in 0...1, default 0.5.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func threshold(level: Double = 0.5) throws -> Image {
        try applying(.threshold, ["level": .number(level)])
    }

    /// Reduces each channel to a few levels.
    ///
    /// Formula: v ↦ round(clamp(v, 0, 1)·(levels − 1))/(levels − 1)
    ///
    /// - Parameters:
    ///   - levels: Levels per channel; an integer in 2...256, default 4.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func posterize(levels: Int = 4) throws -> Image {
        try applying(.posterize, ["levels": .number(Double(levels))])
    }

    /// Makes the image more transparent.
    ///
    /// Formula: A ↦ A·amount
    ///
    /// - Parameters:
    ///   - amount: Alpha multiplier; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func opacity(amount: Double = 1.0) throws -> Image {
        try applying(.opacity, ["amount": .number(amount)])
    }

    /// Darkens towards the corners.
    ///
    /// Formula: RGB ↦ RGB·(1 − intensity·min(d/radius, 1)²), d = distance of the pixel centre from the image centre / half-diagonal
    ///
    /// - Parameters:
    ///   - radius: Distance (in half-diagonals) of full darkening; a number in 0.01...2, default 1.
    ///   - intensity: Darkening at and beyond the radius; a number in 0...1, default 0.5.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func vignette(radius: Double = 1.0, intensity: Double = 0.5) throws -> Image {
        try applying(.vignette, ["radius": .number(radius), "intensity": .number(intensity)])
    }

    /// Clamps colour to a range (as CSS and SVG filter chains do after every step).
    ///
    /// Formula: RGB ↦ min(max(v, min), max) on straight colour, A ↦ min(max(A, 0), 1); intermediates are otherwise never clamped between steps, so put clamp between two steps to reproduce a CSS filter chain
    ///
    /// - Parameters:
    ///   - min: Lowest value kept; a number in 0...1, default 0.
    ///   - max: Highest value kept; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func clamp(min: Double = 0.0, max: Double = 1.0) throws -> Image {
        try applying(.clamp, ["min": .number(min), "max": .number(max)])
    }

    /// Applies a look from an Adobe/Resolve .cube colour lookup table (1D or 3D) or a Hald CLUT image.
    ///
    /// Formula: RGB ↦ mix(v, LUT(v), strength), v the colour in the LUT's space (sRGB-encoded by default) clamped to its DOMAIN_MIN…DOMAIN_MAX; 3D tables interpolate tetrahedrally (six tetrahedra along the grey diagonal) or trilinearly, 1D tables linearly per channel (Adobe Cube LUT Specification 1.0); a Hald CLUT PNG of level L holds a 3D table of size L², its pixels in row order, red fastest
    ///
    /// - Parameters:
    ///   - path: The .cube file (LUT_3D_SIZE up to 65, LUT_1D_SIZE up to 65536) or Hald CLUT PNG (level 2…8); the path of a .cube or .png file (relative to the recipe's folder).
    ///   - interpolation: How a 3D table is read between its grid points; one of "tetrahedral", "trilinear", default "tetrahedral".
    ///   - strength: 0 unchanged, 1 the full look; a number in 0...1, default 1.
    ///   - space: The values the table expects: sRGB-encoded (grading tools' looks) or linear; one of "srgb", "linear", default "srgb".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func lut(path: String, interpolation: LutInterpolation = .tetrahedral, strength: Double = 1.0, space: LutSpace = .srgb) throws -> Image {
        try applying(.lut, ["path": .string(path), "interpolation": .string(interpolation.rawValue), "strength": .number(strength), "space": .string(space.rawValue)])
    }

    /// Shades of one colour, from the luminance.
    ///
    /// Formula: RGB ↦ mix(RGB, Y·C, intensity), Y = 0.2126R + 0.7152G + 0.0722B, C the colour (what white becomes) in the working space
    ///
    /// - Parameters:
    ///   - color: What white becomes; darker tones are shades of it; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0.72, 0.6, 0.45, 1).
    ///   - intensity: 0 unchanged, 1 fully tinted; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func monochrome(color: RGBA = RGBA(0.72, 0.6, 0.45, 1.0), intensity: Double = 1.0) throws -> Image {
        try applying(.monochrome, ["color": .color(color), "intensity": .number(intensity)])
    }

    /// Stretches the tones to the full range, from the image's own histogram.
    ///
    /// Formula: lo and hi the clipLow and clipHigh percentiles of the 8-bit sRGB-encoded histogram of each channel (measured on a render of the input at up to 1024 px); together: the lowest lo and highest hi of the three for every channel (the colour balance kept), perChannel: each its own (a cast neutralised); RGB ↦ clamp((v − lo)/(hi − lo), 0, 1) with lo and hi in the working space; unchanged where hi ≤ lo
    ///
    /// - Parameters:
    ///   - clipLow: Percent of the pixels that may turn black; a number in 0...50, default 0.5.
    ///   - clipHigh: Percent of the pixels that may turn white; a number in 0...50, default 0.5.
    ///   - perChannel: Stretch red, green and blue each to its own range; true or false, default false.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func autoLevels(clipLow: Double = 0.5, clipHigh: Double = 0.5, perChannel: Bool = false) throws -> Image {
        try applying(.autoLevels, ["clipLow": .number(clipLow), "clipHigh": .number(clipHigh), "perChannel": .boolean(perChannel)])
    }

    /// Neutralises a colour cast: a picked colour becomes grey (Bradford adaptation).
    ///
    /// Formula: in linear light, RGB ↦ mix(RGB, M·RGB, strength), M = XYZ→RGB · B⁻¹ · diag(B·W_D65 ⁄ B·W_c) · B · RGB→XYZ with B Bradford's matrix and W_c the picked colour's XYZ scaled to Y = 1: the colour becomes the neutral grey of its own luminance, white stays white for a white pick (sRGB working space: decoded first, encoded after)
    ///
    /// - Parameters:
    ///   - color: The colour that should be neutral (a grey card, a white wall); a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    ///   - strength: 0 unchanged, 1 fully neutralised; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func whitePoint(color: RGBA = RGBA(1.0, 1.0, 1.0, 1.0), strength: Double = 1.0) throws -> Image {
        try applying(.whitePoint, ["color": .color(color), "strength": .number(strength)])
    }

    /// Gaussian blur.
    ///
    /// Formula: separable convolution with exp(−x²/2σ²), normalised, taps out to ⌈3σ⌉; σ = 0 is the identity
    ///
    /// - Parameters:
    ///   - sigma: Standard deviation in pixels; a number in 0...500, default 2.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func gaussianBlur(sigma: Double = 2.0) throws -> Image {
        try applying(.gaussianBlur, ["sigma": .number(sigma)])
    }

    /// Mean over a square window.
    ///
    /// Formula: mean over the (2·radius + 1)² window
    ///
    /// - Parameters:
    ///   - radius: Half-width of the window in pixels; an integer in 0...500, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func boxBlur(radius: Int = 1) throws -> Image {
        try applying(.boxBlur, ["radius": .number(Double(radius))])
    }

    /// Sharpens by adding back the difference from a blurred copy.
    ///
    /// Formula: on straight colour C: d = C − C̃, C̃ the colour of the premultiplied gaussian_σ blur (alpha-weighted); C ↦ C + amount·d where |d| ≥ threshold; alpha unchanged
    ///
    /// - Parameters:
    ///   - sigma: Blur standard deviation in pixels; a number in 0...100, default 2.
    ///   - amount: Strength; a number in 0...10, default 1.
    ///   - threshold: Smallest difference that is sharpened; a number in 0...1, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func unsharpMask(sigma: Double = 2.0, amount: Double = 1.0, threshold: Double = 0.0) throws -> Image {
        try applying(.unsharpMask, ["sigma": .number(sigma), "amount": .number(amount), "threshold": .number(threshold)])
    }

    /// Sharpens luminance only, leaving colour edges alone.
    ///
    /// Formula: RGB ↦ RGB + amount·(Y − blur₃ₓ₃(Y)), blur₃ₓ₃ = [1 2 1]ᵀ[1 2 1]/16
    ///
    /// - Parameters:
    ///   - amount: Strength; a number in 0...10, default 0.5.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func sharpen(amount: Double = 0.5) throws -> Image {
        try applying(.sharpen, ["amount": .number(amount)])
    }

    /// Convolution with any odd square kernel up to 9×9.
    ///
    /// Formula: v ↦ Σ k[j][i]·v(x + i − r, y + j − r) (÷ Σk when normalize and Σk ≠ 0), a correlation as OpenCV's filter2D (W3C feConvolveMatrix flips the kernel); W3C preserveAlpha: true convolves straight RGB and keeps alpha, false convolves premultiplied RGBA; bias is added to straight colour
    ///
    /// - Parameters:
    ///   - kernel: Weights row by row (1, 9, 25, 49 or 81); a list of 1 or 9 or 25 or 49 or 81 numbers, default [0, 0, 0, 0, 1, 0, 0, 0, 0].
    ///   - normalize: Divide by the sum of the weights when it is not 0; true or false, default true.
    ///   - bias: Added to every colour channel; a number in -1...1, default 0.
    ///   - preserveAlpha: Convolve straight colour and keep alpha (W3C true); false convolves all four premultiplied channels; true or false, default true.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func convolve(kernel: [Double] = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], normalize: Bool = true, bias: Double = 0.0, preserveAlpha: Bool = true) throws -> Image {
        try applying(.convolve, ["kernel": .numbers(kernel), "normalize": .boolean(normalize), "bias": .number(bias), "preserveAlpha": .boolean(preserveAlpha)])
    }

    /// Edge strength: gradient magnitude of luminance.
    ///
    /// Formula: RGB ↦ √(Gx² + Gy²)/4 with 3×3 Sobel kernels on Y, so a full 0→1 step gives 1; alpha 1
    ///
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func sobel() throws -> Image {
        try applying(.sobel, [:])
    }

    /// Median per channel: removes speckle while keeping edges.
    ///
    /// Formula: each channel ↦ median of the (2·radius + 1)² window
    ///
    /// - Parameters:
    ///   - radius: Half-width of the window; an integer in 1...3, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func median(radius: Int = 1) throws -> Image {
        try applying(.median, ["radius": .number(Double(radius))])
    }

    /// Grows light areas and shrinks dark ones: each channel's maximum over a square or disc.
    ///
    /// Formula: each premultiplied channel ↦ max over the element: the (2·radius + 1)² square, or the disc of pixels within radius of the centre (dx² + dy² ≤ radius²); pixels outside the image are left out
    ///
    /// - Parameters:
    ///   - radius: Half-width of the element in pixels; an integer in 1...50, default 1.
    ///   - shape: Structuring element; one of "square", "disc", default "square".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func dilate(radius: Int = 1, shape: DilateShape = .square) throws -> Image {
        try applying(.dilate, ["radius": .number(Double(radius)), "shape": .string(shape.rawValue)])
    }

    /// Grows dark areas and shrinks light ones: each channel's minimum over a square or disc.
    ///
    /// Formula: each premultiplied channel ↦ min over the element: the (2·radius + 1)² square, or the disc of pixels within radius of the centre (dx² + dy² ≤ radius²); pixels outside the image are left out
    ///
    /// - Parameters:
    ///   - radius: Half-width of the element in pixels; an integer in 1...50, default 1.
    ///   - shape: Structuring element; one of "square", "disc", default "square".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func erode(radius: Int = 1, shape: ErodeShape = .square) throws -> Image {
        try applying(.erode, ["radius": .number(Double(radius)), "shape": .string(shape.rawValue)])
    }

    /// Streaks along a direction, as a camera moving during the exposure.
    ///
    /// Formula: the mean of 2⌈radius⌉ + 1 bilinear samples (premultiplied, taps clamped to the edge) evenly spaced from p − radius·(cos θ, −sin θ) to p + radius·(cos θ, −sin θ), θ = angle counter-clockwise from the +x axis
    ///
    /// - Parameters:
    ///   - radius: Half the streak's length in pixels; a number in 0...200, default 10.
    ///   - angle: Direction in degrees, counter-clockwise from horizontal; a number in -360...360, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func motionBlur(radius: Double = 10.0, angle: Double = 0.0) throws -> Image {
        try applying(.motionBlur, ["radius": .number(radius), "angle": .number(angle)])
    }

    /// Streaks away from a centre, as a camera zooming during the exposure.
    ///
    /// Formula: the mean of n = 1 + ⌈s·|p − c|⌉ bilinear samples (premultiplied, taps clamped to the edge) evenly spaced from p to p − s·(p − c), c = (centerX·width − ½, centerY·height − ½) in pixel indices, s = min(1, amount ÷ half the diagonal): a streak amount pixels long at a centred zoom's corners
    ///
    /// - Parameters:
    ///   - amount: Streak length in pixels at the corners (half the diagonal from the centre); a number in 0...500, default 20.
    ///   - centerX: Centre as a fraction of the width; a number in 0...1, default 0.5.
    ///   - centerY: Centre as a fraction of the height; a number in 0...1, default 0.5.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func zoomBlur(amount: Double = 20.0, centerX: Double = 0.5, centerY: Double = 0.5) throws -> Image {
        try applying(.zoomBlur, ["amount": .number(amount), "centerX": .number(centerX), "centerY": .number(centerY)])
    }

    /// Smooths while keeping edges: neighbours weighted by distance and by likeness.
    ///
    /// Formula: v ↦ Σ w·v(q) / Σ w over |p − q| ≤ ⌈2σs⌉, w = exp(−|p − q|²/2σs²)·exp(−‖v(q) − v(p)‖²/2σr²) on premultiplied RGBA working values (Tomasi & Manduchi 1998); neighbours outside the image are left out; separable: the same weights along x, then along y on that result (Pham & van Vliet 2005), much faster and close to exact (at σr 0.1 on photos: mean difference ≤ 2 codes, 99th percentile ≤ 8; BilateralTests)
    ///
    /// - Parameters:
    ///   - sigmaSpatial: Spatial standard deviation in pixels (the window reaches 2σ); a number in 0.5...20, default 2.
    ///   - sigmaRange: How different a neighbour may be and still count (working values 0…1); a number in 0.01...1, default 0.1.
    ///   - method: exact: the definition; separable: two 1D passes; one of "exact", "separable", default "exact".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func bilateral(sigmaSpatial: Double = 2.0, sigmaRange: Double = 0.1, method: BilateralMethod = .exact) throws -> Image {
        try applying(.bilateral, ["sigmaSpatial": .number(sigmaSpatial), "sigmaRange": .number(sigmaRange), "method": .string(method.rawValue)])
    }

    /// Removes colour blotches and luminance grain, then restores crispness.
    ///
    /// Formula: in order, each step skipped at 0: colour — the W3C luminosity blend of the image onto its gaussian blur of σ = 4·color (chroma from the blur, luminance Lum = 0.3R + 0.59G + 0.11B from the image); luminance — the exact bilateral filter with σs = 1 + luminance, σr = 0.02 + 0.08·luminance; sharpness — RGB + sharpness·(Y − blur₃ₓ₃(Y)) as sharpen (after Core Image's CINoiseReduction: smoothing, then sharpening); meant for opaque photos (alpha composes as the blend's)
    ///
    /// - Parameters:
    ///   - luminance: Grain smoothing: edges are kept; a number in 0...1, default 0.4.
    ///   - color: Colour blotch smoothing: luminance detail is kept; a number in 0...1, default 0.5.
    ///   - sharpness: Luminance sharpening after the smoothing; a number in 0...2, default 0.3.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func noiseReduction(luminance: Double = 0.4, color: Double = 0.5, sharpness: Double = 0.3) throws -> Image {
        try applying(.noiseReduction, ["luminance": .number(luminance), "color": .number(color), "sharpness": .number(sharpness)])
    }

    /// Opens shadows and recovers highlights by their surroundings, keeping texture.
    ///
    /// Formula: ℓ' = b₂ + (ℓ − b), b₁ = b + shadows·(27/16)·b(1 − b)², b₂ = b₁ − highlights·(27/16)·b₁²(1 − b₁); ℓ = sRGB-encode(Y) of straight colour; base b = ℓ shrunk by f = max(1, ⌊radius/4⌋) (bilinear), bilateral-smoothed (separable, σs = radius/f, σr = 0.1) and enlarged back (bilinear), clamped to [0, 1]; RGB scaled by Y'/Y with Y' = sRGB-decode(max(ℓ', 0)) (black becomes the grey Y'); alpha kept
    ///
    /// - Parameters:
    ///   - shadows: How far dark areas are lifted (at most a quarter of the range); a number in 0...1, default 0.3.
    ///   - highlights: How far bright areas are brought down; a number in 0...1, default 0.3.
    ///   - radius: Size in pixels of what counts as an area; a number in 4...200, default 30.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func highlightsShadows(shadows: Double = 0.3, highlights: Double = 0.3, radius: Double = 30.0) throws -> Image {
        try applying(.highlightsShadows, ["shadows": .number(shadows), "highlights": .number(highlights), "radius": .number(radius)])
    }

    /// Clarity: strengthens (or softens) detail against an edge-aware base, without halos.
    ///
    /// Formula: ℓ' = b + (1 + amount)(ℓ − b); ℓ = sRGB-encode(Y) of straight colour; base b = ℓ shrunk by f = max(1, ⌊radius/4⌋) (bilinear), bilateral-smoothed (separable, σs = radius/f, σr = 0.1) and enlarged back (bilinear), clamped to [0, 1]; RGB scaled by Y'/Y with Y' = sRGB-decode(max(ℓ', 0)) (black becomes the grey Y'); alpha kept
    ///
    /// - Parameters:
    ///   - amount: Detail gain: 0 unchanged, negative softens; a number in -1...2, default 0.3.
    ///   - radius: Size in pixels of the detail that is strengthened; a number in 4...200, default 30.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func localContrast(amount: Double = 0.3, radius: Double = 30.0) throws -> Image {
        try applying(.localContrast, ["amount": .number(amount), "radius": .number(radius)])
    }

    /// Resamples to a new size; fits a box by stretching, cropping (smart crops too) or letterboxing.
    ///
    /// Formula: separable resampling, sample centres at (i + ½)·in/out − ½, kernel widened by the factor when shrinking; give scale, or width and/or height (one of them keeps the aspect ratio); with both, fit (sharp's definitions): fill stretches, inside/outside keep the aspect and scale to fit inside/cover the box, cover then crops to the box, contain then centres it on a box of background; position places the crop or the image (compass points; half the excess rounded down for the centre); attention (libvips 8.14 smartcrop) reduces the scaled image to 32×32, scores |5·Laplacian(Y)| + (where Y > 5) skin 100·(1 − |XYZ/‖XYZ‖ − (0.78, 0.57, 0.44)|) + a*, blurs with σ = max(window diagonal in cells ÷ 10, 1) and centres the crop on the peak's cell; entropy cuts the edge slice of least summed channel-histogram entropy (slices of an eighth of the excess) until the window is left, measured on the scaled image at up to 1024 px; withoutEnlargement caps the factor at 1
    ///
    /// - Parameters:
    ///   - scale: Factor for both axes (0: use width/height); a number in 0...100, default 0.
    ///   - width: Output width in pixels (0: from height or scale); an integer in 0...1000000, default 0.
    ///   - height: Output height in pixels (0: from width or scale); an integer in 0...1000000, default 0.
    ///   - kernel: Reconstruction kernel; one of "nearest", "bilinear", "bicubic", "lanczos3", default "lanczos3".
    ///   - fit: With width and height: fill stretches; contain letterboxes; cover crops; inside/outside keep the aspect; one of "fill", "contain", "cover", "inside", "outside", default "fill".
    ///   - position: What a cover crop keeps or where contain places the image; attention and entropy look at the pixels; one of "centre", "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", "attention", "entropy", default "centre".
    ///   - withoutEnlargement: Never scale up (the output may be smaller than asked); true or false, default false.
    ///   - background: Colour of a contain box around the image; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 0).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func resize(scale: Double = 0.0, width: Int = 0, height: Int = 0, kernel: ResampleKernel = .lanczos3, fit: ResizeFit = .fill, position: ResizePosition = .centre, withoutEnlargement: Bool = false, background: RGBA = RGBA(0.0, 0.0, 0.0, 0.0)) throws -> Image {
        try applying(.resize, ["scale": .number(scale), "width": .number(Double(width)), "height": .number(Double(height)), "kernel": .string(kernel.rawValue), "fit": .string(fit.rawValue), "position": .string(position.rawValue), "withoutEnlargement": .boolean(withoutEnlargement), "background": .color(background)])
    }

    /// Keeps a rectangle.
    ///
    /// Formula: out(x, y) = in(x + x₀, y + y₀); width/height 0 extend to the right/bottom edge
    ///
    /// - Parameters:
    ///   - x: Left edge; an integer in 0...1000000, default 0.
    ///   - y: Top edge; an integer in 0...1000000, default 0.
    ///   - width: Width (0: to the right edge); an integer in 0...1000000, default 0.
    ///   - height: Height (0: to the bottom edge); an integer in 0...1000000, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func crop(x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0) throws -> Image {
        try applying(.crop, ["x": .number(Double(x)), "y": .number(Double(y)), "width": .number(Double(width)), "height": .number(Double(height))])
    }

    /// Crops away a border of near-uniform colour.
    ///
    /// Formula: the bounding box of the pixels whose 3×3 median differs from the background by more than threshold 8-bit codes in a channel of its sRGB-encoded colour premultiplied by alpha, or in alpha; the background is the top-left pixel's median, or background; the whole image when no pixel differs (libvips find_trim, sharp's trim); the box is found by a render of the input before the recipe runs
    ///
    /// - Parameters:
    ///   - threshold: Largest difference, in 8-bit codes, still taken for background; a number in 0...255, default 10.
    ///   - autoBackground: Take the background from the top-left pixel (false: background); true or false, default true.
    ///   - background: The background's colour when autoBackground is false; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func trim(threshold: Double = 10.0, autoBackground: Bool = true, background: RGBA = RGBA(1.0, 1.0, 1.0, 1.0)) throws -> Image {
        try applying(.trim, ["threshold": .number(threshold), "autoBackground": .boolean(autoBackground), "background": .color(background)])
    }

    /// Mirrors the image.
    ///
    /// Formula: horizontal: out(x, y) = in(w − 1 − x, y); vertical: out(x, y) = in(x, h − 1 − y)
    ///
    /// - Parameters:
    ///   - direction: Axis to mirror; one of "horizontal", "vertical", default "horizontal".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func flip(direction: FlipDirection = .horizontal) throws -> Image {
        try applying(.flip, ["direction": .string(direction.rawValue)])
    }

    /// Rotates clockwise by any angle; multiples of 90° turn losslessly.
    ///
    /// Formula: out(p) = Σ k(pᵢ − q)·in(pᵢ), q = R(−θ)(p − c_out) + c_in about the centres (2D kernel, taps outside the input read background); fit: the canvas grows to the rotated bounds, crop: it keeps the input's size, inside: the largest centred rectangle of the input's shape whose every tap lies in the image (straightening); θ a multiple of 90° (with a canvas that fits exactly) moves pixels without resampling
    ///
    /// - Parameters:
    ///   - degrees: Clockwise angle in degrees; a number in -360...360, default 90.
    ///   - canvas: fit: grow to hold the whole image; crop: keep the size; inside: shrink to what the image covers; one of "fit", "crop", "inside", default "fit".
    ///   - background: Colour of the uncovered corners; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 0).
    ///   - kernel: Interpolation kernel; one of "nearest", "bilinear", "bicubic", "lanczos3", default "bicubic".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func rotate(degrees: Double = 90.0, canvas: RotateCanvas = .fit, background: RGBA = RGBA(0.0, 0.0, 0.0, 0.0), kernel: ResampleKernel = .bicubic) throws -> Image {
        try applying(.rotate, ["degrees": .number(degrees), "canvas": .string(canvas.rawValue), "background": .color(background), "kernel": .string(kernel.rawValue)])
    }

    /// Levels a tilted photo: rotates it and keeps the largest upright rectangle it covers.
    ///
    /// Formula: rotate by degrees with canvas "inside": the largest centred rectangle of the input's shape whose every tap lies in the rotated image, so no background shows
    ///
    /// - Parameters:
    ///   - degrees: Clockwise tilt correction in degrees; a number in -45...45, default 0.
    ///   - kernel: Interpolation kernel; one of "nearest", "bilinear", "bicubic", "lanczos3", default "bicubic".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func straighten(degrees: Double = 0.0, kernel: ResampleKernel = .bicubic) throws -> Image {
        try applying(.straighten, ["degrees": .number(degrees), "kernel": .string(kernel.rawValue)])
    }

    /// Swaps rows and columns.
    ///
    /// Formula: out(x, y) = in(y, x)
    ///
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func transpose() throws -> Image {
        try applying(.transpose, [:])
    }

    /// Adds borders of a colour.
    ///
    /// Formula: the input at (left, top) on a (left + w + right)×(top + h + bottom) canvas of color
    ///
    /// - Parameters:
    ///   - top: Rows above; an integer in 0...100000, default 0.
    ///   - right: Columns to the right; an integer in 0...100000, default 0.
    ///   - bottom: Rows below; an integer in 0...100000, default 0.
    ///   - left: Columns to the left; an integer in 0...100000, default 0.
    ///   - color: Border colour; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 0).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func pad(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0, color: RGBA = RGBA(0.0, 0.0, 0.0, 0.0)) throws -> Image {
        try applying(.pad, ["top": .number(Double(top)), "right": .number(Double(right)), "bottom": .number(Double(bottom)), "left": .number(Double(left)), "color": .color(color)])
    }

    /// Transforms by a 2×3 matrix (scale, rotate, shear, translate) with exact resampling.
    ///
    /// Formula: the matrix [a, b, c, d, e, f] maps input to output, x′ = a·x + b·y + c, y′ = d·x + e·y + f, in pixels from the top-left corner (pixel centres at i + ½; OpenCV's warpAffine puts them at i); each output pixel samples the input at the inverse map with the 2D kernel, widened by the shrink factor along each input axis; taps outside the input read background
    ///
    /// - Parameters:
    ///   - matrix: Row-major 2×3 matrix [a, b, c, d, e, f]; a list of 6 numbers, default [1, 0, 0, 0, 1, 0].
    ///   - width: Output width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Output height (0: the input's); an integer in 0...1000000, default 0.
    ///   - background: Colour where the output sees no input; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 0).
    ///   - kernel: Interpolation kernel; one of "nearest", "bilinear", "bicubic", "lanczos3", default "bicubic".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func affine(matrix: [Double] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0], width: Int = 0, height: Int = 0, background: RGBA = RGBA(0.0, 0.0, 0.0, 0.0), kernel: ResampleKernel = .bicubic) throws -> Image {
        try applying(.affine, ["matrix": .numbers(matrix), "width": .number(Double(width)), "height": .number(Double(height)), "background": .color(background), "kernel": .string(kernel.rawValue)])
    }

    /// Corrects or applies perspective: four corners of the input become the output rectangle, or a 3×3 matrix.
    ///
    /// Formula: corners [x₀, y₀ … x₃, y₃] (top-left, top-right, bottom-right, bottom-left, pixels from the input's top-left corner) map onto the output's corners; or the matrix [a … i] maps input to output, x′ = (a·x + b·y + c) / (g·x + h·y + i), y′ = (d·x + e·y + f) / (g·x + h·y + i); each output pixel (centre i + ½) samples the input at the inverse map with the 2D kernel, widened by the local shrink factor along each input axis (the rows of the inverse map's Jacobian, from 1 to 16); taps outside the input, and points behind the view (denominator ≤ 0), read background
    ///
    /// - Parameters:
    ///   - corners: The input's quadrilateral [x₀, y₀, x₁, y₁, x₂, y₂, x₃, y₃] from the top-left corner clockwise ([]: use matrix); a list of 0 or 8 numbers, default [].
    ///   - matrix: Row-major 3×3 matrix [a … i], input to output; a list of 9 numbers, default [1, 0, 0, 0, 1, 0, 0, 0, 1].
    ///   - width: Output width (0: the input's, or with corners the mean of the top and bottom sides); an integer in 0...1000000, default 0.
    ///   - height: Output height (0: the input's, or with corners the mean of the left and right sides); an integer in 0...1000000, default 0.
    ///   - background: Colour where the output sees no input; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 0).
    ///   - kernel: Interpolation kernel; one of "nearest", "bilinear", "bicubic", "lanczos3", default "bicubic".
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func perspective(corners: [Double] = [], matrix: [Double] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], width: Int = 0, height: Int = 0, background: RGBA = RGBA(0.0, 0.0, 0.0, 0.0), kernel: ResampleKernel = .bicubic) throws -> Image {
        try applying(.perspective, ["corners": .numbers(corners), "matrix": .numbers(matrix), "width": .number(Double(width)), "height": .number(Double(height)), "background": .color(background), "kernel": .string(kernel.rawValue)])
    }

    /// Blends a source image onto a backdrop with a blend mode.
    ///
    /// Formula: W3C Compositing: co = cs(1 − αb) + cb(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb(1 − αs); αs scaled by opacity; B per W3C §9 on straight colour in the working space (hue, saturation, color, luminosity through Lum = 0.3R + 0.59G + 0.11B, SetLum, ClipColor, SetSat); add: B = min(Cb + Cs, 1), subtract: B = max(Cb − Cs, 0)
    ///
    /// `self` is the source.
    ///
    /// - Parameters:
    ///   - backdrop: The backdrop image.
    ///   - mode: Blend mode; one of "normal", "multiply", "screen", "overlay", "softLight", "hardLight", "darken", "lighten", "difference", "exclusion", "add", "subtract", "colorDodge", "colorBurn", "hue", "saturation", "color", "luminosity", default "normal".
    ///   - opacity: Source opacity; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func blend(backdrop: Image, mode: BlendMode = .normal, opacity: Double = 1.0) throws -> Image {
        try applying(.blend, ["mode": .string(mode.rawValue), "opacity": .number(opacity)], with: [backdrop])
    }

    /// Mixes two images through a mask.
    ///
    /// Formula: out = mix(background, foreground, m), m = luminance(mask) × alpha(mask) (straight mask values)
    ///
    /// `self` is the foreground.
    ///
    /// - Parameters:
    ///   - background: The background image.
    ///   - mask: The mask image.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func blendWithMask(background: Image, mask: Image) throws -> Image {
        try applying(.blendWithMask, [:], with: [background, mask])
    }

    /// Porter–Duff source over backdrop, the source placed, scaled and faded (a watermark, a logo).
    ///
    /// Formula: co = cs + cb(1 − αs), αo = αs + αb(1 − αs) (premultiplied), αs scaled by opacity; the source is first resampled (Lanczos 3) to relativeWidth × the backdrop's width, its aspect kept (0: its own size), then placed at position, margin × the backdrop's shorter side from the edges it sits against; transparent outside
    ///
    /// `self` is the source.
    ///
    /// - Parameters:
    ///   - backdrop: The backdrop image.
    ///   - position: Where the source sits on the backdrop: the centre or a compass point; one of "centre", "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", default "northwest".
    ///   - margin: Space between the source and the edges, as a fraction of the backdrop's shorter side; a number in 0...0.5, default 0.
    ///   - relativeWidth: The source's width as a fraction of the backdrop's width, its aspect kept (0: its own size); a number in 0...4, default 0.
    ///   - opacity: Source opacity; a number in 0...1, default 1.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func over(backdrop: Image, position: OverPosition = .northwest, margin: Double = 0.0, relativeWidth: Double = 0.0, opacity: Double = 1.0) throws -> Image {
        try applying(.over, ["position": .string(position.rawValue), "margin": .number(margin), "relativeWidth": .number(relativeWidth), "opacity": .number(opacity)], with: [backdrop])
    }

    /// Takes the image's transparency from a mask (a grey image, or any image's alpha).
    ///
    /// Formula: co = cs (straight colour kept), αo = αs × m, m = the mask's stored grey level in 0…1 (sRGB-encoded luminance, so grey 128 gives alpha 128) × mask alpha; transparent outside the mask
    ///
    /// `self` is the source.
    ///
    /// - Parameters:
    ///   - mask: The mask image.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func setAlpha(mask: Image) throws -> Image {
        try applying(.setAlpha, [:], with: [mask])
    }

    /// A single colour.
    ///
    /// Formula: out = color
    ///
    /// `self` gives the size when width or height is 0.
    ///
    /// - Parameters:
    ///   - width: Width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Height (0: the input's); an integer in 0...1000000, default 0.
    ///   - color: Fill colour; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 1).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func solidColor(width: Int = 0, height: Int = 0, color: RGBA = RGBA(0.0, 0.0, 0.0, 1.0)) throws -> Image {
        try applying(.solidColor, ["width": .number(Double(width)), "height": .number(Double(height)), "color": .color(color)])
    }

    /// Colour ramp along a line.
    ///
    /// Formula: t = clamp(((x, y) − P₀)·(P₁ − P₀)/|P₁ − P₀|², 0, 1) at pixel centres, P in fractions of the size; out = mix(from, to, t) in the working space
    ///
    /// `self` gives the size when width or height is 0.
    ///
    /// - Parameters:
    ///   - width: Width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Height (0: the input's); an integer in 0...1000000, default 0.
    ///   - x0: Start x (fraction of the width); a number in -10...10, default 0.
    ///   - y0: Start y (fraction of the height); a number in -10...10, default 0.
    ///   - x1: End x; a number in -10...10, default 1.
    ///   - y1: End y; a number in -10...10, default 0.
    ///   - from: Colour at the start; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 1).
    ///   - to: Colour at the end; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func linearGradient(width: Int = 0, height: Int = 0, x0: Double = 0.0, y0: Double = 0.0, x1: Double = 1.0, y1: Double = 0.0, from: RGBA = RGBA(0.0, 0.0, 0.0, 1.0), to: RGBA = RGBA(1.0, 1.0, 1.0, 1.0)) throws -> Image {
        try applying(.linearGradient, ["width": .number(Double(width)), "height": .number(Double(height)), "x0": .number(x0), "y0": .number(y0), "x1": .number(x1), "y1": .number(y1), "from": .color(from), "to": .color(to)])
    }

    /// Colour ramp around a centre.
    ///
    /// Formula: t = clamp(distance from (cx·w, cy·h) / (radius·half-diagonal), 0, 1); out = mix(from, to, t)
    ///
    /// `self` gives the size when width or height is 0.
    ///
    /// - Parameters:
    ///   - width: Width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Height (0: the input's); an integer in 0...1000000, default 0.
    ///   - cx: Centre x (fraction of the width); a number in -10...10, default 0.5.
    ///   - cy: Centre y (fraction of the height); a number in -10...10, default 0.5.
    ///   - radius: Radius in half-diagonals; a number in 0.001...10, default 1.
    ///   - from: Colour at the centre; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    ///   - to: Colour at the radius and beyond; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0, 0, 0, 1).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func radialGradient(width: Int = 0, height: Int = 0, cx: Double = 0.5, cy: Double = 0.5, radius: Double = 1.0, from: RGBA = RGBA(1.0, 1.0, 1.0, 1.0), to: RGBA = RGBA(0.0, 0.0, 0.0, 1.0)) throws -> Image {
        try applying(.radialGradient, ["width": .number(Double(width)), "height": .number(Double(height)), "cx": .number(cx), "cy": .number(cy), "radius": .number(radius), "from": .color(from), "to": .color(to)])
    }

    /// Alternating squares.
    ///
    /// Formula: out = (⌊x/size⌋ + ⌊y/size⌋) even ? first : second
    ///
    /// `self` gives the size when width or height is 0.
    ///
    /// - Parameters:
    ///   - width: Width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Height (0: the input's); an integer in 0...1000000, default 0.
    ///   - size: Square side in pixels; an integer in 1...100000, default 8.
    ///   - first: Colour of the top-left square; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    ///   - second: The other colour; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(0.5, 0.5, 0.5, 1).
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func checkerboard(width: Int = 0, height: Int = 0, size: Int = 8, first: RGBA = RGBA(1.0, 1.0, 1.0, 1.0), second: RGBA = RGBA(0.5, 0.5, 0.5, 1.0)) throws -> Image {
        try applying(.checkerboard, ["width": .number(Double(width)), "height": .number(Double(height)), "size": .number(Double(size)), "first": .color(first), "second": .color(second)])
    }

    /// Text set with real shaping (Pango, HarfBuzz), for captions and watermarks.
    ///
    /// Formula: the string laid out by Pango (HarfBuzz shaping, Unicode bidi, fontconfig fallback for scripts the font lacks), unhinted outlines and metrics at fractional positions, rasterised by FreeType through PangoFT2 (cairo for a font fontconfig emboldens and colour fonts) with grey antialiasing into coverage c; out = color × c (premultiplied), transparent elsewhere; the layout box (from its origin to the widest line or wrapWidth, and to the last line; ink past it kept) placed at position, margin × the shorter side from the edges; em size = relativeSize × height, or size × dpi / 72 pixels
    ///
    /// `self` gives the size when width or height is 0.
    ///
    /// - Parameters:
    ///   - width: Width (0: the input's); an integer in 0...1000000, default 0.
    ///   - height: Height (0: the input's); an integer in 0...1000000, default 0.
    ///   - text: The string (UTF-8; \n breaks lines); a string of at most 4096 bytes (UTF-8).
    ///   - font: Font family (fontconfig's name, or sans-serif, serif, monospace); a string of at most 256 bytes (UTF-8), default "DejaVu Sans".
    ///   - size: Em size in points; a number in 1...2000, default 24.
    ///   - dpi: Points to pixels: size × dpi / 72 (72: a point is a pixel); a number in 18...2400, default 72.
    ///   - relativeSize: Em size as a fraction of the canvas height, so a watermark scales with the image (0: size and dpi); a number in 0...1, default 0.
    ///   - weight: Font weight; one of "thin", "extralight", "light", "normal", "medium", "semibold", "bold", "extrabold", "black", default "normal".
    ///   - italic: The family's italic face; true or false, default false.
    ///   - color: Text colour; a colour: [r, g, b], [r, g, b, a] in 0...1 or "#rrggbb[aa]", default RGBA(1, 1, 1, 1).
    ///   - align: Alignment of the lines within the block; one of "left", "centre", "right", default "left".
    ///   - wrapWidth: Break lines longer than this many pixels (0: never); an integer in 0...100000, default 0.
    ///   - lineSpacing: Line height as a factor of the font's (0: the font's own); a number in 0...10, default 0.
    ///   - position: Where the block sits on the canvas; one of "centre", "north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest", default "centre".
    ///   - margin: Space between the block and the edges, as a fraction of the shorter side; a number in 0...0.5, default 0.
    /// - Throws: `RecipeError` naming this call when a value is out of its range.
    public func text(width: Int = 0, height: Int = 0, text: String, font: String = "DejaVu Sans", size: Double = 24.0, dpi: Double = 72.0, relativeSize: Double = 0.0, weight: TextWeight = .normal, italic: Bool = false, color: RGBA = RGBA(1.0, 1.0, 1.0, 1.0), align: TextAlign = .left, wrapWidth: Int = 0, lineSpacing: Double = 0.0, position: TextPosition = .centre, margin: Double = 0.0) throws -> Image {
        try applying(.text, ["width": .number(Double(width)), "height": .number(Double(height)), "text": .string(text), "font": .string(font), "size": .number(size), "dpi": .number(dpi), "relativeSize": .number(relativeSize), "weight": .string(weight.rawValue), "italic": .boolean(italic), "color": .color(color), "align": .string(align.rawValue), "wrapWidth": .number(Double(wrapWidth)), "lineSpacing": .number(lineSpacing), "position": .string(position.rawValue), "margin": .number(margin)])
    }


    /// lut's interpolation: how a 3d table is read between its grid points.
    public enum LutInterpolation: String, CaseIterable, Sendable {
        case tetrahedral = "tetrahedral"
        case trilinear = "trilinear"
    }

    /// lut's space: the values the table expects: srgb-encoded (grading tools' looks) or linear.
    public enum LutSpace: String, CaseIterable, Sendable {
        case srgb = "srgb"
        case linear = "linear"
    }

    /// dilate's shape: structuring element.
    public enum DilateShape: String, CaseIterable, Sendable {
        case square = "square"
        case disc = "disc"
    }

    /// erode's shape: structuring element.
    public enum ErodeShape: String, CaseIterable, Sendable {
        case square = "square"
        case disc = "disc"
    }

    /// bilateral's method: exact: the definition; separable: two 1d passes.
    public enum BilateralMethod: String, CaseIterable, Sendable {
        case exact = "exact"
        case separable = "separable"
    }

    /// resize's fit: with width and height: fill stretches; contain letterboxes; cover crops; inside/outside keep the aspect.
    public enum ResizeFit: String, CaseIterable, Sendable {
        case fill = "fill"
        case contain = "contain"
        case cover = "cover"
        case inside = "inside"
        case outside = "outside"
    }

    /// resize's position: what a cover crop keeps or where contain places the image; attention and entropy look at the pixels.
    public enum ResizePosition: String, CaseIterable, Sendable {
        case centre = "centre"
        case north = "north"
        case northeast = "northeast"
        case east = "east"
        case southeast = "southeast"
        case south = "south"
        case southwest = "southwest"
        case west = "west"
        case northwest = "northwest"
        case attention = "attention"
        case entropy = "entropy"
    }

    /// flip's direction: axis to mirror.
    public enum FlipDirection: String, CaseIterable, Sendable {
        case horizontal = "horizontal"
        case vertical = "vertical"
    }

    /// rotate's canvas: fit: grow to hold the whole image; crop: keep the size; inside: shrink to what the image covers.
    public enum RotateCanvas: String, CaseIterable, Sendable {
        case fit = "fit"
        case crop = "crop"
        case inside = "inside"
    }

    /// over's position: where the source sits on the backdrop: the centre or a compass point.
    public enum OverPosition: String, CaseIterable, Sendable {
        case centre = "centre"
        case north = "north"
        case northeast = "northeast"
        case east = "east"
        case southeast = "southeast"
        case south = "south"
        case southwest = "southwest"
        case west = "west"
        case northwest = "northwest"
    }

    /// text's weight: font weight.
    public enum TextWeight: String, CaseIterable, Sendable {
        case thin = "thin"
        case extralight = "extralight"
        case light = "light"
        case normal = "normal"
        case medium = "medium"
        case semibold = "semibold"
        case bold = "bold"
        case extrabold = "extrabold"
        case black = "black"
    }

    /// text's align: alignment of the lines within the block.
    public enum TextAlign: String, CaseIterable, Sendable {
        case left = "left"
        case centre = "centre"
        case right = "right"
    }

    /// text's position: where the block sits on the canvas.
    public enum TextPosition: String, CaseIterable, Sendable {
        case centre = "centre"
        case north = "north"
        case northeast = "northeast"
        case east = "east"
        case southeast = "southeast"
        case south = "south"
        case southwest = "southwest"
        case west = "west"
        case northwest = "northwest"
    }
}
