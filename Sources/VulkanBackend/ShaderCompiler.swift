import CGlslang
import Foundation

/// GLSL → SPIR-V through glslang's C API, cached in memory by source hash and on disk under
/// `$XDG_CACHE_HOME/filterrun/spirv` (written by rename, so concurrent processes never see half a file; a file that
/// fails its checksum is ignored and rewritten).
package enum ShaderCompiler {
    /// How each request was served in this process (tests read these).
    package struct Counters: Equatable, Sendable { package var memoryHits = 0, diskHits = 0, compiled = 0 }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var memory: [UInt64: [UInt32]] = [:]
    nonisolated(unsafe) private static var counts = Counters()
    private static let initialized: Bool = glslang_initialize_process() != 0
    /// Changes whenever the compile settings change, so old cache files are not reused.
    static let salt = "glslang-vulkan1.1-spv1.3-v1"

    package static var counters: Counters { lock.withLock { counts } }

    package static var cacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("filterrun/spirv")
    }

    static func hash(_ source: String) -> UInt64 { FNV1a.hash(Array((salt + source).utf8)) }

    /// The SPIR-V words of `source`; `name` labels compile errors.
    static func spirv(for source: String, name: String) throws -> [UInt32] {
        let key = hash(source)
        if let words = lock.withLock({ memory[key] }) {
            lock.withLock { counts.memoryHits += 1 }
            return words
        }
        let file = cacheDirectory.appendingPathComponent(String(format: "%016llx.spv", key))
        if let words = readCache(file, key: key) {
            lock.withLock { memory[key] = words; counts.diskHits += 1 }
            return words
        }
        let words = try lock.withLock { try compile(source, name: name) }
        lock.withLock { memory[key] = words; counts.compiled += 1 }
        writeCache(file, key: key, words: words)
        return words
    }

    private static func compile(_ source: String, name: String) throws -> [UInt32] {
        guard initialized else { throw VulkanError(.shader, "glslang could not be initialised") }
        return try source.withCString { code in
            var input = glslang_input_t()
            input.language = GLSLANG_SOURCE_GLSL
            input.stage = GLSLANG_STAGE_COMPUTE
            input.client = GLSLANG_CLIENT_VULKAN
            input.client_version = GLSLANG_TARGET_VULKAN_1_1
            input.target_language = GLSLANG_TARGET_SPV
            input.target_language_version = GLSLANG_TARGET_SPV_1_3
            input.code = code
            input.default_version = 450
            input.default_profile = GLSLANG_NO_PROFILE
            input.messages = GLSLANG_MSG_DEFAULT_BIT
            input.resource = glslang_default_resource()
            guard let shader = glslang_shader_create(&input) else { throw VulkanError(.shader, "\(name): glslang failed") }
            defer { glslang_shader_delete(shader) }
            guard glslang_shader_preprocess(shader, &input) != 0, glslang_shader_parse(shader, &input) != 0 else {
                throw VulkanError(.shader, "\(name): \(String(cString: glslang_shader_get_info_log(shader)))")
            }
            guard let program = glslang_program_create() else { throw VulkanError(.shader, "\(name): glslang failed") }
            defer { glslang_program_delete(program) }
            glslang_program_add_shader(program, shader)
            let rules = Int32(GLSLANG_MSG_SPV_RULES_BIT.rawValue | GLSLANG_MSG_VULKAN_RULES_BIT.rawValue)
            guard glslang_program_link(program, rules) != 0 else {
                throw VulkanError(.shader, "\(name): \(String(cString: glslang_program_get_info_log(program)))")
            }
            glslang_program_SPIRV_generate(program, GLSLANG_STAGE_COMPUTE)
            let count = glslang_program_SPIRV_get_size(program)
            guard count > 0, let words = glslang_program_SPIRV_get_ptr(program) else {
                throw VulkanError(.shader, "\(name): no SPIR-V generated")
            }
            return Array(UnsafeBufferPointer(start: words, count: count))
        }
    }

    // MARK: - Disk cache: "FRSV", source hash, payload checksum (little-endian UInt64s), then the SPIR-V words.

    private static let magic: [UInt8] = Array("FRSV".utf8)

    static func readCache(_ file: URL, key: UInt64) -> [UInt32]? {
        guard let data = try? Data(contentsOf: file), data.count > 20, (data.count - 20) % 4 == 0 else { return nil }
        let bytes = [UInt8](data)
        guard Array(bytes[0..<4]) == magic else { return nil }
        let storedKey = bytes[4..<12].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let storedSum = bytes[12..<20].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let payload = Array(bytes[20...])
        guard storedKey == key, FNV1a.hash(payload) == storedSum else { return nil }
        let words = payload.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        return words.first == 0x0723_0203 ? words : nil
    }

    static func writeCache(_ file: URL, key: UInt64, words: [UInt32]) {
        let directory = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let payload = words.withUnsafeBytes { Array($0) }
        var bytes = magic
        for value in [key, FNV1a.hash(payload)] { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        bytes += payload
        replace(file, with: Data(bytes))
    }

    /// Writes `data` as `file` through a temporary file and a rename, so concurrent processes never read half a
    /// file; on failure the cache is simply not updated (the directory must exist).
    static func replace(_ file: URL, with data: Data) {
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else { return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }
}

/// 64-bit FNV-1a: a stable hash (Swift's Hasher is seeded per process, so it cannot name cache files).
enum FNV1a {
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}
