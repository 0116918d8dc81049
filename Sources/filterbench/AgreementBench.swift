import FilterCore
import FilterRecipe
import Foundation
import PNGCodec
import VulkanBackend

/// The backends against each other on the device at hand: every recipe, and every catalogue filter at its defaults,
/// rendered in memory on the CPU and on Vulkan from a centre crop of one photo, as 8-bit RGB, 8-bit RGBA (an alpha
/// ramp) and 16-bit RGB; the worst sample difference set beside the tolerance the filters state. The test suite
/// checks the same with swept parameters on lavapipe; this checks a real driver, where no Swift toolchain runs.
enum AgreementBench {
    static func run(photo: String, recipes: [String], scratch: URL, machine: String) throws {
        let crop = try centreCrop(PNGDecoder.decode(path: photo), width: 1024, height: 768)
        let layouts: [(String, PixelBuffer)] = [("rgb8", crop), ("rgba8", try withAlphaRamp(crop)), ("rgb16", try widened(crop))]
        print("CPU against Vulkan (\((try? VulkanContext.shared().description) ?? "no device")); host: \(machine)")
        print("a 1024×768 crop of \(URL(fileURLWithPath: photo).lastPathComponent); worst difference in codes of the output depth, colour weighed by its pixel's alpha; a step function (threshold, posterize, unsharp threshold) may flip 0.2 % of its samples")
        print("| case | " + layouts.map(\.0).joined(separator: " | ") + " | tolerance (8-bit codes) |")
        print("|---|" + String(repeating: "---|", count: layouts.count + 1))
        let cases = try recipes + BenchRecipes.singleFilters(in: scratch)
        var over = 0
        for file in cases {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let recipe: Recipe
            do { recipe = try Recipe(contentsOfFile: file) } catch {
                print("| \(name) | not read: \(error) |"); over += layouts.count; continue
            }
            let tolerance = recipe.nodes.map(\.op.spec.tolerance).max() ?? 0
            var cells = [String]()
            for (_, image) in layouts {
                let inputs = Dictionary(uniqueKeysWithValues: recipe.inputs.map { ($0, image) })
                do {
                    let cpu = try Renderer(backend: .cpu).render(recipe, images: inputs)
                    let gpu = try Renderer(backend: .vulkan).render(recipe, images: inputs)
                    guard cpu.format == gpu.format, cpu.width == gpu.width, cpu.height == gpu.height else {
                        cells.append("shape differs: \(cpu) / \(gpu)"); over += 1; continue
                    }
                    let allowed = tolerance * (cpu.format.depth == 16 ? 257 : 1)
                    let (worst, beyond) = try differences(cpu, gpu, allowed: allowed, stepFunction: hasStep(recipe))
                    if beyond > 0 { over += 1 }
                    let shown = worst.rounded() == worst ? String(Int(worst)) : String(format: "%.2f", worst)
                    cells.append(beyond > 0 ? "**\(shown)** at \(beyond) of \(cpu.width * cpu.height * cpu.format.channels) samples" : shown)
                } catch {
                    cells.append("not rendered: \(error)".replacingOccurrences(of: "|", with: "/"))
                }
            }
            print("| \(name) | " + cells.joined(separator: " | ") + " | \(tolerance) |")
        }
        print("\(over) of \(cases.count * layouts.count) renders differ by more than their tolerance")
    }

    /// The worst difference between two integer buffers of one format, in codes, by the test suite's rules: colour
    /// is weighed by its pixel's opacity (what it contributes when shown: a clear pixel's colour is invisible, and
    /// at alpha 1/255 float noise in premultiplied values is amplified 255×), and a step function may put up to
    /// 0.2 % of its samples on the other side of a step. Returns the worst weighed difference and, when it is over
    /// `allowed`, how many samples are.
    static func differences(_ a: PixelBuffer, _ b: PixelBuffer, allowed: Double, stepFunction: Bool) throws -> (worst: Double, beyond: Int) {
        guard !a.format.isFloat else { return (-1, 0) }
        let x = try samples(a), y = try samples(b)
        let channels = a.format.channels, hasAlpha = a.format.hasAlpha, maxCode = a.format.depth == 16 ? 65535.0 : 255
        var worst = 0.0, beyond = 0
        for i in 0..<min(x.count, y.count) {
            let alpha = i - i % channels + channels - 1
            let weight = hasAlpha && i != alpha ? min(1, Double(max(x[alpha], y[alpha])) / maxCode) : 1
            let d = Double(abs(x[i] - y[i])) * weight
            worst = max(worst, d)
            if d > allowed { beyond += 1 }
        }
        if stepFunction && Double(beyond) <= Double(x.count) * 0.002 { beyond = 0 }
        return (worst, beyond)
    }

    static func samples(_ image: PixelBuffer) throws -> [Int] {
        let data = try image.packedData()
        if image.format.depth == 8 { return data.map(Int.init) }
        return data.withUnsafeBytes { $0.bindMemory(to: UInt16.self).map(Int.init) }
    }

    /// Whether the recipe's output is a step function of its input somewhere (threshold, posterize, an unsharp
    /// mask with a threshold), so that float rounding may flip the few samples that sit on a step.
    static func hasStep(_ recipe: Recipe) -> Bool {
        recipe.nodes.contains { node in
            node.op == .threshold || node.op == .posterize
                || (node.op == .unsharpMask && (node.params.values["threshold"].map { $0 != .number(0) } ?? false))
        }
    }

    static func centreCrop(_ image: PixelBuffer, width: Int, height: Int) throws -> PixelBuffer {
        let w = min(width, image.width), h = min(height, image.height)
        let x0 = (image.width - w) / 2, y0 = (image.height - h) / 2
        let bytes = image.format.channels * image.format.bytesPerSample
        let all = try image.packedData()
        var out = Data(capacity: w * h * bytes)
        for y in y0..<(y0 + h) {
            let start = (y * image.width + x0) * bytes
            out.append(all[start..<(start + w * bytes)])
        }
        return try PixelBuffer(width: w, height: h, format: image.format, copying: out)
    }

    /// The 8-bit image with an alpha channel falling from opaque at the left edge to clear at the right.
    static func withAlphaRamp(_ image: PixelBuffer) throws -> PixelBuffer {
        let rgb = try image.packedData(), c = image.format.channels
        guard image.format == .rgb8 else { return image }
        var out = Data(capacity: image.width * image.height * 4)
        for p in 0..<(image.width * image.height) {
            out.append(contentsOf: rgb[(p * c)..<(p * c + 3)])
            out.append(UInt8(255 - (p % image.width) * 255 / max(1, image.width - 1)))
        }
        return try PixelBuffer(width: image.width, height: image.height, format: .rgba8, copying: out)
    }

    /// The 8-bit image at 16 bits (each code × 257), in the buffer's native byte order.
    static func widened(_ image: PixelBuffer) throws -> PixelBuffer {
        guard image.format.depth == 8, let wide = PixelFormat.integer(channels: image.format.channels, depth: 16) else { return image }
        let narrow = try image.packedData()
        var out = Data(count: narrow.count * 2)
        out.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt16.self)
            for i in 0..<narrow.count { words[i] = UInt16(narrow[i]) * 257 }
        }
        return try PixelBuffer(width: image.width, height: image.height, format: wide, copying: out)
    }
}
