import Foundation
import Shrink
import Synchronization
import Testing
@testable import ShrinkServer

/// Reservations block their thread (downloads run on threads of their own), so these tests wait on threads too.
@Suite struct DownloadBudgetTests {
    /// Runs `body` on a new thread; the result arrives when it returns.
    func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in Thread.detachNewThread { c.resume(returning: body()) } }
    }

    @Test func reservationsWaitInOrderAndReturnWithTheirBytes() async throws {
        let budget = DownloadBudget(capacity: 100)
        try budget.reserve(70, for: "a")
        let granted = Mutex(false)
        let second = Task {
            await onThread { () -> Bool in
                do { try budget.reserve(50, for: "b") } catch { return false }
                granted.withLock { $0 = true }
                return true
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!granted.withLock { $0 } && budget.used == 70)
        // Bytes adopted with the reservation give it back when freed.
        var bytes: ImageBytes? = ImageBytes(
            adopting: .allocate(byteCount: 70, alignment: 16), count: 70, onRelease: { budget.release(70) })
        #expect(bytes?.count == 70)
        bytes = nil
        #expect(await second.value)
        #expect(budget.used == 50)
        #expect(throws: ImageError.self) { try budget.reserve(101, for: "too big") }
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let budget = DownloadBudget(capacity: 10)
        try budget.reserve(10, for: "a")
        let cancelled = Atomic<Bool>(false)
        let waiting = Task {
            await onThread { () -> String? in
                do { try budget.reserve(5, for: "b") { cancelled.load(ordering: .relaxed) } } catch {
                    return (error as? ImageError)?.code.description
                }
                return nil
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.store(true, ordering: .relaxed)
        let code = await waiting.value
        #expect(code == "cancelled")
        budget.release(10)
        #expect(budget.used == 0)
        // The queue moved on: a later reservation is granted at once.
        try budget.reserve(10, for: "c")
        #expect(budget.used == 10)
    }
}
