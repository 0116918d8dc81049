/// Host-visible staging buffers kept between renders, so a batch of images does not allocate and map new ones for
/// every upload. A buffer is taken for one command batch and comes back when the batch has completed.
final class StagingPool {
    /// Idle buffers are kept up to this many bytes in all; beyond it they are freed.
    static let keptBytes = 256 << 20
    private var idle: [DeviceBuffer] = []

    /// The smallest idle buffer of `kind` holding at least `bytes`, or a new one of exactly `bytes`.
    func take(_ context: VulkanContext, bytes: Int, kind: DeviceBuffer.Kind) throws -> DeviceBuffer {
        let reused: DeviceBuffer? = context.lock.withLock {
            let fitting = idle.indices.filter { idle[$0].kind == kind && idle[$0].byteCount >= bytes }
            guard let best = fitting.min(by: { idle[$0].byteCount < idle[$1].byteCount }) else { return nil }
            return idle.remove(at: best)
        }
        return try reused ?? DeviceBuffer(context, byteCount: bytes, kind: kind)
    }

    func give(_ buffer: DeviceBuffer) {
        // Evicted buffers are freed after the lock is released: freeing takes the same lock.
        let evicted: [DeviceBuffer] = buffer.context.lock.withLock {
            idle.append(buffer)
            var dropped = [DeviceBuffer]()
            while idle.map(\.byteCount).reduce(0, +) > Self.keptBytes { dropped.append(idle.removeFirst()) }
            return dropped
        }
        _ = evicted
    }
}
