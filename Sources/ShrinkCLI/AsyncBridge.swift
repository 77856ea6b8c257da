#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Runs async work from a synchronous command and blocks the calling (main) thread until it is done, so
/// only the commands that need Swift concurrency start its runtime: an `async` main would make every
/// command, `--version` included, pay for it in resident memory (BENCHMARKS.md, "Figures behind the code").
enum AsyncBridge {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        Task.detached { box.set(await Self.capture(body)) }
        return try box.wait().get()
    }

    private static func capture<T>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var condition = pthread_cond_t()
        private var result: Result<T, any Error>?

        init() {
            pthread_mutex_init(&mutex, nil)
            pthread_cond_init(&condition, nil)
        }

        func set(_ value: Result<T, any Error>) {
            pthread_mutex_lock(&mutex)
            result = value
            pthread_cond_signal(&condition)
            pthread_mutex_unlock(&mutex)
        }

        func wait() -> Result<T, any Error> {
            pthread_mutex_lock(&mutex)
            while result == nil { pthread_cond_wait(&condition, &mutex) }
            let value = result!
            pthread_mutex_unlock(&mutex)
            return value
        }
    }
}
