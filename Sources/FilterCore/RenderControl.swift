import Foundation

/// A caller's hold on a render in progress: cancel it (it stops within a strip of rows and writes nothing) and hear
/// how far it has got. Shared between the caller's thread and the render's.
public final class RenderControl: @unchecked Sendable {  // `cancelled` is guarded by `lock`; progress is immutable
    private let lock = NSLock()
    private var cancelled = false
    private let progress: (@Sendable (_ rowsDone: Int, _ rowsTotal: Int) -> Void)?

    public init(progress: (@Sendable (_ rowsDone: Int, _ rowsTotal: Int) -> Void)? = nil) {
        self.progress = progress
    }

    public func cancel() { lock.withLock { cancelled = true } }
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Throws `RenderCancelled` once `cancel()` was called.
    package func check() throws {
        if isCancelled { throw RenderCancelled() }
    }

    /// Output rows finished so far.
    package func report(rowsDone: Int, of total: Int) { progress?(rowsDone, total) }
}

/// Thrown by a render that was cancelled through its `RenderControl`.
package struct RenderCancelled: Error, CustomStringConvertible {
    package init() {}
    package var description: String { "cancelled" }
}
