import Synchronization

/// A thread-safe count of failed inputs in a batch.
final class Failures: Sendable {
    private let value = Atomic<Int>(0)

    func add() { value.wrappingAdd(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
