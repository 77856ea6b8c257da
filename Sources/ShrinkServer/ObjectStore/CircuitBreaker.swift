import Synchronization

/// Stops asking a dependency that keeps failing: after `threshold` failures in a row it opens for `pause`
/// (``allows()`` says no at once, so requests do not wait on a store that is down), then lets one trial through;
/// a success closes it, a failure opens it for another pause.
package final class CircuitBreaker: Sendable {
    private struct State {
        var failures = 0
        var openUntil: ContinuousClock.Instant?
        var trial = false
    }
    package let threshold: Int
    package let pause: Duration
    private let state = Mutex(State())

    package init(threshold: Int = 5, pause: Duration = .seconds(30)) {
        self.threshold = max(1, threshold)
        self.pause = pause
    }

    /// True when a request may go: closed, or open with its pause over and no trial out (this one is the trial).
    package func allows() -> Bool {
        state.withLock { s in
            guard let until = s.openUntil else { return true }
            guard ContinuousClock.now >= until, !s.trial else { return false }
            s.trial = true
            return true
        }
    }

    /// A request succeeded (a miss is a success: the store answered): closed again.
    package func succeeded() {
        state.withLock { s in
            s.failures = 0
            s.openUntil = nil
            s.trial = false
        }
    }

    /// A request failed or timed out: open after `threshold` in a row, or again after a failed trial.
    package func failed() {
        state.withLock { s in
            s.failures += 1
            if s.trial || s.failures >= threshold {
                s.openUntil = ContinuousClock.now + pause
                s.trial = false
            }
        }
    }

    /// True from opening until a success closes it (a trial may be out meanwhile).
    package var isOpen: Bool { state.withLock { $0.openUntil != nil } }
}
