import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Watches one connection for its client going away — its input closed (the client closed the socket) or the
/// channel gone — and then runs what requests on it registered: their renders stop instead of finishing for no one.
/// (The server lets clients half-close, so a hang-up arrives as input closed, not as the channel closing.)
final class HangUpWatcher: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    private struct State {
        var gone = false
        var next = 0
        var actions: [Int: @Sendable () -> Void] = [:]
    }
    private let state = NIOLockedValueBox(State())

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { hangUp() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hangUp()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    /// Runs `action` when the client goes away (at once if it has); the number given back forgets it.
    func onHangUp(_ action: @escaping @Sendable () -> Void) -> Int {
        let (id, runNow) = state.withLockedValue { state -> (Int, Bool) in
            if state.gone { return (-1, true) }
            state.next += 1
            state.actions[state.next] = action
            return (state.next, false)
        }
        if runNow { action() }
        return id
    }

    func forget(_ id: Int) {
        state.withLockedValue { _ = $0.actions.removeValue(forKey: id) }
    }

    private func hangUp() {
        let actions = state.withLockedValue { state -> [@Sendable () -> Void] in
            state.gone = true
            defer { state.actions = [:] }
            return Array(state.actions.values)
        }
        actions.forEach { $0() }
    }
}

/// The request context of the service: Hummingbird's, plus the connection, so a render can learn that its client
/// went away.
public struct ServeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

extension RenderService {
    /// `work` in a task of its own, cancelled when the request's client hangs up (or the request is cancelled).
    func whileConnected<T: Sendable>(_ context: ServeContext, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let channel = context.channel,
              let watcher = try? await channel.pipeline.handler(type: HangUpWatcher.self).get() else {
            return try await work()
        }
        let task = Task { try await work() }
        let id = watcher.onHangUp { task.cancel() }
        defer { watcher.forget(id) }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }
}
