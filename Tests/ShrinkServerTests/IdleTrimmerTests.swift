import Synchronization
import Testing
@testable import ShrinkServer

/// The heap is trimmed off the request path, once per idle stretch, never while a request is in flight.
@Suite struct IdleTrimmerTests {
    @Test func trimsOnceAfterTheLastRequestEndsAndNeverDuringOne() async throws {
        let trims = Mutex(0)
        let trimmer = IdleTrimmer(idleDelay: .milliseconds(100)) { trims.withLock { $0 += 1 } }
        #expect(trimmer.enter() == 1)
        try await Task.sleep(for: .milliseconds(700))
        #expect(trims.withLock { $0 } == 0, "no trim while a request is in flight")
        #expect(trimmer.leave() == 0)
        for _ in 0..<40 where trims.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(trims.withLock { $0 } == 1)
        try await Task.sleep(for: .milliseconds(700))
        #expect(trims.withLock { $0 } == 1, "one trim per idle stretch")
        trimmer.enter()
        trimmer.leave()
        for _ in 0..<40 where trims.withLock({ $0 }) == 1 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(trims.withLock { $0 } == 2, "a new stretch after new work")
    }
}
