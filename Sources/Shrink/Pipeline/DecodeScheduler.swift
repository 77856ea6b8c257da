#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkSystem

/// The decode stage's admission and threads: work is charged its predicted peak bytes and starts only when
/// the charge fits what is left of the budget, on at most `maxConcurrent` dedicated threads (blocking
/// decodes never occupy Swift's cooperative pool).
///
/// Queued work starts highest priority first, in submission order within a priority. When the first in that
/// order does not fit, nothing overtakes it (so a large decode is not starved by a stream of small ones); it
/// starts once enough running work has finished — it always fits an idle scheduler, since work costing more
/// than the whole budget is refused at submission.
///
/// Threads are created on demand up to `maxConcurrent`, then wait on a condition variable; they exit when
/// the scheduler is shut down.
///
/// A running decode may borrow threads (``DecodeHelping``): only when nothing is queued, a thread is free and the
/// helper's bytes fit, so a batch that keeps every thread busy lends none; lent work starts before anything queued
/// after it, and ``othersWaiting`` tells a helper to return its thread once work queues.
final class DecodeScheduler: DecodeHelping, @unchecked Sendable {
    struct Snapshot: Sendable {
        var runningCharge = 0, runningCount = 0, queuedCharge = 0, queuedCount = 0
        var peakRunningCharge = 0, started = 0, threads = 0
        /// Decodes among the running work (header reads are work too, but not decodes), and their peak.
        var runningDecodes = 0, peakRunningDecodes = 0
        /// Threads lent to running decodes (``lend(bytes:_:)``).
        var lent = 0
    }

    private struct Work {
        let id: Int
        let charge: Int
        var priority: ImageRequest.Priority
        let sequence: Int
        let submitted: ContinuousClock.Instant
        let isDecode: Bool
        /// Lent to a running decode: starts first.
        var isLent = false
        let run: @Sendable (Duration) -> Void
    }

    let budget: Int
    let maxConcurrent: Int
    private let state = ConditionLock()
    // Guarded by `state`.
    private var queue: [Work] = []
    private var nextID = 0
    private var snapshotValue = Snapshot()
    private var idleThreads = 0
    private var stopping = false

    init(budget: Int, maxConcurrent: Int) {
        self.budget = budget
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Queues `run` with `charge` bytes at `priority`; `run` is called on a scheduler thread with the time
    /// it waited. `isDecode` is false for other blocking steps (reading a header), which are not counted as
    /// decodes. Fails with `.memoryBudgetExceeded` when `charge` exceeds the whole budget.
    func submit(
        charge: Int, priority: ImageRequest.Priority, name: String, isDecode: Bool = true,
        run: @escaping @Sendable (Duration) -> Void
    ) throws(ImageError) -> Int {
        guard charge <= budget else {
            throw ImageError(
                .memoryBudgetExceeded,
                "\(name): decoding is predicted to hold \(ImageLimits.mebibytes(charge)), more than the pipeline's whole budget of \(ImageLimits.mebibytes(budget)) (ImagePipeline.Configuration.budget)"
            )
        }
        lock()
        nextID += 1
        let id = nextID
        queue.append(
            Work(
                id: id, charge: max(0, charge), priority: priority, sequence: id,
                submitted: .now, isDecode: isDecode, run: run))
        snapshotValue.queuedCount += 1
        snapshotValue.queuedCharge += charge
        let spawn = idleThreads == 0 && snapshotValue.threads < maxConcurrent && !stopping
        if spawn { snapshotValue.threads += 1 }
        state.signal()
        unlock()
        if spawn { startThread() }
        return id
    }

    /// Queues `work` ahead of everything, charged `bytes`, for a free thread to start now, when nothing else waits in
    /// the queue, a thread is free and the bytes fit; false otherwise.
    func lend(bytes: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        lock()
        let free = idleThreads > 0 || snapshotValue.threads < maxConcurrent
        guard !stopping, queue.isEmpty, free, snapshotValue.runningCount < maxConcurrent,
            snapshotValue.runningCharge + max(0, bytes) <= budget
        else {
            unlock()
            return false
        }
        nextID += 1
        queue.append(
            Work(
                id: nextID, charge: max(0, bytes), priority: .veryHigh, sequence: nextID, submitted: .now,
                isDecode: false, isLent: true, run: { _ in work() }))
        snapshotValue.queuedCount += 1
        snapshotValue.queuedCharge += max(0, bytes)
        snapshotValue.lent += 1
        let spawn = idleThreads == 0
        if spawn { snapshotValue.threads += 1 }
        state.signal()
        unlock()
        if spawn { startThread() }
        return true
    }

    /// True when work other than lent work waits in the queue.
    var othersWaiting: Bool {
        lock()
        defer { unlock() }
        return queue.contains { !$0.isLent }
    }

    /// Removes queued work `id`; false when it has started (or finished) already.
    @discardableResult
    func cancelQueued(_ id: Int) -> Bool {
        lock()
        defer { unlock() }
        guard let i = queue.firstIndex(where: { $0.id == id }) else { return false }
        let work = queue.remove(at: i)
        snapshotValue.queuedCount -= 1
        snapshotValue.queuedCharge -= work.charge
        state.broadcast() // the new head may fit
        return true
    }

    /// True while work `id` waits in the queue (not started, not cancelled).
    func isQueued(_ id: Int) -> Bool {
        lock()
        defer { unlock() }
        return queue.contains { $0.id == id }
    }

    /// Changes the priority of queued work `id` (no effect once started).
    func setPriority(_ priority: ImageRequest.Priority, for id: Int) {
        lock()
        if let i = queue.firstIndex(where: { $0.id == id }) { queue[i].priority = priority }
        unlock()
        state.broadcast()
    }

    /// The running and queued charges and counts now, and the highest running charge ever seen.
    var snapshot: Snapshot {
        lock()
        defer { unlock() }
        return snapshotValue
    }

    /// Lets the threads exit once the queue is empty.
    func shutdown() {
        lock()
        stopping = true
        state.broadcast()
        unlock()
    }

    private func lock() { state.lock() }
    private func unlock() { state.unlock() }

    /// The index of the work to start next, if it fits now. Called with the lock held.
    private func nextAdmissible() -> Int? {
        guard !queue.isEmpty, snapshotValue.runningCount < maxConcurrent else { return nil }
        if let lent = queue.firstIndex(where: \.isLent) {
            return snapshotValue.runningCharge + queue[lent].charge <= budget ? lent : nil
        }
        var best = 0
        for i in 1..<queue.count
        where queue[i].priority > queue[best].priority
            || (queue[i].priority == queue[best].priority && queue[i].sequence < queue[best].sequence)
        {
            best = i
        }
        return snapshotValue.runningCharge + queue[best].charge <= budget ? best : nil
    }

    private func workerLoop() {
        lock()
        while true {
            if let i = nextAdmissible() {
                let work = queue.remove(at: i)
                snapshotValue.queuedCount -= 1
                snapshotValue.queuedCharge -= work.charge
                snapshotValue.runningCount += 1
                snapshotValue.runningCharge += work.charge
                if work.isDecode {
                    snapshotValue.started += 1
                    snapshotValue.runningDecodes += 1
                    snapshotValue.peakRunningDecodes = max(
                        snapshotValue.peakRunningDecodes, snapshotValue.runningDecodes)
                }
                snapshotValue.peakRunningCharge = max(snapshotValue.peakRunningCharge, snapshotValue.runningCharge)
                precondition(snapshotValue.runningCharge <= budget, "decode budget invariant broken")
                unlock()
                work.run(work.submitted.duration(to: .now))
                lock()
                snapshotValue.runningCount -= 1
                snapshotValue.runningCharge -= work.charge
                if work.isDecode { snapshotValue.runningDecodes -= 1 }
                state.broadcast()
                continue
            }
            if stopping && queue.isEmpty { break }
            idleThreads += 1
            state.wait()
            idleThreads -= 1
        }
        snapshotValue.threads -= 1
        unlock()
    }

    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { raw in
                let scheduler = Unmanaged<DecodeScheduler>.fromOpaque(raw!).takeRetainedValue()
                csys_name_thread("shrink-decode")
                scheduler.workerLoop()
                return nil
            }, context)
        pthread_attr_destroy(&attributes)
        if started != 0 {
            Unmanaged<DecodeScheduler>.fromOpaque(context).release()
            lock()
            snapshotValue.threads -= 1
            unlock()
        }
    }
}
