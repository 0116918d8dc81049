import FilterRecipe
import Foundation

/// Bytes rendered through the public face as an image input: an inversion to PNG on the CPU under small limits
/// (2^18 pixels, 16 MiB held) that stand in for the defaults, so a decoder's over-allocation shows as a refusal,
/// not a fuzzer out-of-memory. A result or a RenderError; anything else is the finding.
public enum FuzzRender {
    /// `failOn`: nil keeps the default (damage stops decoding).
    public static func renderer(failOn: FailOn? = nil) -> Renderer {
        var options = Renderer.Options()
        options.maxPixels = 1 << 18
        options.maxMemory = 16 << 20
        options.failOn = failOn ?? options.failOn
        return Renderer(backend: .cpu, options: options)
    }

    public static let inversion = try! Image(input: "main").invert().recipe
    static let strict = renderer()

    /// Renders `count` bytes at `bytes` (nil: nothing to do) with the inversion; always 0, libFuzzer's "keep going".
    public static func invert(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let bytes else { return 0 }
        invert(Data(bytes: bytes, count: count))
        return 0
    }

    public static func invert(_ data: Data) {
        _ = try? strict.render(inversion, encoded: ["main": data], as: .png)
    }

    /// Renders `count` bytes at `bytes` as an animation named `name` (its extension tells nothing: the bytes do),
    /// frame by frame with the inversion, into an animated WebP that is then removed; at most `maxWork` pixel-taps.
    public static func animate(_ bytes: UnsafePointer<UInt8>?, _ count: Int, name: String, maxWork: Double) -> Int32 {
        guard let bytes, count >= 2 else { return 0 }
        var renderer = renderer()
        renderer.options.replaceExisting = true
        renderer.options.maxWork = maxWork
        let output = NSTemporaryDirectory() + "fuzz-animation-\(getpid()).webp"
        _ = try? renderer.renderAnimation(inversion, sources: ["main": .encoded(Data(bytes: bytes, count: count), name: name)],
                                          output: output)
        try? FileManager.default.removeItem(atPath: output)
        return 0
    }

    /// The size paths of `count` bytes at `bytes`: `explain` (headers, declared sizes, the plan's budget) and an
    /// animation render under a work limit of one pixel-tap (each reader's up-front count, no frame decoded).
    public static func declaredSizes(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        guard let bytes, count >= 2 else { return 0 }
        let data = Data(bytes: bytes, count: count)
        _ = try? strict.explain(inversion, sources: ["main": .encoded(data, name: "fuzz")])
        return animate(bytes, count, name: "fuzz", maxWork: 1)
    }
}
