import Shrink
import ShrinkTestSupport
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A blocking latch for scheduler threads (which must not suspend): `wait()` sleeps until `open()`.
final class Latch: Sendable {
    private let flag = Atomic<Bool>(false)
    func open() { flag.store(true, ordering: .releasing) }
    var isOpen: Bool { flag.load(ordering: .acquiring) }
    func wait() { while !isOpen { usleep(500) } }
}

/// Bytes in memory under a chosen identity, optionally held back by a gate; counts loads.
struct MemoryLoader: DataLoading {
    let bytes: [UInt8]
    let id: String
    var gate: Gate?
    let loads = Counter()

    var name: String { id }
    func identity() throws(ImageError) -> String { id }
    func load() async throws(ImageError) -> ImageBytes {
        loads.add()
        if let gate { await gate.wait() }
        return ImageBytes(bytes, name: id)
    }
}

final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func add() { value.wrappingAdd(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Records pipeline events in order.
final class EventLog: Sendable {
    private let events = Mutex<[PipelineEvent]>([])
    func append(_ e: PipelineEvent) { events.withLock { $0.append(e) } }
    var all: [PipelineEvent] { events.withLock { $0 } }
    var startedKeys: [String] {
        all.compactMap { if case .decodeStarted(let key, _, _) = $0 { key } else { nil } }
    }
    /// The source identity (`src=` field) of each started decode's key, in order.
    var startedSources: [String] {
        startedKeys.map { key in
            key.split(separator: "|").first { $0.hasPrefix("src=") }.map { String($0.dropFirst(4)) } ?? key
        }
    }
}

/// Polls `condition` for up to `seconds`: generous, since only a failure waits that long, and under load the
/// synchronous tests beside it can hold the cooperative pool (which loaders and polls need) for over a minute.
func eventually(_ seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
