import Prometheus

/// The service's Prometheus metrics, kept in a registry of its own (no process-wide bootstrap, so several
/// services — tests — can live in one process); `/metrics` prints it.
final class ServeMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let renderSeconds: DurationHistogram
    let queueDepth: Gauge
    let bytesOut: Counter
    let notModified: Counter
    let abandoned: Counter
    let coalesced: Counter
    let cacheHits: Counter

    init() {
        renderSeconds = registry.makeDurationHistogram(
            name: "filterserve_render_seconds", buckets: [.milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                                           .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10)],
            help: "Seconds from decoding a source to its encoded result")
        queueDepth = registry.makeGauge(name: "filterserve_queue_depth", help: "Renders running plus requests waiting for one")
        bytesOut = registry.makeCounter(name: "filterserve_bytes_out_total", help: "Bytes of rendered images sent")
        notModified = registry.makeCounter(name: "filterserve_not_modified_total", help: "Requests answered 304 from the client's cache")
        abandoned = registry.makeCounter(name: "filterserve_abandoned_total",
                                         help: "Requests whose client went away before their answer: render stopped or never started")
        coalesced = registry.makeCounter(name: "filterserve_coalesced_total",
                                         help: "Requests answered by a render already in flight for the same URL")
        cacheHits = registry.makeCounter(name: "filterserve_result_cache_hits_total",
                                         help: "Requests answered from the on-disk result cache (--result-cache)")
    }

    /// One more request answered with `status` (for `preset`, or "-" outside renders).
    func request(status: Int, preset: String) {
        registry.makeCounter(name: "filterserve_requests_total", labels: [("status", String(status)), ("preset", preset)],
                             help: "Requests by status and preset").increment()
    }

    var text: String { registry.emitToString() }
}
