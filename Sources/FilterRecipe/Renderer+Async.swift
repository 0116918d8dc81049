import FilterCore
import Foundation

/// Swift concurrency: renders off the caller's thread, stopping within a strip of rows when the task is
/// cancelled (nothing is written; `RenderError.cancelled` is thrown), with progress in output rows.
extension Renderer {
    public func render(_ recipe: Recipe, inputs: [String: String], output: String,
                       progress: (@Sendable (_ rowsDone: Int, _ rowsTotal: Int) -> Void)? = nil) async throws -> RenderReport {
        let control = RenderControl(progress: progress)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try self.render(recipe, inputs: inputs, output: output, control: control) })
                }
            }
        } onCancel: {
            control.cancel()
        }
    }
}
