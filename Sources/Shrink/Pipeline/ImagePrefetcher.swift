import ShrinkCore
import Synchronization

/// Decodes images ahead of need at low priority, the way a scrolling grid warms the rows below the screen:
/// visible requests (normal priority) overtake queued prefetches, and a visible request for an image being
/// prefetched joins that decode instead of starting another.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: pipeline)
/// prefetcher.startPrefetching(with: nextRows)
/// // … later, when the user scrolled the other way:
/// prefetcher.stopPrefetching(with: nextRows)
/// ```
public final class ImagePrefetcher: Sendable {
    /// Which cache prefetched images warm.
    public enum Destination: Sendable {
        /// Decode and keep the result in the memory cache.
        case memoryCache
        /// Decode and store the encoded result in the disk cache only (memory is left alone).
        case diskCache
    }

    /// The pipeline doing the work.
    public let pipeline: ImagePipeline
    /// Where results go. `.memoryCache` by default.
    public let destination: Destination
    /// The priority prefetches run at. `.low` by default.
    public let priority: ImageRequest.Priority
    private let tasks = Mutex<[CacheKey: ImageTask]>([:])

    /// A prefetcher that warms `destination` of `pipeline` at `priority` (`.low` by default, below what
    /// someone is looking at).
    public init(
        pipeline: ImagePipeline, destination: Destination = .memoryCache, priority: ImageRequest.Priority = .low
    ) {
        self.pipeline = pipeline
        self.destination = destination
        self.priority = priority
    }

    deinit { stopPrefetching() }

    /// Starts prefetching each request not already cached or being prefetched.
    public func startPrefetching(with requests: [ImageRequest]) {
        for var request in requests {
            guard let key = try? request.cacheKey() else { continue }
            if destination == .memoryCache, pipeline.memoryCache?.contains(key) == true { continue }
            let already = tasks.withLock { $0[key] != nil }
            if already { continue }
            request.priority = priority
            if destination == .diskCache { request.cachePolicy.insert(.skipMemoryCacheWrite) }
            let task = pipeline.imageTask(with: request)
            let stored = tasks.withLock { t -> Bool in
                guard t[key] == nil else { return false }
                t[key] = task
                return true
            }
            guard stored else {
                task.cancel()
                continue
            }
            task.onFinish { [weak self] in
                self?.tasks.withLock { t in if t[key] === task { t[key] = nil } }
            }
        }
    }

    /// Stops prefetching these requests (a visible request sharing the decode keeps it going).
    public func stopPrefetching(with requests: [ImageRequest]) {
        for request in requests {
            guard let key = try? request.cacheKey() else { continue }
            tasks.withLock { $0.removeValue(forKey: key) }?.cancel()
        }
    }

    /// Stops every prefetch.
    public func stopPrefetching() {
        let all = tasks.withLock { t -> [ImageTask] in
            defer { t.removeAll() }
            return Array(t.values)
        }
        for task in all { task.cancel() }
    }

    /// Prefetches started and not yet finished.
    public var pendingCount: Int { tasks.withLock { $0.count } }
}
