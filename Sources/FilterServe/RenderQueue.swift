/// At most `slots` renders at once and `maxWaiting` requests waiting for one; a request beyond that is turned away
/// at once (the caller answers 503 with Retry-After) rather than queued without bound.
actor RenderQueue {
    let slots: Int
    let maxWaiting: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int, maxWaiting: Int) {
        self.slots = max(1, slots)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Takes a slot, waiting for one if the wait list has room; false when it has none.
    func enter() async -> Bool {
        if running < slots {
            running += 1
            return true
        }
        guard waiting.count < maxWaiting else { return false }
        await withCheckedContinuation { waiting.append($0) }  // the slot is handed over by `leave`
        return true
    }

    func leave() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }

    /// Renders running plus requests waiting.
    var depth: Int { running + waiting.count }
    /// Whether a new request would be turned away.
    var isSaturated: Bool { running >= slots && waiting.count >= maxWaiting }
}
