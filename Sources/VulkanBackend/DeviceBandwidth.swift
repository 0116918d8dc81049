import FilterCore

/// The device's own copy speed and the host↔device transfer speeds, timed on the device with timestamps: the
/// floors a kernel's time and a render's transfers are compared with (`filterbench --gpu`).
package struct DeviceBandwidth: Sendable {
    /// Bytes read (and as many written) per second by `vkCmdCopyBuffer` between two device-local buffers.
    package var deviceCopy: Double
    /// Bytes per second from a host-visible staging buffer into device-local memory.
    package var upload: Double
    /// Bytes per second from device-local memory into a host-visible readback buffer.
    package var download: Double
    /// The size copied, and the device.
    package var bytes: Int
    package var device: String

    /// Copies `bytes` each way `runs` times (after one warm-up) and keeps the median of each; nil where the device
    /// has no timestamps.
    package static func measure(bytes requested: Int, runs: Int) throws -> DeviceBandwidth? {
        let context = try VulkanContext.shared()
        guard context.limits.timestampPeriod != nil else { return nil }
        let bytes = min(requested, context.limits.maxMemoryAllocationSize, context.limits.maxStorageBufferRange) & ~255
        let first = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        let second = try DeviceBuffer(context, byteCount: bytes, kind: .device)
        let upload = try DeviceBuffer(context, byteCount: bytes, kind: .upload)
        let readback = try DeviceBuffer(context, byteCount: bytes, kind: .readback)
        upload.mapped?.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
        var times: [String: [Double]] = [:]
        for run in 0...max(1, runs) {
            let batch = try CommandBatch(context, timestamps: 4)
            batch.copy(from: upload, to: first, bytes: bytes)
            batch.barrier()
            batch.mark("upload")
            batch.copy(from: first, to: second, bytes: bytes)
            batch.barrier()
            batch.mark("device")
            batch.copy(from: second, to: readback, bytes: bytes)
            batch.hostReadBarrier()
            batch.mark("download")
            let stretches = try batch.submitAndWait()
            guard run > 0 else { continue }
            for (label, seconds) in stretches { times[label, default: []].append(seconds) }
        }
        func rate(_ label: String) -> Double {
            let sorted = (times[label] ?? []).sorted()
            guard !sorted.isEmpty else { return 0 }
            return Double(bytes) / max(sorted[sorted.count / 2], 1e-9)
        }
        return DeviceBandwidth(deviceCopy: rate("device"), upload: rate("upload"), download: rate("download"),
                               bytes: bytes, device: context.description)
    }
}
