import CoreMetrics
import Shrink

/// The server's metrics, named once: requests by route and status, stage durations, rejections by reason,
/// cache hits by tier, and — read from the pipeline's ledger when `/metrics` is scraped — budget, queue,
/// coalescing and resident memory. Backed by a ``PrometheusRegistry`` of its own (several servers in one
/// process, as in tests, never share counts).
package struct ServerMetrics: Sendable {
    package let registry: PrometheusRegistry

    package init(registry: PrometheusRegistry = PrometheusRegistry()) {
        self.registry = registry
        let help: [(String, String)] = [
            ("shrink_http_requests_total", "HTTP requests by route and status."),
            (
                "shrink_stage_seconds",
                "Time per stage of image requests: queue, fetch, decode (resizing streams inside it), encode, total."
            ),
            ("shrink_rejections_total", "Requests refused, by reason."),
            ("shrink_cache_hits_total", "Results served without decoding, by tier: http304, memory, disk, shared."),
            ("shrink_budget_bytes", "The pipeline's memory budget."),
            (
                "shrink_budget_in_use_bytes",
                "Bytes charged now: running decodes (with encoders and in-memory sources), cached results and downloads."
            ),
            ("shrink_download_bytes", "Bytes reserved by source downloads (held until their decode frees them)."),
            ("shrink_queue_depth", "Work waiting for budget or a decode thread."),
            ("shrink_coalesced_total", "Requests that joined an identical request in flight."),
            ("shrink_decodes_total", "Decodes started."),
            (
                "shrink_decode_helpers_total",
                "Decode threads lent to a running decode while they would idle (grid tiles)."
            ),
            ("shrink_decode_peak_bytes", "Predicted peak bytes of each decode (what admission charged)."),
            ("shrink_resident_bytes", "Resident memory of the process (VmRSS)."),
            ("shrink_inflight_requests", "Image requests being answered now."),
            (
                "shrink_disk_cache_write_failures_total",
                "Disk cache writes that failed (disk full, read-only); each turns writing off for a while."
            ),
            ("shrink_disk_cache_writing", "1 while the disk cache writes new entries, 0 while writing is off."),
            ("shrink_result_store_hits_total", "Results read whole from the shared result store."),
            ("shrink_result_store_misses_total", "Lookups the shared result store answered with no object."),
            (
                "shrink_result_store_rejected_total",
                "Objects of the shared result store that failed their length or checksum check (decoded again)."
            ),
            ("shrink_result_store_errors_total", "Lookups that failed or timed out (served by decoding)."),
            ("shrink_result_store_writes_total", "Results written to the shared result store."),
            ("shrink_result_store_write_errors_total", "Writes to the shared result store that failed."),
            (
                "shrink_result_store_skipped_total",
                "Lookups and writes not tried: the circuit breaker open, too many writes in flight, a result too large."
            ),
            (
                "shrink_result_store_bypassed",
                "1 while the circuit breaker keeps requests from the shared result store."
            ),
        ]
        for (name, text) in help { registry.describe(name, text) }
    }

    package func request(route: String, status: Int) {
        Counter(
            label: "shrink_http_requests_total", dimensions: [("route", route), ("status", String(status))],
            factory: registry
        ).increment()
    }

    package func stage(_ name: String, _ duration: Duration) {
        let (s, a) = duration.components
        Timer(label: "shrink_stage_seconds", dimensions: [("stage", name)], factory: registry)
            .recordNanoseconds(s * 1_000_000_000 + a / 1_000_000_000)
    }

    package func rejection(_ reason: String) {
        Counter(label: "shrink_rejections_total", dimensions: [("reason", reason)], factory: registry).increment()
    }

    package func cacheHit(_ tier: String) {
        Counter(label: "shrink_cache_hits_total", dimensions: [("tier", tier)], factory: registry).increment()
    }

    package func decodePeak(_ bytes: Int) {
        Recorder(label: "shrink_decode_peak_bytes", factory: registry).record(bytes)
    }

    package func inflight(_ count: Int) {
        Gauge(label: "shrink_inflight_requests", factory: registry).record(count)
    }

    /// Copies the ledger's figures, the downloads' and the resident memory into their gauges (at scrape time).
    package func refresh(from ledger: PipelineLedger, downloads: DownloadBudget?, resultStore: S3ResultStore? = nil) {
        Gauge(label: "shrink_budget_bytes", factory: registry).record(ledger.budget + (downloads?.capacity ?? 0))
        Gauge(label: "shrink_budget_in_use_bytes", factory: registry).record(ledger.totalBytes + (downloads?.used ?? 0))
        Gauge(label: "shrink_download_bytes", factory: registry).record(downloads?.used ?? 0)
        Gauge(label: "shrink_queue_depth", factory: registry).record(ledger.queuedDecodes)
        registry.mirrorCounter("shrink_coalesced_total", ledger.coalescedRequests)
        registry.mirrorCounter("shrink_decodes_total", ledger.decodesStarted)
        registry.mirrorCounter("shrink_decode_helpers_total", ledger.helpersLent)
        if let writing = ledger.diskCacheWriting {
            registry.mirrorCounter("shrink_disk_cache_write_failures_total", ledger.diskCacheWriteFailures)
            Gauge(label: "shrink_disk_cache_writing", factory: registry).record(writing ? 1 : 0)
        }
        if let resultStore {
            let s = resultStore.statistics
            for (name, value) in [
                ("hits", s.hits), ("misses", s.misses), ("rejected", s.rejected), ("errors", s.errors),
                ("writes", s.writes), ("write_errors", s.writeErrors), ("skipped", s.skipped),
            ] {
                registry.mirrorCounter("shrink_result_store_\(name)_total", value)
            }
            Gauge(label: "shrink_result_store_bypassed", factory: registry).record(resultStore.isBypassed ? 1 : 0)
        }
        Gauge(label: "shrink_resident_bytes", factory: registry).record(ProcessStatus.read().residentBytes)
    }
}
