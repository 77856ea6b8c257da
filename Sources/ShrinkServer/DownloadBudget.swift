#if canImport(Glibc)
    import Glibc
#endif
import Shrink

/// The share of the server's budget that source downloads may hold: a download reserves bytes before its
/// buffer grows and waits, first come first served, while the share is taken; the reservation is returned
/// when the downloaded bytes are freed, after their decode. So downloads, queued sources and decodes together
/// stay inside the budget (the pipeline gets the rest of it).
///
/// Reservations block the calling thread (downloads run on threads of their own, never Swift's cooperative
/// pool). Cost: one lock per reservation.
package final class DownloadBudget: @unchecked Sendable {
    /// Bytes downloads may hold together.
    package let capacity: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var usedBytes = 0
    private var nextTicket = 0
    private var serving = 0

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Bytes reserved now.
    package var used: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return usedBytes
    }

    /// Waits until `bytes` fit (in arrival order), then holds them. `.limitExceeded` when they never could;
    /// `.cancelled` when `isCancelled` turns true while waiting (checked every 20 ms).
    package func reserve(_ bytes: Int, for name: String, isCancelled: () -> Bool = { false }) throws(ImageError) {
        guard bytes <= capacity else {
            throw ImageError(.limitExceeded, "\(name): \(bytes) bytes are more than the download budget of \(capacity)")
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let ticket = nextTicket
        nextTicket += 1
        while serving != ticket || usedBytes + bytes > capacity {
            if isCancelled() {
                // Give the turn away if it was ours, so the queue does not stall.
                if serving == ticket { serving += 1 } else { abandoned.insert(ticket) }
                skipAbandoned()
                pthread_cond_broadcast(condition)
                throw ImageError(.cancelled, "\(name): cancelled while waiting for download budget")
            }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += 20_000_000
            if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
        usedBytes += bytes
        serving += 1
        skipAbandoned()
        pthread_cond_broadcast(condition)
    }

    /// Returns `bytes` and wakes the waiters.
    package func release(_ bytes: Int) {
        pthread_mutex_lock(mutex)
        usedBytes -= bytes
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    // Guarded by `mutex`: tickets whose waiters gave up before their turn.
    private var abandoned = Set<Int>()

    private func skipAbandoned() {
        while abandoned.remove(serving) != nil { serving += 1 }
    }
}
