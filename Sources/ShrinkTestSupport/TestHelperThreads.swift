import Foundation
import Shrink
import Synchronization

/// A ``DecodeHelping`` for tests: lends each offer a thread of its own while fewer than `limit` are out, and counts
/// them; never asks a helper back.
public final class TestHelperThreads: DecodeHelping {
    public let limit: Int
    /// Helpers lent so far.
    public let lent = Atomic<Int>(0)
    private let out = Atomic<Int>(0)
    /// Run on the lent thread before the work.
    private let first: @Sendable () -> Void

    /// Lends up to `limit` threads at once; each runs `first` before its work.
    public init(limit: Int, first: @escaping @Sendable () -> Void = {}) {
        self.limit = limit
        self.first = first
    }

    public func lend(bytes: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        guard out.add(1, ordering: .relaxed).newValue <= limit else {
            out.subtract(1, ordering: .relaxed)
            return false
        }
        lent.add(1, ordering: .relaxed)
        Thread.detachNewThread { [self] in
            first()
            work()
            out.subtract(1, ordering: .relaxed)
        }
        return true
    }

    public var othersWaiting: Bool { false }

    /// Decodes `source` at `target` as rgb8 with one helper that cancels the decode before it takes its first piece:
    /// the error the decode ended with (nil if it finished), the helpers lent, and the rows decoded.
    public static func cancelledByItsHelper(_ source: ImageSource, _ target: ThumbnailTarget) throws(ImageError) -> (
        error: ImageError?, lent: Int, rows: Int
    ) {
        let monitor = DecodeMonitor()
        var options = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let threads = TestHelperThreads(limit: 1) { monitor.cancel() }
        options.helpers = threads
        let plan = try source.plan(target, options: options)
        var failure: ImageError?
        do {
            _ = try source.image(plan, options: options, monitor: monitor)
        } catch {
            failure = error
        }
        return (failure, threads.lent.load(ordering: .relaxed), monitor.rowsDecoded)
    }
}
