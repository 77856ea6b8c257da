/// Everything a pipeline holds and has done, read in one go: the decode budget and what running decodes
/// are charged against it, the queue, the memory cache's bytes, and the counters.
public struct PipelineLedger: Sendable {
    /// The budget in bytes (``ImagePipeline/Configuration/budget``): running charges and cached images share it.
    public var budget = 0
    /// Predicted peak bytes of the decodes running now (always ≤ ``budget``).
    public var runningCharge = 0
    /// Decodes running now.
    public var runningDecodes = 0
    /// The highest ``runningCharge`` ever reached.
    public var peakRunningCharge = 0
    /// The most decodes that ever ran at once.
    public var peakRunningDecodes = 0
    /// Work waiting for budget or a thread (decodes, and header reads of files), and its charges.
    public var queuedDecodes = 0
    /// The predicted bytes of the queued work.
    public var queuedCharge = 0
    /// Images being loaded, queued or decoded (after coalescing), and the tasks waiting for them.
    public var inFlightImages = 0
    /// Tasks waiting for those images (several may share one).
    public var waitingTasks = 0
    /// Exact buffer bytes and images in the memory cache.
    public var cachedBytes = 0
    /// Images in the memory cache.
    public var cachedImages = 0
    /// Decoder threads alive now.
    public var decoderThreads = 0
    /// Decodes started since the pipeline was made (the counters below count since then too).
    public var decodesStarted = 0
    /// Decode threads lent to running decodes while they would otherwise idle (a grid's or a TIFF's tiles or strips
    /// decoded beside the reader; ``ThumbnailOptions/helpers``), each charged its helper's bytes.
    public var helpersLent = 0
    /// Decodes stopped because every task waiting for them was cancelled.
    public var decodesCancelled = 0
    /// Requests that joined a decode already in flight instead of starting one.
    public var coalescedRequests = 0
    /// Requests the memory cache of pixels answered.
    public var memoryCacheHits = 0
    /// Lookups in the memory cache of pixels that found nothing.
    public var memoryCacheMisses = 0
    /// Lookups in the disk cache that found an entry.
    public var diskCacheHits = 0
    /// Lookups in the disk cache that found none.
    public var diskCacheMisses = 0
    /// Writes to the disk cache that failed (a full or read-only disk; each turns writing off for a while).
    public var diskCacheWriteFailures = 0
    /// Whether the disk cache writes new entries now (false while off after a failure); nil without one.
    public var diskCacheWriting: Bool?
    /// Encoded results in the encoded memory cache (``ImagePipeline/encodedCache``): bytes, count, hits.
    public var encodedCachedBytes = 0
    /// Results in the encoded memory cache.
    public var encodedCachedImages = 0
    /// Requests the encoded memory cache answered.
    public var encodedCacheHits = 0
    /// Results encoded to bytes since the pipeline was made.
    public var encodes = 0

    /// An empty ledger (every figure 0): for tests and for code that stands in for a pipeline.
    public init() {}

    /// Bytes held by the pipeline for images: cached results (pixels and encoded) plus the charges of running
    /// decodes (which include their encoders and in-memory sources).
    public var totalBytes: Int { cachedBytes + encodedCachedBytes + runningCharge }
}
