import Foundation
import Shrink
import Synchronization

/// Counts requests in flight and, once the server has had none for ``idleDelay``, hands the allocator's free
/// memory back to the system (`malloc_trim`), so resident memory falls back to the baseline between bursts.
///
/// The trim runs on a thread of its own, never on a request's path: it walks every arena under that arena's lock, a
/// cost that grows with the arenas (BENCHMARKS.md, "Figures behind the code") and would otherwise land on the tail
/// latency of whatever request ended the burst. Cost while busy: one lock per request start and end; the thread wakes
/// four times a second and ends when the trimmer is released.
final class IdleTrimmer: Sendable {
    /// How long no request may be in flight before a trim.
    let idleDelay: Duration

    private struct State {
        var inflight = 0
        var lastEnd = ContinuousClock.now
        /// A request ended since the last trim.
        var dirty = false
    }

    private let state = Mutex(State())

    /// A trimmer that calls `trim` (glibc `malloc_trim` by default) after `idleDelay` without requests.
    init(idleDelay: Duration = .seconds(1), trim: @escaping @Sendable () -> Void = { HeapUsage.returnFreeMemory() }) {
        self.idleDelay = idleDelay
        Thread.detachNewThread { [weak self] in
            while true {
                usleep(250_000)
                guard let trimmer = self else { return }
                if trimmer.takeIdleTurn() { trim() }
            }
        }
    }

    /// A request started; returns the number in flight.
    @discardableResult
    func enter() -> Int {
        state.withLock { s in
            s.inflight += 1
            return s.inflight
        }
    }

    /// A request ended; returns the number in flight.
    @discardableResult
    func leave() -> Int {
        state.withLock { s in
            s.inflight -= 1
            s.lastEnd = .now
            s.dirty = true
            return s.inflight
        }
    }

    /// True (once per idle stretch) when nothing is in flight, a request ended since the last trim, and the last
    /// one ended at least ``idleDelay`` ago.
    private func takeIdleTurn() -> Bool {
        state.withLock { s in
            guard s.inflight == 0, s.dirty, s.lastEnd.duration(to: .now) >= idleDelay else { return false }
            s.dirty = false
            return true
        }
    }
}
