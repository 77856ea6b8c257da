import ShrinkCore

extension ImagePipeline {
    /// How a pipeline admits, runs and caches decodes.
    public struct Configuration: Sendable {
        /// The one number for the memory a pipeline holds: running decodes, each charged its predicted peak
        /// from the header (with its encoder and any bytes in memory), and its memory caches, which are
        /// evicted least recently used first as decodes need room. A quarter of the memory limit (the
        /// cgroup's `memory.max`, else physical memory), at most 2 GiB, by default.
        public var budget: Int
        /// Decodes running at once, each on a dedicated thread. The number of cores by default.
        public var maxConcurrentDecodes: Int
        /// Limits of the memory cache of decoded images (cost = exact buffer bytes), inside ``budget``; `nil`
        /// for no memory cache. A tenth of the memory limit, at most 256 MiB, and at most 1000 images by default.
        public var memoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration?
        /// Limits of the memory cache of encoded results (``ImagePipeline/encodedImage(for:as:)``; cost = bytes);
        /// Inside ``budget`` too; `nil` (the default) for none.
        public var encodedCache: MemoryCache<CacheKey, EncodedImage>.Configuration?
        /// A disk cache of encoded thumbnails (JPEG for opaque results, PNG otherwise). `nil` by default.
        public var diskCache: DiskCache?
        /// Encoded results shared with other processes, asked after the disk tier by requests for bytes and given
        /// every result encoded here (``SharedResultStore``). `nil` by default.
        public var sharedResults: (any SharedResultStore)?
        /// JPEG quality of disk cache entries. `90` by default.
        public var diskCacheQuality: Int
        /// Sample the heap between strips to report ``ImageTelemetry/measuredPeakBytes``. `true` by default.
        public var measuresMemory: Bool
        /// Called on the decoding thread as decodes start and end (instrumentation, tests). `nil` by default.
        public var observer: (@Sendable (PipelineEvent) -> Void)?
        /// The codecs requests are read and results written with (``CodecRegistry/standard`` by default; add a
        /// codec of your own with ``CodecRegistry/adding(_:)``). A request's ``ImageRequest`` loader that opens its
        /// own source keeps that source's codecs.
        public var codecs: CodecRegistry

        /// A configuration with the defaults above, or the values given (`nil` for the default).
        public init(
            budget: Int? = nil, maxConcurrentDecodes: Int? = nil,
            memoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration? = Configuration.defaultMemoryCache,
            encodedCache: MemoryCache<CacheKey, EncodedImage>.Configuration? = nil,
            diskCache: DiskCache? = nil, diskCacheQuality: Int = 90, measuresMemory: Bool = true,
            observer: (@Sendable (PipelineEvent) -> Void)? = nil, codecs: CodecRegistry = .standard
        ) {
            self.codecs = codecs
            self.budget = max(1, budget ?? min(SystemResources.memoryLimit / 4, 2 << 30))
            self.maxConcurrentDecodes = max(1, maxConcurrentDecodes ?? SystemResources.cores)
            self.memoryCache = memoryCache
            self.encodedCache = encodedCache
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
        public static func server(
            budget: Int, maxConcurrentDecodes: Int? = nil, resultCacheBytes: Int? = nil,
            diskCache: DiskCache? = nil
        ) -> Configuration {
            let cacheBytes = resultCacheBytes ?? budget / 2
            return Configuration(
                budget: budget, maxConcurrentDecodes: maxConcurrentDecodes, memoryCache: nil,
                encodedCache: cacheBytes > 0
                    ? MemoryCache.Configuration(costLimit: cacheBytes, countLimit: 10_000) : nil,
                diskCache: diskCache, measuresMemory: false)
        }

        /// The default memory cache limits (see ``memoryCache``).
        public static var defaultMemoryCache: MemoryCache<CacheKey, DecodedImage>.Configuration {
            MemoryCache.Configuration(costLimit: min(SystemResources.memoryLimit / 10, 256 << 20), countLimit: 1000)
        }
    }
}
