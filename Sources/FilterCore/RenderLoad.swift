import Foundation
import Synchronization

/// How many renders run in this process right now, so that a render knows whether the cores are its own. A render
/// alone (a one-shot `filterrun`, an idle server) spreads over every core: its decoder reads ahead on a stage thread,
/// its encoder writes behind on another, its row loops fan out on `WorkerPool`. Once as many renders run as there are
/// cores (a batch's `--jobs`, a busy server), that fan-out only adds threads and hand-offs between them: every core
/// already has a render. Then each render runs its stages one after another on its own thread — decode, filter rows,
/// encode — and the process runs exactly one thread a core.
///
/// A server also counts the renders it has taken on that have not started yet (`Expected`): between one render's
/// end and the next one's start its slot is handed on through the server's tasks, and a render that started in that
/// gap would fan out as if it were alone while the queue behind it is full.
package enum RenderLoad {
    private static let running = Atomic<Int>(0)
    private static let expected = Atomic<Int>(0)

    /// Renders running now (those inside `run`).
    package static var active: Int { running.load(ordering: .relaxed) }

    /// Renders taken on and not yet started (those whose `Expected` is open).
    package static var waiting: Int { expected.load(ordering: .relaxed) }

    /// Whether the process runs a render for every core (or more), so each should keep to its own thread.
    /// `FILTERRUN_SERIAL_STAGES`: `never` keeps the fan-out under any load, `always` forces one thread a render
    /// (benchmarks compare the two).
    package static var saturated: Bool {
        switch policy {
        case .never: return false
        case .always: return true
        case .byLoad: return active + waiting >= WorkerPool.width
        }
    }

    /// Runs `body` counted as a render.
    package static func run<T>(_ body: () throws -> T) rethrows -> T {
        running.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// A render taken on that has not started: counted as load from its creation until `started()` (or its end,
    /// whichever is first — a request turned away or cancelled while it waits).
    package final class Expected: Sendable {
        private let open = Atomic<Bool>(true)

        package init() { RenderLoad.expected.add(1, ordering: .relaxed) }

        /// The render begins (it is counted by `run` from here).
        package func started() {
            if open.exchange(false, ordering: .relaxed) { RenderLoad.expected.subtract(1, ordering: .relaxed) }
        }

        deinit { started() }
    }

    enum Policy { case byLoad, never, always }

    /// By load unless `FILTERRUN_SERIAL_STAGES` says otherwise (a word it does not take is reported by the command
    /// line's check of the environment, `EnvironmentSettings.validate`, and read here as unset).
    static let policy: Policy = {
        switch (try? EnvironmentSettings.word("FILTERRUN_SERIAL_STAGES")) ?? nil {
        case "never": return .never
        case "always": return .always
        default: return .byLoad
        }
    }()
}
