import CKernels
@testable import CPUBackend
import FilterCore
import FilterRecipe
import TestSupport
import XCTest

/// Blurs of opaque 8-bit samples in the sRGB working space run in 16-bit fixed point (`FixedPointTaps`,
/// `Sources/CKernels/fixed_taps.c`). The kernels are checked against their integer definitions on both SIMD paths
/// at every row remainder; the blurs of real photos against float64 blurs written from the published definitions
/// (a Gaussian's exp(−x²/2σ²) normalised, out to ⌈3σ⌉; a box's mean; the 5×5 binomial), edges clamped.
final class FixedPointBlurTests: XCTestCase {
    override func tearDown() { CPUFeatures.avx2 = true }

    /// The definition of a Gaussian's taps, in float64.
    static func gaussian(_ sigma: Double) -> [Double] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    func testWeightsSumToOneAndRefuseWhatTheyCannotHold() throws {
        for sigma in [0.3, 0.5, 1, 2, 5, 8] {
            let taps = Self.gaussian(sigma)
            let fixed = try XCTUnwrap(FixedPointTaps(taps.map(Float.init)), "σ \(sigma)")
            XCTAssertEqual(fixed.weights.reduce(0) { $0 + Int($1) }, 1 << 14, "σ \(sigma)")
            // Each weight within one unit of its exact value, and a symmetric kernel's centre its largest.
            for (w, exact) in zip(fixed.weights, taps) { XCTAssertLessThan(abs(Double(w) - exact * 16384), 1) }
            XCTAssertEqual(fixed.weights.max(), fixed.weights[taps.count / 2])
        }
        XCTAssertNil(FixedPointTaps(Self.gaussian(8.4).map(Float.init)), "51 taps: more than maxTaps")
        XCTAssertNil(FixedPointTaps([-0.25, 1.5, -0.25]), "a negative weight")
        XCTAssertNil(FixedPointTaps([1, 2, 1]), "unnormalised")
        XCTAssertNil(FixedPointTaps([]))
    }

    /// Every kernel on both paths gives its integer definition, at every remainder of the 16-value SIMD step.
    func testKernelsGiveTheirIntegerDefinitionOnBothPaths() {
        var random = SplitMix64(seed: 7)
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for n in Array(1...40) + [255, 256, 257, 1001] {
                for (stride, taps) in [(1, 1), (1, 4), (3, 5), (3, 13), (4, 2), (1, 49)] {
                    // Weights summing to 2¹⁴, odd counts or not (the kernels pair taps).
                    let raw = (0..<taps).map { _ in Int(random.next() % 1000) + 1 }
                    var weights = raw.map { Int16($0 * 16384 / raw.reduce(0, +)) }
                    weights[taps / 2] += Int16(16384 - weights.reduce(0) { $0 + Int($1) })
                    let src = (0..<(n + (taps - 1) * stride)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    var across = [Int16](repeating: 0, count: n)
                    fr_fixed_taps_h8(&across, src, weights, Int32(taps), stride, n)
                    for i in 0..<n {
                        var sum = 64
                        for t in 0..<taps { sum += Int(weights[t]) * Int(src[i + t * stride]) }
                        if Int(across[i]) != sum >> 7 {
                            XCTFail("h8 avx2 \(avx2) n \(n) stride \(stride) taps \(taps) at \(i): \(across[i]) for \(sum >> 7)")
                            break
                        }
                    }
                    // The vertical pass over rows of such values.
                    let rows = (0..<taps).map { _ in (0..<n).map { _ in Int16(random.next() % 32641) } }
                    var out = [UInt8](repeating: 0, count: n)
                    withRowPointers(rows) { pointers in fr_fixed_taps_v8(&out, pointers, weights, Int32(taps), n) }
                    for i in 0..<n {
                        var sum = 1 << 20
                        for t in 0..<taps { sum += Int(weights[t]) * Int(rows[t][i]) }
                        if Int(out[i]) != min(255, sum >> 21) {
                            XCTFail("v8 avx2 \(avx2) n \(n) taps \(taps) at \(i): \(out[i]) for \(sum >> 21)")
                            break
                        }
                    }
                }
                // A box's sums across (strides 1, 3, 4) and its means down, carried over two strips.
                for (stride, radius) in [(1, 1), (3, 5), (4, 2), (3, 0)] {
                    let src = (0..<(n + 2 * radius * stride)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    var sums = [UInt16](repeating: 0, count: n)
                    fr_box_sums_h8(&sums, src, Int32(radius), stride, n)
                    for i in 0..<n {
                        let want = (0...(2 * radius)).reduce(0) { $0 + Int(src[i + $1 * stride]) }
                        if Int(sums[i]) != want { XCTFail("box h8 n \(n) stride \(stride) r \(radius) at \(i)"); break }
                    }
                    let window = 2 * radius + 1, count = 5
                    let rows = (0..<(2 * count + window)).map { _ in (0..<n).map { _ in UInt16(random.next() % UInt64(255 * window + 1)) } }
                    var column = [UInt32](repeating: 0, count: n)
                    var outs = [[UInt8]](repeating: [UInt8](repeating: 0, count: n), count: 2 * count)
                    withRowPointers(rows) { pointers in
                        fr_box_sums_start(&column, pointers, Int32(radius), n)
                        for strip in 0..<2 {
                            var written = [[UInt8]](repeating: [UInt8](repeating: 0, count: n), count: count)
                            withMutableRowPointers(&written) { targets in
                                fr_box_sums_v8(targets, pointers + strip * count, &column, Int32(radius), count,
                                               1 / Float(window * window), n)
                            }
                            for y in 0..<count { outs[strip * count + y] = written[y] }
                        }
                    }
                    for y in 0..<(2 * count) {
                        for i in 0..<n {
                            let sum = (0..<window).reduce(0) { $0 + Int(rows[y + $1][i]) }
                            let want = Int((Double(sum) / Double(window * window) + 0.5).rounded(.down))
                            if Int(outs[y][i]) != want {
                                XCTFail("box v8 avx2 \(avx2) n \(n) r \(radius) row \(y) at \(i): \(outs[y][i]) for \(want)")
                                return
                            }
                        }
                    }
                }
            }
        }
    }

    /// A kernel's one pass of signed taps gives its integer definition, clamped, on both paths at every remainder.
    func testKernelPassGivesItsIntegerDefinitionOnBothPaths() {
        var random = SplitMix64(seed: 11)
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for n in Array(1...40) + [1001] {
                for (taps, shift) in [(1, 14), (9, 13), (8, 14), (25, 12)] {
                    let weights = (0..<taps).map { _ in Int16(Int(random.next() % 20001) - 10000) }
                    let bias = Int32(Int(random.next() % 2_000_001) - 1_000_000)
                    let rows = (0..<taps).map { _ in (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
                    var out = [UInt8](repeating: 0, count: n)
                    withRowPointers(rows) { fr_fixed_kernel8(&out, $0, weights, Int32(taps), Int32(shift), bias, n) }
                    for i in 0..<n {
                        var sum = Int(bias) + (1 << (shift - 1))
                        for t in 0..<taps { sum += Int(weights[t]) * Int(rows[t][i]) }
                        let want = min(255, max(0, sum >> shift))
                        if Int(out[i]) != want {
                            XCTFail("kernel8 avx2 \(avx2) n \(n) taps \(taps) at \(i): \(out[i]) for \(want)")
                            break
                        }
                    }
                }
            }
        }
    }

    /// Kernels that do not factor (a sharpen, the libvips benchmark's, an emboss with a bias, an edge kernel with
    /// negative results, a 5×5 of fractions) on real photos in one pass of fixed-point taps, against
    /// clamp(Σ w·s + bias·255) in float64: within 0.75 of a code, every remainder, both paths. A kernel whose
    /// rounding would cost more than 0.2 of a code stays in floats.
    func testKernelsThatDoNotFactorMatchTheDefinition() throws {
        let fifths = (0..<25).map { Double(($0 * 7) % 11) / 55 - 0.05 }
        let kernels: [(String, [Double], Double)] = [
            ("sharpen", [-1, -1, -1, -1, 9, -1, -1, -1, -1], 0),
            ("libvips sharpen", [-1, -1, -1, -1, 16, -1, -1, -1, -1].map { $0 / 8 }, 0),
            ("emboss", [-2, -1, 0, -1, 1, 1, 0, 1, 2], 0.1),
            ("edges", [0, 1, 0, 1, -4, 1, 0, 1, 0], 0),
            ("5×5 fractions", fifths, 0),
        ]
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for (file, width, height) in [("photos/chelsea_451x300_rgb8.png", 67, 45), ("photos/camera_512_gray8.png", 33, 70),
                                          ("photos/chelsea_451x300_rgb8.png", 5, 3)] {
                let image = try TestImages.crop(file, x: 11, y: 3, width: width, height: height)
                let bytes = try image.hostBytes(), c = image.format.channels
                for (name, kernel, bias) in kernels {
                    var recipe = Recipe.chain([(.convolve, ["kernel": .numbers(kernel), "normalize": false,
                                                            "bias": .number(bias)])])
                    recipe.workingSpace = .srgb
                    let plan = try recipe.plan(inputSizes: ["main": (width, height)])
                        .choosingRepresentations(sources: ["main": SampleLayout(format: image.format, converted: false)],
                                                 output: image.format)
                    XCTAssertNotEqual(plan.nodes[plan.output].representation, .working, name)
                    let rendered = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                    let size = Int(Double(kernel.count).squareRoot()), r = size / 2
                    let exact = (0..<height).map { y in
                        (0..<(width * c)).map { i in
                            var sum = bias * 255
                            for (t, w) in kernel.enumerated() {
                                let (sx, sy) = (min(max(i / c + t % size - r, 0), width - 1), min(max(y + t / size - r, 0), height - 1))
                                sum += w * Double(bytes.load(fromByteOffset: sy * image.rowStride + sx * c + i % c, as: UInt8.self))
                            }
                            return min(255, max(0, sum))
                        }
                    }
                    try assertWithin(rendered, exact, x: 0, y: 0, "\(name) \(file) \(width)×\(height) avx2 \(avx2)")
                }
            }
        }
        // A weight of 4 leaves 12 bits; 24 weights of half a unit each then cost 24·2⁻¹³·255 ≈ 0.75 of a code.
        XCTAssertNil(FixedPointKernel([4] + [Float](repeating: 0.5 / 4096, count: 24), size: 5, bias: 0), "rounding costs over 0.2")
        XCTAssertNotNil(FixedPointKernel([4] + [Float](repeating: 1 / 4096, count: 24), size: 5, bias: 0), "exact in 12 bits")
        XCTAssertNil(FixedPointKernel([Float](repeating: 0.01, count: 49), size: 7, bias: 0), "49 taps")
        XCTAssertNil(FixedPointKernel([0, 0, 0, 0, 40, 0, 0, 0, 0], size: 3, bias: 0), "a weight of 32 or more")
    }

    /// Real photos blurred in fixed point against float64 blurs from the definitions: within 0.75 of a code of the
    /// exact value everywhere (tighter than the catalogue's one code), at widths that leave every remainder of the
    /// SIMD step, heights over several strips (a box's sums carried from strip to strip), a crop below the top (a
    /// box's sums started mid-image), and on both SIMD paths.
    func testPhotosMatchTheDefinitions() throws {
        let binomial: [Double] = [1, 4, 6, 4, 1].map { $0 / 16 }
        let cases: [(String, [(FilterID, [String: ParamValue])], [Double])] = [
            ("gaussian σ0.7", [(.gaussianBlur, ["sigma": 0.7])], Self.gaussian(0.7)),
            ("gaussian σ2", [(.gaussianBlur, ["sigma": 2])], Self.gaussian(2)),
            ("gaussian σ8", [(.gaussianBlur, ["sigma": 8])], Self.gaussian(8)),
            ("box r1", [(.boxBlur, ["radius": 1])], [Double](repeating: 1.0 / 3, count: 3)),
            ("box r5", [(.boxBlur, ["radius": 5])], [Double](repeating: 1.0 / 11, count: 11)),
            ("box r40", [(.boxBlur, ["radius": 40])], [Double](repeating: 1.0 / 81, count: 81)),
            ("binomial 5×5", [(.convolve, ["kernel": .numbers(binomial.flatMap { a in binomial.map { a * $0 * 256 } }),
                                           "normalize": true])], binomial),
        ]
        let photos = [("chelsea rgb8", "photos/chelsea_451x300_rgb8.png"), ("camera grey8", "photos/camera_512_gray8.png")]
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for (photo, file) in photos {
                for (width, height) in [(1, 7), (5, 3), (17, 40), (33, 290), (67, 21), (300, 290)] {
                    let image = try TestImages.crop(file, x: 11, y: 3, width: width, height: height)
                    for (name, steps, taps) in cases {
                        var recipe = Recipe.chain(steps)
                        recipe.workingSpace = .srgb
                        let rendered = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                        let exact = try Self.blurred(image, taps)
                        try assertWithin(rendered, exact, x: 0, y: 0, "\(name) \(photo) \(width)×\(height) avx2 \(avx2)")
                        // A crop below the top of the blur: the rows above it are never computed.
                        guard height > 200 else { continue }
                        let crop: (FilterID, [String: ParamValue]) = (.crop, ["x": 0, "y": 150, "width": .number(Double(width)),
                                                                              "height": 100])
                        var cropped = Recipe.chain(steps + [crop])
                        cropped.workingSpace = .srgb
                        let below = try Renderer(backend: .cpu).render(cropped, images: ["main": image])
                        try assertWithin(below, exact, x: 0, y: 150, "\(name) cropped \(photo) avx2 \(avx2)")
                    }
                }
            }
        }
    }

    /// An unsharp mask whose blur is in fixed point, against C + amount·(C − G_σ(C)) where |C − G_σ(C)| reaches the
    /// threshold, in float64: within ½ + ¼·amount of a code (the blur's error is scaled by the amount), both paths.
    func testUnsharpMaskMatchesTheDefinition() throws {
        for avx2 in [true, false] {
            CPUFeatures.avx2 = avx2
            for (file, width, height) in [("photos/chelsea_451x300_rgb8.png", 67, 45), ("photos/camera_512_gray8.png", 33, 290)] {
                let image = try TestImages.crop(file, x: 11, y: 3, width: width, height: height)
                let bytes = try image.hostBytes(), c = image.format.channels
                for (sigma, amount, threshold) in [(1.0, 0.8, 0.0), (2, 2, 0), (3, 1, 0.05)] {
                    var recipe = Recipe.chain([(.unsharpMask, ["sigma": .number(sigma), "amount": .number(amount),
                                                               "threshold": .number(threshold)])])
                    recipe.workingSpace = .srgb
                    let rendered = try Renderer(backend: .cpu).render(recipe, images: ["main": image])
                    let blurred = try Self.blurred(image, Self.gaussian(sigma))
                    let exact = (0..<height).map { y in
                        (0..<(width * c)).map { i in
                            let s = Double(bytes.load(fromByteOffset: y * image.rowStride + i, as: UInt8.self))
                            let d = s - blurred[y][i]
                            return min(255, max(0, s + (abs(d) >= threshold * 255 ? amount * d : 0)))
                        }
                    }
                    try assertWithin(rendered, exact, x: 0, y: 0, bound: 0.5 + amount / 4,
                                     "unsharp σ\(sigma) ×\(amount) t\(threshold) \(file) avx2 \(avx2)")
                }
            }
        }
    }

    /// Every sample of `rendered` within `bound` (0.75) of a code of `exact` (whose pixel (x, y) is its first).
    func assertWithin(_ rendered: PixelBuffer, _ exact: [[Double]], x: Int, y: Int, bound: Double = 0.75, _ label: String,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try rendered.hostBytes(), channels = rendered.format.channels
        var worst = 0.0, at = ""
        for row in 0..<rendered.height {
            for i in 0..<rendered.width * channels {
                let found = Double(bytes.load(fromByteOffset: row * rendered.rowStride + i, as: UInt8.self))
                let want = exact[y + row][x * channels + i]
                if abs(found - want) > worst { (worst, at) = (abs(found - want), "row \(row) value \(i): \(found) for \(want)") }
            }
        }
        XCTAssertLessThanOrEqual(worst, bound, "\(label): worst at \(at)", file: file, line: line)
    }

    /// `image` (8-bit, opaque) convolved with `taps` across and then down in float64, edges clamped, in codes.
    static func blurred(_ image: PixelBuffer, _ taps: [Double]) throws -> [[Double]] {
        let bytes = try image.hostBytes(), c = image.format.channels, (w, h) = (image.width, image.height)
        let r = taps.count / 2
        func sample(_ x: Int, _ y: Int, _ k: Int) -> Double {
            Double(bytes.load(fromByteOffset: y * image.rowStride + x * c + k, as: UInt8.self))
        }
        let across = (0..<h).map { y in
            (0..<(w * c)).map { i in
                taps.enumerated().reduce(0.0) { sum, tap in sum + tap.1 * sample(min(max(i / c + tap.0 - r, 0), w - 1), y, i % c) }
            }
        }
        return (0..<h).map { y in
            (0..<(w * c)).map { i in
                taps.enumerated().reduce(0.0) { sum, tap in sum + tap.1 * across[min(max(y + tap.0 - r, 0), h - 1)][i] }
            }
        }
    }
}

/// Calls `body` with C pointers to each of `rows`.
private func withRowPointers<T>(_ rows: [[T]], _ body: (UnsafePointer<UnsafePointer<T>?>) -> Void) {
    let copies = rows.map { row -> UnsafeMutablePointer<T> in
        let p = UnsafeMutablePointer<T>.allocate(capacity: row.count)
        p.initialize(from: row, count: row.count)
        return p
    }
    defer { copies.forEach { $0.deallocate() } }
    let pointers: [UnsafePointer<T>?] = copies.map { UnsafePointer($0) }
    pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

private func withMutableRowPointers<T>(_ rows: inout [[T]], _ body: (UnsafePointer<UnsafeMutablePointer<T>?>) -> Void) {
    let copies = rows.map { row -> UnsafeMutablePointer<T> in
        let p = UnsafeMutablePointer<T>.allocate(capacity: row.count)
        p.initialize(from: row, count: row.count)
        return p
    }
    defer { copies.forEach { $0.deallocate() } }
    let pointers: [UnsafeMutablePointer<T>?] = copies
    pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    for (i, p) in copies.enumerated() { rows[i] = Array(UnsafeBufferPointer(start: p, count: rows[i].count)) }
}
