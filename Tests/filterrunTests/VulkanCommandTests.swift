import Foundation
import PNGCodec
import TestSupport
import XCTest

/// filterrun on the Vulkan backend: fallback, failure without partial output, the on-disk kernel cache.
extension FilterRunTests {
    var vignette: String { recipes.appendingPathComponent("vignette.json").path }

    func statsJSON(_ stderr: String) throws -> [String: Any] {
        let line = stderr.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
    }

    func hasVulkan() throws -> Bool {
        let r = try run([vignette, photo, path("probe.png"), "--backend", "vulkan", "--force"])
        return r.code == 0
    }

    func testAutoFallsBackToTheCPUWithOneWarningWhenNoDeviceMatches() throws {
        let r = try run([vignette, photo, path("out.png"), "--stats=json"], environment: ["FILTERRUN_DEVICE": "no-such-gpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }.count, 1, r.stderr)
        XCTAssertEqual(try statsJSON(r.stderr)["backend"] as? String, "cpu")
        let cpu = try run([vignette, photo, path("cpu.png"), "--backend", "cpu"])
        XCTAssertEqual(cpu.code, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("out.png")).samples(), try PNGDecoder.decode(path: path("cpu.png")).samples())
    }

    /// Where a cut is priced cheapest (`PlanSplit`; here a made-up device whose transfers are dear), `auto` shrinks
    /// on the CPU and filters the rest on the device: the stages say so, one upload carries the shrunk image, and the
    /// pixels are the CPU's within a code.
    func testAutoRendersACutPlanWhereTheCutIsCheapest() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let recipe = try write("cut.json", #"{"version": 1, "steps": [{"op": "resize", "width": 112}, {"op": "gaussianBlur", "sigma": 30}, {"op": "vignette"}]}"#)
        let environment = ["FILTERRUN_DEVICE": "llvmpipe", "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/cut-preferred.json")]
        let explained = try run([recipe, photo, path("x.png"), "--explain"], environment: environment)
        XCTAssertTrue(explained.stdout.contains("rendering on the CPU up to 0, then the device"), explained.stdout + explained.stderr)
        let cut = try run([recipe, photo, path("cut.png"), "--stats=json"], environment: environment)
        XCTAssertEqual(cut.code, 0, cut.stderr)
        let stats = try statsJSON(cut.stderr)
        XCTAssertEqual(stats["backend"] as? String, "vulkan")
        XCTAssertEqual((stats["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["render", "device", "encode"])
        XCTAssertEqual(stats["uploads"] as? Int, 1)
        XCTAssertEqual(stats["bytesUploaded"] as? Int, 112 * 75 * 16, "the shrunk image's working values, not the photo")
        XCTAssertEqual(try run([recipe, photo, path("cpu.png"), "--backend", "cpu"]).code, 0)
        let a = try PNGDecoder.decode(path: path("cut.png")), b = try PNGDecoder.decode(path: path("cpu.png"))
        let d = Difference.between(try b.samples(), try a.samples(), width: b.width, channels: b.format.channels)
        XCTAssertLessThanOrEqual(d.worst, 1, "\(d)")
    }

    /// `auto` remembers that the only Vulkan device is a software one, so later runs do not load it; a change to the
    /// installed drivers or the driver-selecting environment makes it look again.
    func testAutoRemembersASoftwareOnlyMachineUntilTheDriversChange() throws {
        let cache = ["XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path]
        let first = try run([vignette, photo, path("1.png")], environment: cache)
        XCTAssertEqual(first.code, 0, first.stderr)
        let record = scratch.appendingPathComponent("cache/filterrun/auto-backend")
        guard let text = try? String(contentsOf: record, encoding: .utf8), text.contains("\nsoftware ") else {
            throw XCTSkip("this machine has a hardware Vulkan device (or none): nothing to remember")
        }
        // Plant a device name only the record knows: seeing it proves the record was used instead of a probe.
        let planted = text.components(separatedBy: "\n")[0] + "\nsoftware Planted Device"
        try planted.write(to: record, atomically: true, encoding: .utf8)
        // Said once, when found: the run that reads the record is silent, unless asked why (--verbose).
        XCTAssertTrue(first.stderr.contains("is a software renderer"), first.stderr)
        let second = try run([vignette, photo, path("2.png")], environment: cache)
        XCTAssertEqual(second.stderr, "", "a remembered software device is not announced again")
        let verbose = try run([vignette, photo, path("2v.png"), "--verbose"], environment: cache)
        XCTAssertTrue(verbose.stderr.contains("the only Vulkan device, Planted Device, is a software renderer"), verbose.stderr)
        let changed = try run([vignette, photo, path("3.png")], environment: cache.merging(["VK_ADD_DRIVER_FILES": "/nonexistent.json"]) { $1 })
        XCTAssertFalse(changed.stderr.contains("Planted Device"), "a driver change makes auto probe again")
        XCTAssertEqual(try PNGDecoder.decode(path: path("2.png")).samples(), try PNGDecoder.decode(path: path("1.png")).samples())
    }

    /// The loader is opened at run time: without it filterrun still starts and renders on the CPU.
    func testMissingLoaderFallsBackUnderAutoAndFailsCleanlyUnderVulkan() throws {
        let noLoader = ["FILTERRUN_VULKAN_LOADER": scratch.appendingPathComponent("no-libvulkan.so.1").path]
        let auto = try run([vignette, photo, path("auto.png"), "--stats=json"], environment: noLoader)
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("warning: Vulkan unavailable (no Vulkan loader"), auto.stderr)
        XCTAssertEqual(try statsJSON(auto.stderr)["backend"] as? String, "cpu")
        let forced = try run([vignette, photo, path("forced.png"), "--backend", "vulkan"], environment: noLoader)
        XCTAssertEqual(forced.code, 4, forced.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("forced.png")))
    }

    func testAllocationFailureFallsBackUnderAutoAndFailsCleanlyUnderVulkan() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        // Room for the device's tables, not for the enlarged result's 9 MB readback (working buffers would band).
        // Rendered whole: streamed, the render holds two bands of the result and fits (below).
        let tiny = ["FILTERRUN_VULKAN_MEMORY_LIMIT": "3000000", "FILTERRUN_DEVICE": "0", "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json"),
                    "FILTERRUN_VULKAN_STREAM_ROWS": "0"]
        let vignette = try write("big.json", #"{"version": 1, "steps": [{"op": "resize", "width": 2000}, {"op": "vignette"}]}"#)
        let forced = try run([vignette, photo, path("forced.png"), "--backend", "vulkan"], environment: tiny)
        XCTAssertEqual(forced.code, 4, forced.stderr)
        XCTAssertTrue(forced.stderr.contains("out of device memory"), forced.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("forced.png")), "no partial output")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.contains("forced") }, [])

        let auto = try run([vignette, photo, path("auto.png"), "--stats=json"], environment: tiny)
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("warning: Vulkan render failed"), auto.stderr)
        XCTAssertEqual(try statsJSON(auto.stderr)["backend"] as? String, "cpu")
        XCTAssertEqual(try run([vignette, photo, path("cpu.png"), "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("auto.png")).samples(), try PNGDecoder.decode(path: path("cpu.png")).samples())

        var streaming = tiny
        streaming["FILTERRUN_VULKAN_STREAM_ROWS"] = nil
        let streamed = try run([vignette, photo, path("streamed.png"), "--backend", "vulkan"], environment: streaming)
        XCTAssertEqual(streamed.code, 0, "streamed, the render fits the same budget: \(streamed.stderr)")
        let a = try PNGDecoder.decode(path: path("streamed.png")), b = try PNGDecoder.decode(path: path("cpu.png"))
        let d = Difference.between(try b.samples(), try a.samples(), width: b.width, channels: b.format.channels)
        XCTAssertLessThanOrEqual(d.worst, 1, "\(d)")
    }

    /// A device with too little free memory for whole-image working buffers renders in bands that fit (the
    /// budget: VK_EXT_memory_budget where present, simulated here), with the pixels of an unlimited render.
    /// Readback memory that is not host-coherent (simulated: lavapipe's is all coherent) is invalidated before the
    /// host reads it: the same pixels, and validation finds nothing wrong with the invalidation's range.
    func testNonCoherentReadbackIsInvalidatedBeforeReading() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let simulated = ["FILTERRUN_VULKAN_NONCOHERENT_READBACK": "1", "FILTERRUN_VULKAN_VALIDATION": "1"]
        let r = try run([vignette, photo, path("noncoherent.png"), "--backend", "vulkan"], environment: simulated)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("VUID") || r.stderr.lowercased().contains("validation"), r.stderr)
        XCTAssertEqual(try run([vignette, photo, path("coherent.png"), "--backend", "vulkan"]).code, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("noncoherent.png")).samples(),
                       try PNGDecoder.decode(path: path("coherent.png")).samples())
    }

    func testWorkingBuffersAreBandedToFitTheMemoryBudget() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let sharpen = recipes.appendingPathComponent("print-sharpen.json").path
        let tight = ["FILTERRUN_VULKAN_MEMORY_LIMIT": "4500000", "FILTERRUN_DEVICE": "0"]
        let explained = try run([sharpen, photo, path("tight.png"), "--backend", "vulkan", "--explain"], environment: tight)
        XCTAssertEqual(explained.code, 0, explained.stderr)
        let bands = explained.stdout.split(separator: "\n").first { $0.contains("band(s) of up to") } ?? ""
        XCTAssertFalse(bands.hasPrefix("  1 band(s)") || bands.isEmpty, explained.stdout)
        XCTAssertEqual(try run([sharpen, photo, path("whole.png"), "--backend", "vulkan"]).code, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("tight.png")).samples(),
                       try PNGDecoder.decode(path: path("whole.png")).samples())
    }

    func testImagesBeyondTheDeviceBufferLimitRenderInBandsOrAreRefusedBeforeAllocating() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let small = ["FILTERRUN_VULKAN_MAX_BUFFER": "300000"]  // 451×300 working buffers are 2.2 MB
        let sharpen = recipes.appendingPathComponent("print-sharpen.json").path
        let banded = try run([sharpen, photo, path("banded.png"), "--backend", "vulkan"], environment: small)
        XCTAssertEqual(banded.code, 0, banded.stderr)
        XCTAssertEqual(try run([sharpen, photo, path("whole.png"), "--backend", "vulkan"]).code, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("banded.png")).samples(), try PNGDecoder.decode(path: path("whole.png")).samples())

        // A quarter turn reads its input whole: with the input beyond the limit it cannot run on this device.
        let rotate = try write("rotate.json", #"{"version": 1, "steps": [{"op": "rotate", "degrees": "90"}]}"#)
        let r = try run([rotate, photo, path("out.png"), "--backend", "vulkan"], environment: small)
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("maxStorageBufferRange"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
        let auto = try run([rotate, photo, path("auto.png"), "--stats=json"], environment: small.merging(["FILTERRUN_DEVICE": "0", "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json")]) { $1 })
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertEqual(try statsJSON(auto.stderr)["backend"] as? String, "cpu")
    }

    /// The driver's pipeline cache is saved beside the SPIR-V cache, read back by the next process, and a damaged
    /// file is ignored by the driver (the render is the same); no temporary file is left.
    func testPipelineCacheIsSavedAndADamagedOneIsHarmless() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let cache = ["XDG_CACHE_HOME": scratch.appendingPathComponent("pcache").path]
        XCTAssertEqual(try run([vignette, photo, path("p1.png"), "--backend", "vulkan"], environment: cache).code, 0)
        let dir = scratch.appendingPathComponent("pcache/filterrun/pipelines")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertEqual(files.filter { $0.hasSuffix(".bin") }.count, 1, "\(files)")
        XCTAssertEqual(files.filter { $0.hasPrefix(".") }, [], "no temporary files")
        let file = dir.appendingPathComponent(files.first { $0.hasSuffix(".bin") } ?? "")
        XCTAssertGreaterThan(try Data(contentsOf: file).count, 16)
        XCTAssertEqual(try run([vignette, photo, path("p2.png"), "--backend", "vulkan"], environment: cache).code, 0)
        try Data((0..<64).map { UInt8($0 * 37 & 0xFF) }).write(to: file)
        XCTAssertEqual(try run([vignette, photo, path("p3.png"), "--backend", "vulkan"], environment: cache).code, 0)
        let first = try PNGDecoder.decode(path: path("p1.png")).samples()
        XCTAssertEqual(try PNGDecoder.decode(path: path("p2.png")).samples(), first)
        XCTAssertEqual(try PNGDecoder.decode(path: path("p3.png")).samples(), first)
    }

    func testKernelCacheOnDiskIsReusedSharedAndSurvivesCorruption() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let cache = ["XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path]
        let first = try run([vignette, photo, path("1.png"), "--backend", "vulkan", "--stats=json"], environment: cache)
        XCTAssertEqual(first.code, 0, first.stderr)
        XCTAssertGreaterThan(try statsJSON(first.stderr)["kernelsCompiled"] as? Int ?? 0, 0)
        let second = try run([vignette, photo, path("2.png"), "--backend", "vulkan", "--stats=json"], environment: cache)
        let stats = try statsJSON(second.stderr)
        XCTAssertEqual(stats["kernelsCompiled"] as? Int, 0, "every kernel comes from the disk cache")
        XCTAssertEqual(stats["kernelsFromDiskCache"] as? Int, try statsJSON(first.stderr)["kernelsCompiled"] as? Int)

        // Corrupt every cached file: the next run notices, recompiles and renders the same pixels.
        let dir = scratch.appendingPathComponent("cache/filterrun/spirv")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".spv") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            var bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(file)))
            bytes[bytes.count / 2] ^= 0xFF
            try Data(bytes).write(to: dir.appendingPathComponent(file))
        }
        let third = try run([vignette, photo, path("3.png"), "--backend", "vulkan", "--stats=json"], environment: cache)
        XCTAssertEqual(third.code, 0, third.stderr)
        XCTAssertEqual(try statsJSON(third.stderr)["kernelsFromDiskCache"] as? Int, 0)
        XCTAssertEqual(try PNGDecoder.decode(path: path("3.png")).samples(), try PNGDecoder.decode(path: path("1.png")).samples())

        // Processes starting together on an empty cache all succeed and agree.
        let shared = ["XDG_CACHE_HOME": scratch.appendingPathComponent("shared").path]
        let outputs = (0..<4).map { path("c\($0).png") }
        let processes = try outputs.map { output -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = [vignette, photo, output, "--backend", "vulkan"]
            process.environment = ProcessInfo.processInfo.environment.merging(shared) { $1 }
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit(); XCTAssertEqual(process.terminationStatus, 0) }
        let reference = try PNGDecoder.decode(path: path("1.png")).samples()
        for output in outputs { XCTAssertEqual(try PNGDecoder.decode(path: output).samples(), reference, output) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("shared/filterrun/spirv").path)
        XCTAssertTrue(leftovers.allSatisfy { $0.hasSuffix(".spv") }, "no temporary files left: \(leftovers)")
    }
}

extension FilterRunTests {
    /// The validation layer's messages reach the messenger and stderr (best-practices mode warns about one
    /// allocation a buffer, which the memory pool avoids and its test hook brings back); a missing layer is a clear
    /// error, not silence.
    func testValidationMessagesAreReported() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        guard FileManager.default.fileExists(atPath: "/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json") else {
            throw XCTSkip("the Khronos validation layer is not installed")
        }
        let r = try run([vignette, photo, path("validated.png"), "--backend", "vulkan"],
                        environment: ["FILTERRUN_VULKAN_VALIDATION": "best-practices",
                                      "FILTERRUN_VULKAN_DEDICATED_ALLOCATIONS": "1"], allowValidationMessages: true)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("vulkan validation: warning:") && r.stderr.contains("small-dedicated-allocation"), r.stderr)
        let clean = try run([vignette, photo, path("clean.png"), "--backend", "vulkan"], environment: ["FILTERRUN_VULKAN_VALIDATION": "1"])
        XCTAssertEqual(clean.code, 0, clean.stderr)
        XCTAssertFalse(clean.stderr.contains("vulkan validation"), clean.stderr)
    }
}

extension FilterRunTests {
    /// A lost device (simulated: the first submit reports VK_ERROR_DEVICE_LOST) retires the process's Vulkan
    /// context: under `auto` the render falls back to the CPU with one warning and the same pixels; under `vulkan`
    /// it fails with exit 4 and writes nothing.
    func testDeviceLossRetiresTheContext() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let lost = ["FILTERRUN_VULKAN_SIMULATE_DEVICE_LOSS": "1", "FILTERRUN_DEVICE": "llvmpipe", "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json")]
        let auto = try run([vignette, photo, path("auto.png"), "--backend", "auto"], environment: lost)
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("was lost during the render") && auto.stderr.contains("rendering on the CPU"), auto.stderr)
        XCTAssertEqual(try run([vignette, photo, path("cpu.png"), "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("auto.png"))),
                       try PixelDigest.packedBytes(PNGDecoder.decode(path: path("cpu.png"))))
        let vulkan = try run([vignette, photo, path("vulkan.png"), "--backend", "vulkan"], environment: lost)
        XCTAssertEqual(vulkan.code, 4, vulkan.stderr)
        XCTAssertTrue(vulkan.stderr.contains("lost"), vulkan.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("vulkan.png")))
        // A batch goes on after the loss: every later file renders on the CPU.
        let folder = path("lost-in"), out = path("lost-out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["a.png", "b.png", "c.png"] { try FileManager.default.copyItem(atPath: photo, toPath: folder + "/" + name) }
        let batch = try run([vignette, folder, out, "--backend", "auto", "--jobs", "1"], environment: lost)
        XCTAssertEqual(batch.code, 0, batch.stderr)
        for name in ["a.png", "b.png", "c.png"] {
            XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: out + "/" + name)),
                           try PixelDigest.packedBytes(PNGDecoder.decode(path: path("cpu.png"))), name)
        }
    }
}

extension FilterRunTests {
    /// A device below what the kernels need (simulated: 4 storage buffers a kernel, the guaranteed minimum, where
    /// the kernels bind 6) is refused when the context is made, naming the limit: `auto` renders on the CPU.
    func testDevicesBelowTheKernelsNeedsAreRefusedByName() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let small = ["FILTERRUN_VULKAN_MAX_BINDINGS": "4", "FILTERRUN_DEVICE": "llvmpipe", "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json")]
        let auto = try run([vignette, photo, path("auto.png"), "--backend", "auto"], environment: small)
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("maxPerStageDescriptorStorageBuffers") && auto.stderr.contains("CPU"), auto.stderr)
        let vulkan = try run([vignette, photo, path("vulkan.png"), "--backend", "vulkan"], environment: small)
        XCTAssertEqual(vulkan.code, 4, vulkan.stderr)
        XCTAssertTrue(vulkan.stderr.contains("binds at most 4 storage buffers"), vulkan.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("vulkan.png")))
    }
}

extension FilterRunTests {
    /// `auto` with a device in play prices the render on both backends from the device's profile and renders on the
    /// cheaper: with lavapipe's recorded profile the CPU (the price in `--explain`, `--verbose` and `--stats`), with
    /// a profile where the device costs nothing the device; an unreadable profile is an error naming the variable.
    func testAutoRendersWhereTheProfilesPriceTheRenderCheaper() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let lavapipe = ["FILTERRUN_DEVICE": "llvmpipe",
                        "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/lavapipe-epyc-2core.json")]
        let explained = try run([vignette, photo, path("x.png"), "--explain"], environment: lavapipe)
        XCTAssertEqual(explained.code, 0, explained.stderr)
        XCTAssertTrue(explained.stdout.contains("auto by cost: CPU ≈") && explained.stdout.contains("rendering on the CPU"),
                      explained.stdout)
        let cpu = try run([vignette, photo, path("cpu.png"), "--stats=json"], environment: lavapipe)
        XCTAssertEqual(cpu.code, 0, cpu.stderr)
        let stats = try statsJSON(cpu.stderr)
        XCTAssertEqual(stats["backend"] as? String, "cpu")
        XCTAssertTrue((stats["backendChoice"] as? String)?.contains("llvmpipe") == true, cpu.stderr)
        let verbose = try run([vignette, photo, path("verbose.png"), "--verbose", "--force"], environment: lavapipe)
        XCTAssertTrue(verbose.stderr.contains("note: auto by cost"), verbose.stderr)

        let preferred = ["FILTERRUN_DEVICE": "llvmpipe",
                         "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json")]
        let device = try run([vignette, photo, path("device.png"), "--stats=json"], environment: preferred)
        XCTAssertEqual(device.code, 0, device.stderr)
        XCTAssertEqual(try statsJSON(device.stderr)["backend"] as? String, "vulkan")

        let broken = try write("broken-profile.json", "{\"cpu\": 1}")
        let refused = try run([vignette, photo, path("broken.png")], environment: ["FILTERRUN_DEVICE": "llvmpipe",
                                                                                 "FILTERRUN_DEVICE_PROFILE": broken])
        XCTAssertNotEqual(refused.code, 0)
        XCTAssertTrue(refused.stderr.contains("FILTERRUN_DEVICE_PROFILE=") && refused.stderr.contains("not a device profile"),
                      refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("broken.png")))
    }

    /// The first `auto` render with a device measures both backends once and caches the profiles beside the
    /// auto-backend record, keyed by the drivers and the device choice; the next render reads them (a profile
    /// planted in the cache decides it) and opens nothing to measure again.
    func testAutoMeasuresTheDeviceOnceAndCachesTheProfiles() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let environment = ["XDG_CACHE_HOME": scratch.appendingPathComponent("profile-cache").path, "FILTERRUN_DEVICE": "llvmpipe"]
        let first = try run([vignette, photo, path("first.png"), "--stats=json"], environment: environment)
        XCTAssertEqual(first.code, 0, first.stderr)
        let file = scratch.appendingPathComponent("profile-cache/filterrun/auto-backend-profiles.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", maxSplits: 1)
        XCTAssertTrue(lines[0].hasSuffix("FILTERRUN_DEVICE=llvmpipe"), String(lines[0]))
        let measured = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [String: [String: Any]]
        for side in ["cpu", "device"] {
            for figure in ["pixelSeconds", "renderSeconds"] {
                XCTAssertGreaterThan(measured[side]?[figure] as? Double ?? 0, 0, "\(side).\(figure): \(text)")
            }
        }
        XCTAssertTrue((measured["device"]?["name"] as? String)?.contains("llvmpipe") == true, text)
        XCTAssertEqual(try statsJSON(first.stderr)["backend"] as? String, "cpu", first.stderr)
        // A planted profile under the same key decides the next render.
        let planted = try String(contentsOfFile: Fixtures.path("device-profiles/device-preferred.json"), encoding: .utf8)
        try (String(lines[0]) + "\n" + planted).write(to: file, atomically: true, encoding: .utf8)
        let second = try run([vignette, photo, path("second.png"), "--stats=json"], environment: environment)
        XCTAssertEqual(second.code, 0, second.stderr)
        XCTAssertEqual(try statsJSON(second.stderr)["backend"] as? String, "vulkan", second.stderr)
    }
}

extension FilterRunTests {
    /// A batch's `--stats=json` lays each file's stages (decode, device, encode on Vulkan; render on the CPU) on the
    /// batch's clock: with two jobs on the device the files overlap (their stages sum to more than the wall time),
    /// with one they follow each other; each file's stages run in order.
    func testBatchStagesShowHowFilesOverlap() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let folder = path("overlap-in")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for k in 0..<6 { try FileManager.default.copyItem(atPath: photo, toPath: folder + "/p\(k).png") }
        var sums = [Int: (stages: Double, wall: Double)]()
        for jobs in [1, 2] {
            let out = path("overlap-out-\(jobs)")
            let r = try run([vignette, folder, out, "--backend", "vulkan", "--jobs", "\(jobs)", "--stats=json"])
            XCTAssertEqual(r.code, 0, r.stderr)
            let summary = try statsJSON(r.stderr)
            let files = summary["files"] as! [[String: Any]]
            XCTAssertEqual(files.count, 6)
            for file in files {
                let stages = file["stages"] as! [[String: Any]]
                XCTAssertEqual(stages.map { $0["name"] as! String }, ["decode", "device", "encode"], "\(file)")
                let starts = stages.map { $0["start"] as! Double }
                XCTAssertEqual(starts, starts.sorted(), "\(file)")
                XCTAssertGreaterThanOrEqual(starts[0], 0)
            }
            sums[jobs] = (summary["stageSeconds"] as! Double, summary["seconds"] as! Double)
        }
        XCTAssertLessThanOrEqual(sums[1]!.stages, sums[1]!.wall * 1.01, "one job: \(sums[1]!)")
        XCTAssertGreaterThan(sums[2]!.stages, sums[2]!.wall * 1.1, "two jobs: \(sums[2]!)")
    }
}

extension FilterRunTests {
    /// A device render streamed band by band (forced here on a small photo with `FILTERRUN_VULKAN_STREAM_ROWS`; by
    /// default from a megapixel) writes the file the whole render writes, at 8 and 16 bits; its stages show the
    /// decoder and the device taking turns, a band at a time. A file that fails part way through leaves no output.
    func testDeviceRendersStreamBandByBandWithTheWholeRendersFile() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        let streaming = ["FILTERRUN_VULKAN_STREAM_ROWS": "48"], whole = ["FILTERRUN_VULKAN_STREAM_ROWS": "0"]
        let photos = [photo, Fixtures.path("photos/kleiber_crop_320x240_rgb16.png")]
        for (recipe, input) in [("vintage", photos[0]), ("print-sharpen", photos[0]), ("web-thumbnail", photos[0]),
                                ("vignette", photos[1])] {
            let file = recipes.appendingPathComponent("\(recipe).json").path
            let s = try run([file, input, path("s.png"), "--backend", "vulkan", "--stats=json", "--force"], environment: streaming)
            XCTAssertEqual(s.code, 0, s.stderr)
            let w = try run([file, input, path("w.png"), "--backend", "vulkan", "--stats=json", "--force"], environment: whole)
            XCTAssertEqual(w.code, 0, w.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("s.png"))),
                           try Data(contentsOf: URL(fileURLWithPath: path("w.png"))), "\(recipe): the same file")
            let stages = (try statsJSON(s.stderr)["stages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            XCTAssertGreaterThan(stages.filter { $0 == "decode" }.count, 1, "\(recipe): \(stages)")
            XCTAssertEqual(stages.filter { $0 == "decode" }.count, stages.filter { $0 == "device" }.count, "\(recipe): \(stages)")
            let wholeStages = (try statsJSON(w.stderr)["stages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            XCTAssertEqual(wholeStages, ["decode", "device", "encode"], recipe)
        }
        // The photo cut short: the decoder fails in a later band, after earlier bands went to the encoder.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: path("short.png")))
        let folder = scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let failed = try run([vignette, path("short.png"), folder.appendingPathComponent("x.png").path, "--backend", "vulkan"],
                             environment: streaming)
        XCTAssertNotEqual(failed.code, 0, failed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no output, no temporary")
    }
}

extension FilterRunTests {
    /// A device lost part way through a streamed render (a band's submit, after earlier bands were written) under
    /// `auto`: the file is rendered again on the CPU, with one warning and the CPU's pixels; under `vulkan` it fails
    /// with exit 4 and writes nothing.
    func testADeviceLostPartWayThroughAStreamedRenderRendersAgainOnTheCPU() throws {
        guard try hasVulkan() else { throw XCTSkip("no Vulkan device") }
        // The process's fourth submit: after the conversion tables' and bands 1 and 2 of 7 (rows delivered).
        let lost = ["FILTERRUN_VULKAN_SIMULATE_DEVICE_LOSS": "4", "FILTERRUN_DEVICE": "llvmpipe",
                    "FILTERRUN_DEVICE_PROFILE": Fixtures.path("device-profiles/device-preferred.json"),
                    "FILTERRUN_VULKAN_STREAM_ROWS": "48"]
        let auto = try run([vignette, photo, path("auto.png"), "--backend", "auto", "--stats=json"], environment: lost)
        XCTAssertEqual(auto.code, 0, auto.stderr)
        XCTAssertTrue(auto.stderr.contains("rendered again on the CPU"), auto.stderr)
        XCTAssertEqual(try statsJSON(auto.stderr)["backend"] as? String, "cpu")
        XCTAssertEqual(try run([vignette, photo, path("cpu.png"), "--backend", "cpu"]).code, 0)
        XCTAssertEqual(try PixelDigest.packedBytes(PNGDecoder.decode(path: path("auto.png"))),
                       try PixelDigest.packedBytes(PNGDecoder.decode(path: path("cpu.png"))))
        let vulkan = try run([vignette, photo, path("vulkan.png"), "--backend", "vulkan"], environment: lost)
        XCTAssertEqual(vulkan.code, 4, vulkan.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("vulkan.png")))
    }
}
