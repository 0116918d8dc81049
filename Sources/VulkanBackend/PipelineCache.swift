import CVulkan
import Foundation

/// The driver's compiled pipelines, kept on disk beside the SPIR-V cache
/// (`$XDG_CACHE_HOME/filterrun/pipelines/<pipelineCacheUUID>.bin`), so a new process skips the driver's own
/// compilation of every kernel, which on real GPUs costs more than glslang's. The driver checks the data's header
/// and starts empty on anything it does not recognise (another driver version, a damaged file). Saved by rename after
/// a render that made new pipelines, so concurrent processes never read half a file.
final class PipelineCache {
    let handle: VkPipelineCache?
    private let device: VkDevice
    private let file: URL
    /// Pipelines made since the data was last saved.
    private var unsaved = 0
    private let lock = NSLock()

    init(device: VkDevice, uuid: [UInt8]) {
        self.device = device
        file = ShaderCompiler.cacheDirectory.deletingLastPathComponent().appendingPathComponent("pipelines")
            .appendingPathComponent(uuid.map { String(format: "%02x", $0) }.joined() + ".bin")
        let initial = (try? Data(contentsOf: file)) ?? Data()
        var info = VkPipelineCacheCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO
        var made: VkPipelineCache?
        let result = initial.withUnsafeBytes { bytes -> VkResult in
            info.initialDataSize = bytes.count
            info.pInitialData = bytes.baseAddress
            return vkCreatePipelineCache(device, &info, nil, &made)
        }
        handle = result == VK_SUCCESS ? made : nil  // no cache is slower, never wrong
    }

    deinit { if let handle { vkDestroyPipelineCache(device, handle, nil) } }

    /// Counts a pipeline made through the cache.
    func made() { lock.withLock { unsaved += 1 } }

    /// Writes the data when pipelines were made since the last save.
    func saveIfChanged() {
        guard let handle, lock.withLock({ defer { unsaved = 0 }; return unsaved > 0 }) else { return }
        var size = 0
        guard vkGetPipelineCacheData(device, handle, &size, nil) == VK_SUCCESS, size > 0 else { return }
        var data = Data(count: size)
        let result = data.withUnsafeMutableBytes { vkGetPipelineCacheData(device, handle, &size, $0.baseAddress) }
        guard result == VK_SUCCESS else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        ShaderCompiler.replace(file, with: data.prefix(size))
    }
}
