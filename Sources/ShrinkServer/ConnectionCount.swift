import Synchronization

/// The server's open connections, counted against its cap (``ConnectionGuard``).
package final class ConnectionCount: Sendable {
    private let open = Atomic<Int>(0)

    init() {}

    /// Counts one more connection when fewer than `limit` are open; false (nothing counted) otherwise.
    func admit(limit: Int) -> Bool {
        var current = open.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = open.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// One connection closed.
    func release() { open.subtract(1, ordering: .relaxed) }

    /// Connections open now.
    package var current: Int { open.load(ordering: .relaxed) }
}
