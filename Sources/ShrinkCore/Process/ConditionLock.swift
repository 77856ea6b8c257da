#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex and a condition variable (pthread's), for threads that wait for one another's progress: state is read
/// and changed between ``lock()`` and ``unlock()``, a thread that must wait for a change calls ``wait()`` (which
/// releases the mutex while it sleeps), and one that changes the state calls ``broadcast()``.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Sleeps until a broadcast (or spuriously: callers test their condition again); the mutex is held on return.
    package func wait() { pthread_cond_wait(condition, mutex) }
    /// ``wait()``, but for at most `milliseconds`.
    package func wait(milliseconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + milliseconds % 1000 * 1_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &deadline)
    }
    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// `body`'s result, run with the mutex released (called with it held; held again on return).
    package func unlocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        unlock()
        defer { lock() }
        return try body()
    }

    /// `body`'s result, run with the mutex held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
