#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The cores of a process that runs decodes on threads of its own (the `shrink` command's workers, a library
/// caller): each thread that decodes counts its core busy while it does (``occupying(_:)``), and a decode may
/// borrow the cores left idle (``lend(bytes:_:)`` starts a thread for each). A batch that keeps every core busy
/// lends nothing, so its throughput stays; one large image, or the last ones of a batch, use every core.
///
/// No budget: bytes are not counted (the process has none to keep; ``ImagePipeline`` has one and lends its own
/// decode threads instead). A lent thread costs its creation (tens of microseconds) and its stack.
public final class SpareCores: DecodeHelping {
    /// The cores work may occupy.
    public let cores: Int
    private let busy = Atomic<Int>(0)

    /// For `cores` cores (the online processors by default).
    public init(cores: Int? = nil) {
        self.cores = max(1, cores ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Runs `body` with the calling thread's core counted busy.
    public func occupying<Result>(_ body: () throws -> Result) rethrows -> Result {
        busy.add(1, ordering: .relaxed)
        defer { busy.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// Starts `work` on a new thread when fewer than ``cores`` are busy, counting its core busy until it returns.
    public func lend(bytes: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        var seen = busy.load(ordering: .relaxed)
        while true {
            guard seen < cores else { return false }
            let (exchanged, original) = busy.compareExchange(expected: seen, desired: seen + 1, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
        let lent = Lent(work: work, cores: self)
        let context = Unmanaged.passRetained(lent).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { raw in
                let lent = Unmanaged<Lent>.fromOpaque(raw!).takeRetainedValue()
                lent.work()
                lent.cores.busy.subtract(1, ordering: .relaxed)
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Lent>.fromOpaque(context).release()
            busy.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// True when more threads count their cores busy than there are cores (a worker took its next input while a
    /// helper held a core): a helper returns.
    public var othersWaiting: Bool { busy.load(ordering: .relaxed) > cores }

    private final class Lent: Sendable {
        let work: @Sendable () -> Void
        let cores: SpareCores

        init(work: @escaping @Sendable () -> Void, cores: SpareCores) {
            self.work = work
            self.cores = cores
        }
    }
}
