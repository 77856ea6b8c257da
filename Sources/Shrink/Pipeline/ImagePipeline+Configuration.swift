import ShrinkCore

extension ImagePipeline {
    /// How a pipeline admits, runs and caches decodes.
    public struct Configuration: Sendable {
        /// Bytes that running decodes may hold together, each charged its predicted peak from the header.
        /// A quarter of ``SystemResources/memoryLimit`` (the cgroup's `memory.max`, else physical memory),
        /// at most 2 GiB, by default.
        public var decodeBudget: Int
        /// Decodes running at once, each on a dedicated thread. ``SystemResources/cores`` by default.
        public var maxConcurrentDecodes: Int
        /// Limits of the memory cache of decoded images (cost = exact buffer bytes); `nil` for no memory
        /// cache. A tenth of the memory limit, at most 256 MiB, and at most 1000 images by default.
        public var memoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration?
        /// Limits of the memory cache of encoded results (``ImagePipeline/encodedImage(for:as:)``; cost = bytes);
        /// `nil` (the default) for none.
        public var encodedCache: MemoryCache<CacheKey, EncodedImage>.Configuration?
        /// When true the memory caches live inside the decode budget (one ledger): cached images are evicted,
        /// least recently used first, so cached bytes plus running charges stay within ``decodeBudget``.
        /// `false` by default (the cache has its own limit).
        public var cacheSharesDecodeBudget: Bool
        /// A disk cache of encoded thumbnails (JPEG for opaque results, PNG otherwise). `nil` by default.
        public var diskCache: DiskCache?
        /// JPEG quality of disk cache entries. `90` by default.
        public var diskCacheQuality: Int
        /// Sample the heap between strips to report ``ImageTelemetry/measuredPeakBytes``. `true` by default.
        public var measuresMemory: Bool
        /// Called on the decoding thread as decodes start and end (instrumentation, tests). `nil` by default.
        public var observer: (@Sendable (PipelineEvent) -> Void)?

        public init(decodeBudget: Int? = nil, maxConcurrentDecodes: Int? = nil,
                    memoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration? = Configuration.defaultMemoryCache,
                    encodedCache: MemoryCache<CacheKey, EncodedImage>.Configuration? = nil,
                    cacheSharesDecodeBudget: Bool = false,
                    diskCache: DiskCache? = nil, diskCacheQuality: Int = 90, measuresMemory: Bool = true,
                    observer: (@Sendable (PipelineEvent) -> Void)? = nil) {
            self.decodeBudget = max(1, decodeBudget ?? min(SystemResources.memoryLimit / 4, 2 << 30))
            self.maxConcurrentDecodes = max(1, maxConcurrentDecodes ?? SystemResources.cores)
            self.memoryCache = memoryCache
            self.encodedCache = encodedCache
            self.cacheSharesDecodeBudget = cacheSharesDecodeBudget
            self.diskCache = diskCache
            self.diskCacheQuality = diskCacheQuality
            self.measuresMemory = measuresMemory
            self.observer = observer
        }

        /// What a server wants: `budget` bytes for everything the pipeline holds (decodes, their encoders and
        /// in-memory sources, and a cache of encoded results inside the same budget, evicted as decodes need
        /// room; at most `resultCacheBytes`, half the budget by default, 0 for none), no cache of pixels (a
        /// server sends bytes), `maxConcurrentDecodes` threads (the cores by default), and `diskCache` when given.
        /// The heap is not sampled (``measuresMemory`` false): with decodes side by side a process-wide sample
        /// says nothing of one decode, and `mallinfo2` takes every arena's lock, stalling the other decodes.
        public static func server(budget: Int, maxConcurrentDecodes: Int? = nil, resultCacheBytes: Int? = nil,
                                  diskCache: DiskCache? = nil) -> Configuration {
            let cacheBytes = resultCacheBytes ?? budget / 2
            return Configuration(decodeBudget: budget, maxConcurrentDecodes: maxConcurrentDecodes, memoryCache: nil,
                                 encodedCache: cacheBytes > 0 ? MemoryCache.Configuration(costLimit: cacheBytes, countLimit: 10_000) : nil,
                                 cacheSharesDecodeBudget: true, diskCache: diskCache, measuresMemory: false)
        }

        /// The default memory cache limits (see ``memoryCache``).
        public static var defaultMemoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration {
            MemoryCache.Configuration(costLimit: min(SystemResources.memoryLimit / 10, 256 << 20), countLimit: 1000)
        }
    }
}
