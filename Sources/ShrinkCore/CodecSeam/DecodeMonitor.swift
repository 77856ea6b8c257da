import Synchronization

/// Watches one decode from another thread: cancels it between strips and measures the heap it holds.
///
/// Renderers call ``checkpoint(row:)`` after every strip of rows (16 decoded rows, or one JPEG row group):
/// once `cancel()` has been called the next checkpoint throws `.cancelled`, the decoder is dropped and its
/// buffers are freed at once; rows below are never decoded. Checkpoints also sample `HeapUsage` (at most once per
/// `sampleInterval`: `mallinfo2` walks the allocator's bins, too slow for every checkpoint; BENCHMARKS.md, "Figures
/// behind the code") so `peakBytes` tells how far the heap grew above where it stood when the monitor was made;
/// `notePeak()` samples at once.
public final class DecodeMonitor: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let baseline = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    private let systemBaseline = Atomic<Int>(0)
    private let systemGrowth = Atomic<Int>(0)
    private let rows = Atomic<Int>(0)
    private let samplesMemory: Bool
    private let created = ContinuousClock.now
    /// Nanoseconds after `created` of the last heap sample.
    private let lastSample = Atomic<Int>(0)

    /// The least time between two heap samples taken by checkpoints.
    package static let sampleInterval = Duration.milliseconds(1)

    /// A monitor for a decode; with `measuringMemory` (the default) the heap is sampled now (the baseline,
    /// taken again by ``beginMeasuring()``) and at each checkpoint.
    package init(measuringMemory: Bool = true) {
        samplesMemory = measuringMemory
        if measuringMemory {
            baseline.store(HeapUsage.bytesInUse, ordering: .relaxed)
            systemBaseline.store(HeapUsage.bytesFromSystem, ordering: .relaxed)
        }
    }

    /// Takes the heap baseline now (call when the decode really starts, if the monitor was made earlier).
    package func beginMeasuring() {
        guard samplesMemory else { return }
        baseline.store(HeapUsage.bytesInUse, ordering: .relaxed)
        peak.store(0, ordering: .relaxed)
        systemBaseline.store(HeapUsage.bytesFromSystem, ordering: .relaxed)
        systemGrowth.store(0, ordering: .relaxed)
    }

    /// Asks the decode to stop at its next checkpoint. Safe from any thread, any number of times.
    package func cancel() { cancelled.store(true, ordering: .releasing) }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// The most heap bytes seen above the baseline at any checkpoint so far (process-wide; see `HeapUsage`).
    package var peakBytes: Int { peak.load(ordering: .relaxed) }

    /// How far the allocator's hold from the system (``HeapUsage/bytesFromSystem``) grew between the baseline
    /// and the last sample. When glibc neither maps nor trims, its hold only grows, so this is the decode's
    /// high-water mark, including what a C codec allocated and freed between two checkpoints — less what fit
    /// into free chunks the allocator already held at the baseline (trim first: what stays are small holes;
    /// BENCHMARKS.md, "Figures behind the code").
    package var systemGrowthBytes: Int { systemGrowth.load(ordering: .relaxed) }

    /// The number of source rows decoded when the last checkpoint ran.
    package var rowsDecoded: Int { rows.load(ordering: .relaxed) }

    /// Records that rows up to (not including) `row` have been decoded, samples the heap, and throws
    /// `.cancelled` when the decode should stop.
    public func checkpoint(row: Int) throws(ImageError) {
        rows.store(row, ordering: .relaxed)
        if samplesMemory {
            let now = Self.nanoseconds(created.duration(to: .now))
            if now - lastSample.load(ordering: .relaxed) >= Self.nanoseconds(Self.sampleInterval) {
                lastSample.store(now, ordering: .relaxed)
                notePeak()
            }
        }
        if isCancelled { throw ImageError(.cancelled, "decode cancelled at row \(row)") }
    }

    private static func nanoseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }

    /// Samples the heap now (call once more when the result is complete).
    package func notePeak() {
        systemGrowth.store(HeapUsage.bytesFromSystem - systemBaseline.load(ordering: .relaxed), ordering: .relaxed)
        let now = HeapUsage.bytesInUse - baseline.load(ordering: .relaxed)
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }
}
