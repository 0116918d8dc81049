import Foundation

/// The process's threads for a render's blocking stages — a decoder reading ahead, an encoder writing behind, a
/// server's render itself — kept and reused: a stage runs on an idle thread, and a thread is made only when every
/// kept one is busy. So a server or a batch that renders continuously makes its threads once (at most the renders
/// at once × the stages of one), instead of a decoder's, an encoder's and a render's thread for every request.
/// The row work itself runs on `WorkerPool`.
package enum StageThreads {
    private static let pool = KeptThreads(name: "filterrun stage")

    /// Runs `body` on a kept thread (an idle one, or a new one when none is idle); returns at once.
    package static func run(_ body: @escaping @Sendable () -> Void) { pool.run(body) }

    /// Threads made so far (tests and metrics: under steady load it stops growing).
    package static var threadsMade: Int { pool.threadsMade }

    /// Stages run so far (tests: a render that keeps to its own thread, `RenderLoad.saturated`, runs none).
    package static var stagesStarted: Int { pool.jobsStarted }

    /// Threads waiting for work now.
    package static var idleThreads: Int { pool.idleThreads }
}
