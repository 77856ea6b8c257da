#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Runs `body(i)` for every index in `0..<count` on at most `workers` threads (never a thread per item):
/// each worker takes the next index until none is left. Blocks until all are done.
enum WorkerPool {
    static func run(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let workers = max(1, min(workers, count))
        if workers == 1 {
            for i in 0..<count { body(i) }
            return
        }
        let job = Job(count: count, body: body)
        var threads: [pthread_t] = []
        for _ in 1..<workers {
            let context = Unmanaged.passRetained(job).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(
                &thread, nil,
                { raw in
                    let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                    job.work()
                    return nil
                }, context)
            if started == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Job>.fromOpaque(context).release()
            }
        }
        job.work() // the calling thread helps too (and finishes alone if no thread could start)
        for t in threads { pthread_join(t, nil) }
    }

    private final class Job: Sendable {
        let count: Int
        let next = Atomic<Int>(0)
        let body: @Sendable (Int) -> Void

        init(count: Int, body: @escaping @Sendable (Int) -> Void) {
            self.count = count
            self.body = body
        }

        func work() {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i)
            }
        }
    }
}
