/// At most `slots` renders at once and `maxWaiting` requests waiting for one; a request beyond that is turned away
/// at once (the caller answers 503 with Retry-After) rather than queued without bound. A waiting request whose task
/// is cancelled (its client went away) leaves the line at once.
actor RenderQueue {
    let slots: Int
    let maxWaiting: Int
    private var running = 0
    private var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    init(slots: Int, maxWaiting: Int) {
        self.slots = max(1, slots)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Takes a slot, waiting for one if the wait list has room; false when it has none. Throws
    /// `CancellationError` when the task is cancelled while it waits (it then holds no slot).
    func enter() async throws -> Bool {
        try Task.checkCancellation()
        if running < slots {
            running += 1
            return true
        }
        guard waiting.count < maxWaiting else { return false }
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiting.append((id, $0)) }  // the slot is handed over by `leave`
        } onCancel: {
            Task { await self.abandon(id) }
        }
        return true
    }

    /// A waiting request gone: out of the line, without a slot.
    private func abandon(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    func leave() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().continuation.resume() }
    }

    /// Renders running plus requests waiting.
    var depth: Int { running + waiting.count }
    /// Whether a new request would be turned away.
    var isSaturated: Bool { running >= slots && waiting.count >= maxWaiting }
}
