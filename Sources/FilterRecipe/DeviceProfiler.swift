import FilterCore
import Foundation
import Synchronization
import VulkanBackend

/// The profiles `auto` prices plans with (`BackendChoice`): read from `FILTERRUN_DEVICE_PROFILE` (a recorded
/// file: the tests keep the H100's and lavapipe's), else from the cache beside the auto-backend record when it was
/// measured under the same drivers and device choice, else measured now — the device opened and three small
/// renders timed on each backend, about a second once per machine — and cached.
enum DeviceProfiler {
    static let recordedVariable = "FILTERRUN_DEVICE_PROFILE"

    static var cacheFile: URL {
        AutoBackendProbe.cacheFile.deletingLastPathComponent().appendingPathComponent("auto-backend-profiles.json")
    }

    /// What the cache is keyed by: the drivers' fingerprint and the device choice.
    static func key() -> String {
        AutoBackendProbe.fingerprint() + " FILTERRUN_DEVICE=" + (ProcessInfo.processInfo.environment["FILTERRUN_DEVICE"] ?? "")
    }

    /// The recorded or cached profiles, without opening the device; nil when they must be measured. A recorded file
    /// that cannot be read is an error (a test or an operator asked for it).
    static func known() throws -> BackendProfiles? {
        // Read once a process: every `auto` render asks (twice), and the drivers' fingerprint lists folders.
        if case .some(let remembered) = remembered.withLock({ $0 }) { return remembered }
        let found = try read()
        remembered.withLock { $0 = .some(found) }
        return found
    }

    /// What `known()` found in this process (nil: not looked yet).
    private static let remembered = Mutex<BackendProfiles??>(nil)

    private static func read() throws -> BackendProfiles? {
        if let path = ProcessInfo.processInfo.environment[recordedVariable], !path.isEmpty {
            do { return try BackendProfiles(json: Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw RenderError.device(.init(kind: .unavailable, message: "\(recordedVariable)=\(path): not a device "
                    + "profile (\(error))"))
            }
        }
        guard let text = try? String(contentsOf: cacheFile, encoding: .utf8),
              let split = text.firstIndex(of: "\n"), String(text[..<split]) == key() else { return nil }
        return try? BackendProfiles(json: Data(text[text.index(after: split)...].utf8))
    }

    /// The known profiles, or measured now on `context` (already open: `openSeconds` is what opening it took) and cached.
    static func profiles(opening openSeconds: Double) throws -> BackendProfiles {
        if let known = try known() { return known }
        let context = try VulkanContext.shared()
        let measured = BackendProfiles(cpu: try measure(.cpu, name: "CPU (\(WorkerPool.width) cores)", openSeconds: 0),
                                       device: try measure(.vulkan, name: context.deviceName, openSeconds: openSeconds))
        remembered.withLock { $0 = .some(measured) }
        if let json = try? measured.jsonData() {
            try? FileManager.default.createDirectory(at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? (key() + "\n" + String(decoding: json, as: UTF8.self)).write(to: cacheFile, atomically: true, encoding: .utf8)
        }
        return measured
    }

    /// Times a per-pixel step and a σ 6 Gaussian on a 1536×1024 RGB picture, and the per-pixel step on 16×16 cold
    /// (the kernels' first use) and warm (a render's own overhead), medians of three; the per-pixel and per-tap
    /// seconds are what the two large renders leave after the overhead, by their plans' pixels and pixel-taps.
    static func measure(_ backend: Backend, name: String, openSeconds: Double) throws -> BackendProfile {
        let renderer = Renderer(backend: backend)
        let point = try Recipe(json: Data(#"{"version": 1, "steps": [{"op": "exposure", "ev": 0.5}]}"#.utf8))
        let wide = try Recipe(json: Data(#"{"version": 1, "steps": [{"op": "gaussianBlur", "sigma": 6}]}"#.utf8))
        let large = try picture(width: 1536, height: 1024), tiny = try picture(width: 16, height: 16)
        func seconds(_ recipe: Recipe, _ image: PixelBuffer, runs: Int) throws -> Double {
            var times = [Double]()
            for _ in 0..<runs {
                let began = monotonicSeconds()
                _ = try renderer.render(recipe, images: ["main": image], format: .rgb8)
                times.append(monotonicSeconds() - began)
            }
            return times.sorted()[times.count / 2]
        }
        let cold = try seconds(point, tiny, runs: 1)
        let overhead = try seconds(point, tiny, runs: 3)
        _ = try seconds(wide, tiny, runs: 1)
        let pointSeconds = try seconds(point, large, runs: 3) - overhead
        let wideSeconds = try seconds(wide, large, runs: 3) - overhead
        let pointWork = BackendChoice.Work(try renderer.plan(point, images: ["main": large]))
        let wideWork = BackendChoice.Work(try renderer.plan(wide, images: ["main": large]))
        let pixelSeconds = max(pointSeconds, 1e-6) / max(pointWork.pixels, 1)
        let tapSeconds = max(0, wideSeconds - wideWork.pixels * pixelSeconds) / max(wideWork.extraTaps, 1)
        return BackendProfile(name: name, openSeconds: openSeconds,
                              nodeFirstUseSeconds: max(0, cold - overhead) / Double(max(1, pointWork.nodes)),
                              renderSeconds: overhead, pixelSeconds: pixelSeconds, tapSeconds: tapSeconds)
    }

    /// A smooth RGB picture (gradients, so no plan step is skipped as an identity).
    static func picture(width: Int, height: Int) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = UInt8(x * 255 / max(1, width - 1))
                bytes[i + 1] = UInt8(y * 255 / max(1, height - 1))
                bytes[i + 2] = UInt8((x + y) & 255)
            }
        }
        return try PixelBuffer(width: width, height: height, format: .rgb8, copying: Data(bytes))
    }
}
