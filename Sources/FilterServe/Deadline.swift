/// A whole operation bounded in time: a client or an origin that trickles a byte every few seconds never goes
/// idle, so per-read timeouts alone would let it run on.
enum Deadline {
    /// `operation`'s result, or `failure` thrown once `deadline` passes (the operation is then cancelled).
    static func run<T: Sendable>(until deadline: ContinuousClock.Instant, _ failure: @autoclosure () -> any Error,
                                 _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let result = try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let result else { throw failure() }
        return result
    }
}
