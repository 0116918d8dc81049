import Foundation

/// Identical renders in flight, shared: when a CDN misses on one URL from many edges at once, the image is rendered
/// once and every waiting request gets it. A flight is keyed by the response's ETag (the signed payload, the format
/// and the validators of every file read), so only requests that would get the same bytes share one. The render
/// runs in a task of its own; it is cancelled when the last request waiting for it goes away.
actor RenderFlights {
    struct Rendered: Sendable {
        let data: Data
        /// Seconds by stage (decode, filter, encode) and waiting for a slot.
        let timing: ServerTiming
    }

    private struct Flight {
        let task: Task<Rendered, any Error>
        var waiters: Set<UUID>
    }

    private var flights: [String: Flight] = [:]

    /// The flight for `key`, joined (started by `start` when there is none), and whether it was already in the air.
    func join(_ key: String, waiter: UUID, start: @escaping @Sendable () async throws -> Rendered)
        -> (task: Task<Rendered, any Error>, shared: Bool) {
        if var flight = flights[key] {
            flight.waiters.insert(waiter)
            flights[key] = flight
            return (flight.task, true)
        }
        let task = Task { try await start() }
        flights[key] = Flight(task: task, waiters: [waiter])
        // The flight lands for everyone when the render ends; a later request renders anew (304s and the cache-
        // control headers serve repeats).
        Task { _ = try? await task.value; self.land(key, task) }
        return (task, false)
    }

    /// `waiter` no longer waits; the render is cancelled when nobody does.
    func leave(_ key: String, waiter: UUID) {
        guard var flight = flights[key], flight.waiters.remove(waiter) != nil else { return }
        if flight.waiters.isEmpty {
            flight.task.cancel()
            flights[key] = nil
        } else {
            flights[key] = flight
        }
    }

    private func land(_ key: String, _ task: Task<Rendered, any Error>) {
        if flights[key]?.task == task { flights[key] = nil }
    }

    /// Flights in the air (for tests and metrics).
    var count: Int { flights.count }
}

/// The `Server-Timing` header's stages (W3C Server Timing): where a request's time went, for the caller to see.
struct ServerTiming: Sendable {
    var queue = 0.0, decode = 0.0, filter = 0.0, encode = 0.0, total = 0.0

    var header: String {
        [("queue", queue), ("decode", decode), ("filter", filter), ("encode", encode), ("total", total)]
            .map { String(format: "%@;dur=%.1f", $0.0, $0.1 * 1000) }.joined(separator: ", ")
    }

    /// `entries` led by the origin fetch's time when the source came from an origin. The fetch is the request's
    /// own (requests that share a render each fetched, or found the flight while fetching), so it is not in the
    /// shared `ServerTiming`.
    static func header(fetch seconds: Double?, _ entries: String) -> String {
        guard let seconds else { return entries }
        return String(format: "fetch;desc=\"origin\";dur=%.1f, ", seconds * 1000) + entries
    }
}
