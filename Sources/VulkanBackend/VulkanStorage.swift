import FilterCore

/// The device copy of a `PixelBuffer` during a Vulkan render. Uploads are written straight into device memory the
/// host can map (unified memory), otherwise staged and recorded into the render's command batch; a download reads
/// the readback copy the batch made when it ran.
final class VulkanStorage: DeviceStorage {
    let buffer: DeviceBuffer
    private unowned let batch: CommandBatch
    /// Filled by the batch when the render's result is copied back; valid once the batch has completed.
    var readback: DeviceBuffer?

    init(_ buffer: DeviceBuffer, batch: CommandBatch) {
        self.buffer = buffer
        self.batch = batch
    }

    func upload(from source: UnsafeRawPointer, byteCount: Int) throws {
        if let mapped = buffer.mapped {
            // Written before the batch is submitted: the submission makes host writes visible to the device.
            WorkerPool.copy(to: mapped, from: source, byteCount: byteCount)
            return
        }
        let staging = try batch.staging(bytes: byteCount, kind: .upload)
        WorkerPool.copy(to: staging.mapped!, from: source, byteCount: byteCount)
        batch.copy(from: staging, to: buffer, bytes: byteCount)
    }

    func download(to destination: UnsafeMutableRawPointer, byteCount: Int) throws {
        guard let readback, let mapped = readback.mapped else {
            throw VulkanError(.failed, "a device buffer was read before its render completed")
        }
        try readback.invalidateForHost()
        WorkerPool.copy(to: destination, from: mapped, byteCount: byteCount)
    }
}
