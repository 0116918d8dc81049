import FilterCore

/// A kernel's parameters as a Swift value: named fields over the push block's kernel-specific slots (`ints`,
/// `f0`–`f2`). Its field list is the one declaration both sides read: `PushConstants.set` writes the values into
/// their slots, and `KernelConstants.glsl` defines each field's name for the shaders (`CONVOLVE_SIZE` reads
/// `pc.ints.x`), so a shader never names a slot and a slot's meaning is written once.
protocol KernelParameters {
    /// The names' prefix in GLSL (`CONVOLVE`).
    static var prefix: String { get }
    /// Each field's name (after the prefix) and slot: `ints`, `f0`, `f1` or `f2`, with the lanes it takes.
    static var fields: [KernelField] { get }
    /// The values, in the order of `fields`.
    var values: [KernelValue] { get }
}

struct KernelField: Sendable {
    let name: String
    let vector: String
    let lanes: [Int]

    /// `slot` as GLSL writes it: `ints.x`, `f0.xy`, `f2`.
    init(_ name: String, _ slot: String) {
        self.name = name
        let parts = slot.split(separator: ".", maxSplits: 1)
        vector = String(parts[0])
        lanes = parts.count > 1 ? parts[1].compactMap { "xyzw".firstIndex(of: $0).map { "xyzw".distance(from: "xyzw".startIndex, to: $0) } }
            : [0, 1, 2, 3]
    }

    var isInteger: Bool { vector == "ints" }
    var slot: String { lanes.count == 4 ? vector : vector + "." + String(lanes.map { Array("xyzw")[$0] }) }
}

/// One field's value: integers for an `ints` slot, floats for an `f` slot, one per lane.
enum KernelValue: Equatable, Sendable {
    case ints([Int32])
    case floats([Float])

    static func int(_ v: Int) -> KernelValue { .ints([Int32(clamping: v)]) }
    static func int(_ v: Int32) -> KernelValue { .ints([v]) }
    static func flag(_ v: Bool) -> KernelValue { .ints([v ? 1 : 0]) }
    static func float(_ v: Float) -> KernelValue { .floats([v]) }
    static func vector(_ v: SIMD4<Float>) -> KernelValue { .floats([v.x, v.y, v.z, v.w]) }
}

extension PushConstants {
    /// Writes `parameters` into their slots (leaving the common part — sizes and rows — as it is).
    mutating func set<P: KernelParameters>(_ parameters: P) {
        for (field, value) in zip(P.fields, parameters.values) {
            switch value {
            case .ints(let v) where field.isInteger:
                for (lane, x) in zip(field.lanes, v) { ints[lane] = x }
            case .floats(let v) where !field.isInteger:
                for (lane, x) in zip(field.lanes, v) {
                    switch field.vector {
                    case "f0": f0[lane] = x
                    case "f1": f1[lane] = x
                    default: f2[lane] = x
                    }
                }
            default:
                continue  // a kind that does not fit its slot: KernelInterfaceTests refuses it
            }
        }
    }
}

/// Every kernel's parameters (the names `KernelConstants.glsl` defines and the shaders use).
enum KernelParameterBlocks {
    static let all: [any KernelParameters.Type] = [
        UnpackParameters.self, PackParameters.self, SeparableParameters.self, BoxParameters.self,
        ConvolveParameters.self, UnsharpParameters.self, SharpenLuminanceParameters.self, MorphologyParameters.self,
        ToneParameters.self, BilateralParameters.self, MotionBlurParameters.self, ZoomBlurParameters.self,
        ResampleParameters.self, CropParameters.self, BoxReduceParameters.self, ReorientParameters.self,
        WarpParameters.self, PadParameters.self, BlendParameters.self, BlendMaskParameters.self,
        SolidParameters.self, LinearGradientParameters.self, RadialGradientParameters.self,
        CheckerboardParameters.self, TextParameters.self,
    ]
}

/// Shaders/unpack.comp: stored samples of a band into working values.
struct UnpackParameters: KernelParameters {
    var channels: Int, bytesPerSample: Int, linear: Bool
    /// 1 / the largest code.
    var unit: Float
    static let prefix = "UNPACK"
    static let fields = [KernelField("CHANNELS", "ints.x"), KernelField("BYTES_PER_SAMPLE", "ints.y"),
                         KernelField("LINEAR", "ints.z"), KernelField("UNIT", "f0.x")]
    var values: [KernelValue] { [.int(channels), .int(bytesPerSample), .flag(linear), .float(unit)] }
}

/// Shaders/pack.comp: working values into stored samples, one 32-bit word an invocation.
struct PackParameters: KernelParameters {
    var channels: Int, bytesPerSample: Int, linear: Bool, words: Int
    static let prefix = "PACK"
    static let fields = [KernelField("CHANNELS", "ints.x"), KernelField("BYTES_PER_SAMPLE", "ints.y"),
                         KernelField("LINEAR", "ints.z"), KernelField("WORDS", "ints.w")]
    var values: [KernelValue] { [.int(channels), .int(bytesPerSample), .flag(linear), .int(words)] }
}

/// Shaders/separable_*.comp: one pass of a separable convolution.
struct SeparableParameters: KernelParameters {
    var taps: Int
    static let prefix = "SEPARABLE"
    static let fields = [KernelField("TAPS", "ints.x")]
    var values: [KernelValue] { [.int(taps)] }
}

/// Shaders/box.comp: running sums along segments, across rows or down columns.
struct BoxParameters: KernelParameters {
    var radius: Int, vertical: Bool, segment: Int
    static let prefix = "BOX"
    static let fields = [KernelField("RADIUS", "ints.x"), KernelField("VERTICAL", "ints.y"), KernelField("SEGMENT", "ints.z")]
    var values: [KernelValue] { [.int(radius), .flag(vertical), .int(segment)] }
}

/// Shaders/convolve.comp, convolve_tiled.comp (and include/convolution.glsl).
struct ConvolveParameters: KernelParameters {
    var size: Int, preserveAlpha: Bool, bias: Float
    static let prefix = "CONVOLVE"
    static let fields = [KernelField("SIZE", "ints.x"), KernelField("PRESERVE_ALPHA", "ints.y"), KernelField("BIAS", "f0.x")]
    var values: [KernelValue] { [.int(size), .flag(preserveAlpha), .float(bias)] }
}

/// Shaders/unsharp_combine.comp.
struct UnsharpParameters: KernelParameters {
    var amount: Float, threshold: Float
    static let prefix = "UNSHARP"
    static let fields = [KernelField("AMOUNT", "f0.x"), KernelField("THRESHOLD", "f0.y")]
    var values: [KernelValue] { [.float(amount), .float(threshold)] }
}

/// Shaders/sharpen_luminance.comp.
struct SharpenLuminanceParameters: KernelParameters {
    var amount: Float
    static let prefix = "SHARPEN"
    static let fields = [KernelField("AMOUNT", "f0.x")]
    var values: [KernelValue] { [.float(amount)] }
}

/// Shaders/morphology.comp: one pass over `rows` rows of the element.
struct MorphologyParameters: KernelParameters {
    var rows: Int
    static let prefix = "MORPHOLOGY"
    static let fields = [KernelField("ROWS", "ints.x")]
    var values: [KernelValue] { [.int(rows)] }
}

/// Shaders/tone_adjust.comp.
struct ToneParameters: KernelParameters {
    var shadows: Float, highlights: Float, detail: Float
    static let prefix = "TONE"
    static let fields = [KernelField("SHADOWS", "f0.x"), KernelField("HIGHLIGHTS", "f0.y"), KernelField("DETAIL", "f0.z")]
    var values: [KernelValue] { [.float(shadows), .float(highlights), .float(detail)] }
}

/// Shaders/bilateral.comp: `taps` (dx, dy, weight) triples in the parameter block.
struct BilateralParameters: KernelParameters {
    var taps: Int, rangeScale: Float
    static let prefix = "BILATERAL"
    static let fields = [KernelField("TAPS", "ints.x"), KernelField("RANGE_SCALE", "f0.x")]
    var values: [KernelValue] { [.int(taps), .float(rangeScale)] }
}

/// Shaders/line_blur.comp, motion path: `count` samples along ±(dx, dy).
struct MotionBlurParameters: KernelParameters {
    var count: Int, halfSegment: (Float, Float)
    static let prefix = "MOTION"
    static let fields = [KernelField("COUNT", "ints.x"), KernelField("HALF_SEGMENT", "f0.xy")]
    var values: [KernelValue] { [.int(count), .floats([halfSegment.0, halfSegment.1])] }
}

/// Shaders/line_blur.comp, zoom path: toward `centre` (pixel indices) by `fraction` of the way.
struct ZoomBlurParameters: KernelParameters {
    var centre: (Float, Float), fraction: Float
    static let prefix = "ZOOM"
    static let fields = [KernelField("CENTRE", "f0.xy"), KernelField("FRACTION", "f0.z")]
    var values: [KernelValue] { [.floats([centre.0, centre.1]), .float(fraction)] }
}

/// Shaders/resample.comp: `taps` weights an output sample, along rows or down columns.
struct ResampleParameters: KernelParameters {
    var taps: Int, vertical: Bool
    static let prefix = "RESAMPLE"
    static let fields = [KernelField("TAPS", "ints.x"), KernelField("VERTICAL", "ints.y")]
    var values: [KernelValue] { [.int(taps), .flag(vertical)] }
}

/// Shaders/crop.comp.
struct CropParameters: KernelParameters {
    var x: Int, y: Int
    static let prefix = "CROP"
    static let fields = [KernelField("ORIGIN", "ints.xy")]
    var values: [KernelValue] { [.ints([Int32(clamping: x), Int32(clamping: y)])] }
}

/// Shaders/box_reduce.comp: boxes of x × y input pixels.
struct BoxReduceParameters: KernelParameters {
    var x: Int, y: Int
    static let prefix = "BOX_REDUCE"
    static let fields = [KernelField("FACTOR", "ints.xy")]
    var values: [KernelValue] { [.ints([Int32(clamping: x), Int32(clamping: y)])] }
}

/// Shaders/reorient.comp.
struct ReorientParameters: KernelParameters {
    var mapping: Reorientation
    static let prefix = "REORIENT"
    static let fields = [KernelField("MAPPING", "ints.x")]
    var values: [KernelValue] { [.int(mapping.kernelCode)] }
}

/// Shaders/warp.comp: the map's affine part x_in = a·x + b·y + c, y_in = d·x + e·y + f (its projective row is in
/// the parameter block), the kernel's widening bound for an affine map, the background and the kernel.
struct WarpParameters: KernelParameters {
    var map: WarpMap, scale: (x: Double, y: Double), background: SIMD4<Float>, kernel: ResampleKernel
    static let prefix = "WARP"
    static let fields = [KernelField("AB", "f0.xy"), KernelField("C", "f0.z"), KernelField("D", "f0.w"),
                         KernelField("E", "f1.x"), KernelField("F", "f1.y"), KernelField("SCALE", "f1.zw"),
                         KernelField("BACKGROUND", "f2"), KernelField("KERNEL", "ints.x")]
    var values: [KernelValue] {
        [.floats([Float(map.a), Float(map.b)]), .float(Float(map.c)), .float(Float(map.d)), .float(Float(map.e)),
         .float(Float(map.f)), .floats([Float(scale.x), Float(scale.y)]), .vector(background), .int(kernel.kernelCode)]
    }
}

/// Shaders/pad.comp.
struct PadParameters: KernelParameters {
    var left: Int, top: Int, colour: SIMD4<Float>
    static let prefix = "PAD"
    static let fields = [KernelField("OFFSET", "ints.xy"), KernelField("COLOUR", "f0")]
    var values: [KernelValue] { [.ints([Int32(clamping: left), Int32(clamping: top)]), .vector(colour)] }
}

/// Shaders/blend.comp.
struct BlendParameters: KernelParameters {
    var mode: BlendMode, opacity: Float
    static let prefix = "BLEND"
    static let fields = [KernelField("MODE", "ints.x"), KernelField("OPACITY", "f0.x")]
    var values: [KernelValue] { [.int(mode.kernelCode), .float(opacity)] }
}

/// Shaders/blend_with_mask.comp: whether the mask is coverage (linearised in a linear working space).
struct BlendMaskParameters: KernelParameters {
    var linearCoverage: Bool
    static let prefix = "MASK"
    static let fields = [KernelField("LINEAR_COVERAGE", "ints.x")]
    var values: [KernelValue] { [.flag(linearCoverage)] }
}

// Shaders/generate.comp: one block a generator, their shared names in the same slots (GENERATE_KIND, GENERATE_A, …).

struct SolidParameters: KernelParameters {
    var colour: SIMD4<Float>
    static let prefix = "GENERATE"
    static let fields = [KernelField("KIND", "ints.x"), KernelField("A", "f0")]
    var values: [KernelValue] { [.int(KernelConstants.GeneratorKind.solid.kernelCode), .vector(colour)] }
}

struct LinearGradientParameters: KernelParameters {
    var from: SIMD4<Float>, to: SIMD4<Float>, line: SIMD4<Float>
    static let prefix = "GENERATE"
    static let fields = [KernelField("KIND", "ints.x"), KernelField("A", "f0"), KernelField("B", "f1"), KernelField("LINE", "f2")]
    var values: [KernelValue] {
        [.int(KernelConstants.GeneratorKind.linear.kernelCode), .vector(from), .vector(to), .vector(line)]
    }
}

struct RadialGradientParameters: KernelParameters {
    var from: SIMD4<Float>, to: SIMD4<Float>, centre: (Float, Float), radius: Float
    static let prefix = "GENERATE"
    static let fields = [KernelField("KIND", "ints.x"), KernelField("A", "f0"), KernelField("B", "f1"),
                         KernelField("CENTRE", "f2.xy"), KernelField("RADIUS", "f2.z")]
    var values: [KernelValue] {
        [.int(KernelConstants.GeneratorKind.radial.kernelCode), .vector(from), .vector(to),
         .floats([centre.0, centre.1]), .float(radius)]
    }
}

struct CheckerboardParameters: KernelParameters {
    var size: Int, first: SIMD4<Float>, second: SIMD4<Float>
    static let prefix = "GENERATE"
    static let fields = [KernelField("KIND", "ints.x"), KernelField("SQUARE", "ints.y"), KernelField("A", "f0"),
                         KernelField("B", "f1")]
    var values: [KernelValue] {
        [.int(KernelConstants.GeneratorKind.checkerboard.kernelCode), .int(size), .vector(first), .vector(second)]
    }
}

/// A text block's coverage (`width` a row, `height` rows) is in the parameter block, drawn at `origin`.
struct TextParameters: KernelParameters {
    var x: Int, y: Int, width: Int, height: Int, colour: SIMD4<Float>
    static let prefix = "GENERATE"
    static let fields = [KernelField("KIND", "ints.x"), KernelField("TEXT_ORIGIN", "ints.yz"), KernelField("TEXT_WIDTH", "ints.w"),
                         KernelField("A", "f0"), KernelField("TEXT_HEIGHT", "f2.x")]
    var values: [KernelValue] {
        [.int(KernelConstants.GeneratorKind.text.kernelCode), .ints([Int32(clamping: x), Int32(clamping: y)]),
         .int(width), .vector(colour), .float(Float(height))]
    }
}
