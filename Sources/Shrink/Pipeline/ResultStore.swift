import ShrinkCore
import Synchronization

/// The pipeline's store stage: its cache tiers — decoded pixels in memory, encoded results in memory, encoded
/// thumbnails on disk, and encoded results in a ``SharedResultStore`` when one is configured (read and written as
/// the disk tier's cache policy allows) — and the ``ResultIndex`` that lets a request spelled differently find a result.
/// Every read and write of a tier is one method here, gated by the request's ``CachePolicy``; the stages call
/// these and nothing else touches a cache.
///
/// Memory: the memory tiers share the pipeline's budget with the running decodes (``shareBudget(room:)``
/// evicts them as decodes need room); the disk tier holds one entry in memory while reading or writing it.
final class ResultStore: Sendable {
    /// Decoded images by request key, charged their exact buffer bytes; nil when disabled.
    let memoryCache: MemoryCache<CacheKey, DecodedImage>?
    /// Encoded results by request and output key, charged their byte counts; nil when disabled.
    let encodedCache: MemoryCache<CacheKey, EncodedImage>?
    /// Encoded thumbnails on disk; nil when not configured.
    let diskCache: DiskCache?
    /// Encoded results shared with other processes; nil when not configured.
    let shared: (any SharedResultStore)?
    /// The registry entries are read and written with.
    let codecs: CodecRegistry
    private let diskCacheQuality: Int
    private let observer: (@Sendable (PipelineEvent) -> Void)?
    private let results = Mutex(ResultIndex())

    init(configuration: ImagePipeline.Configuration) {
        memoryCache = configuration.memoryCache.map { MemoryCache(configuration: $0) }
        encodedCache = configuration.encodedCache.map { MemoryCache(configuration: $0) }
        diskCache = configuration.diskCache
        shared = configuration.sharedResults
        diskCacheQuality = configuration.diskCacheQuality
        codecs = configuration.codecs
        observer = configuration.observer
    }

    // MARK: - Reading

    /// The memory tier's result for `key` (the encoded tier for a request for bytes), when it has one and
    /// the request may read it.
    func memoryHit(_ key: CacheKey, request: ImageRequest, encoded: Bool) -> PipelineOutput? {
        guard !request.cachePolicy.contains(.skipMemoryCacheRead) else { return nil }
        if encoded {
            guard let image = encodedCache?.value(for: key) else { return nil }
            var telemetry = ImageTelemetry(origin: .memoryCache, pixelFormat: nil)
            telemetry.encodedBytes = image.bytes.count
            return .encoded(EncodedResponse(image: image, telemetry: telemetry))
        }
        guard let image = memoryCache?.value(for: key) else { return nil }
        var telemetry = ImageTelemetry(origin: .memoryCache, pixelFormat: image.pixels.format)
        telemetry.prescale = image.plan.prescale
        telemetry.bufferBytes = image.pixels.byteCount
        telemetry.predictedPeakBytes = image.predictedPeakBytes
        return .decoded(ImageResponse(image: image, telemetry: telemetry))
    }

    /// The disk tier's entry for `key`, as stored, when there is one and the request may read it. A request
    /// for bytes is answered with it as it is; a request for pixels decodes it (``DecodeStage``).
    func diskEntry(_ key: CacheKey, request: ImageRequest) -> [UInt8]? {
        guard let disk = diskCache, !request.cachePolicy.contains(.skipDiskCacheRead) else { return nil }
        return disk.data(for: key.string)
    }

    /// A request for bytes answered from the disk tier (under `key`: `job`'s own, or the one a request spelled
    /// differently stored the same result under), stored bytes as they are, then kept in the encoded memory
    /// tier; nil on a miss, for a request for pixels, or when the entry's header does not read.
    func encodedDiskHit(for job: PipelineJob, key: CacheKey? = nil) -> PipelineOutput? {
        guard let output = job.output, let data = diskEntry(key ?? job.key, request: job.request),
            let size = (try? ImageSource(bytes: ImageBytes(data), name: "disk cache entry", codecs: codecs))?.info
                .displayedSize
        else { return nil }
        let image = EncodedImage(bytes: data, format: output.format, size: size)
        var telemetry = ImageTelemetry(origin: .diskCache, pixelFormat: nil)
        telemetry.bytesRead = data.count
        telemetry.encodedBytes = data.count
        keep(image, for: job, onDisk: false, shares: false)
        return .encoded(EncodedResponse(image: image, telemetry: telemetry))
    }

    /// A request for bytes answered from the shared tier under `job`'s key: the stored bytes as they are (the store
    /// checked them whole; their header must read as an image of the output's format), then kept in the encoded
    /// memory tier and the disk tier; nil on a miss, for a request for pixels or one that may not read the disk tier.
    func sharedHit(for job: PipelineJob) async -> PipelineOutput? {
        guard let shared, let output = job.output, !job.request.cachePolicy.contains(.skipDiskCacheRead),
            let data = await shared.result(for: job.key.string),
            let source = try? ImageSource(bytes: ImageBytes(data), name: "shared result", codecs: codecs),
            source.info.format == output.format
        else { return nil }
        let image = EncodedImage(bytes: data, format: output.format, size: source.info.displayedSize)
        var telemetry = ImageTelemetry(origin: .sharedStore, pixelFormat: nil)
        telemetry.bytesRead = data.count
        telemetry.encodedBytes = data.count
        keep(image, for: job, onDisk: true, shares: false)
        return .encoded(EncodedResponse(image: image, telemetry: telemetry))
    }

    /// Writes a result for bytes that `job` was answered with under another spelling's key
    /// (``requestKey(forResult:)``) to the disk and shared tiers under `job`'s own key too: the index that found it
    /// is this process's memory, read only once a request is planned (after its source is loaded), while those
    /// tiers are read before any load — so the next request of this spelling, here after a restart or on another
    /// node, is answered without loading its source.
    func keepUnderOwnKey(_ output: PipelineOutput?, for job: PipelineJob) {
        guard case .encoded(let response)? = output else { return }
        store(response.image.bytes, for: job, indexed: false)
        if let shared, !job.request.cachePolicy.contains(.skipDiskCacheWrite) {
            shared.store(response.image, for: job.key.string)
        }
    }

    /// The request key the result `key` was cached under (``ResultIndex``), when another request made it.
    func requestKey(forResult key: CacheKey) -> CacheKey? {
        results.withLock { $0[key] }
    }

    // MARK: - Writing

    /// Keeps a decoded image in the memory tier, and (decoded here, not read from disk) encoded in the disk tier
    /// (``CodecRegistry/cacheSettings(for:quality:)``), as far as the request allows. Returns true when the memory
    /// tier took it (then the budget is shared again).
    @discardableResult
    func keep(_ image: DecodedImage, for job: PipelineJob, onDisk: Bool) -> Bool {
        let kept = remember(image, in: memoryCache, cost: image.pixels.byteCount, for: job)
        let settings = CodecRegistry.cacheSettings(for: image.pixels, quality: diskCacheQuality)
        if onDisk, writesDisk(for: job),
            let encoded = try? codecs.encoder(for: settings).encode(image.pixels, metadata: ImageMetadata())
        {
            store(encoded, for: job, indexed: false)
        }
        return kept
    }

    /// Keeps an encoded result in the encoded memory tier, when `onDisk` the disk tier, and when `shares` (made
    /// here) the shared tier, as far as the request allows. Returns true when the memory tier took it.
    @discardableResult
    func keep(_ image: EncodedImage, for job: PipelineJob, onDisk: Bool, shares: Bool) -> Bool {
        let kept = remember(image, in: encodedCache, cost: image.bytes.count, for: job)
        if onDisk { store(image.bytes, for: job, indexed: true) }
        if shares, let shared, !job.request.cachePolicy.contains(.skipDiskCacheWrite) {
            shared.store(image, for: job.key.string)
        }
        return kept
    }

    /// Puts `value` in the memory tier `cache` at `cost` under `job`'s key, unless the request may not write it;
    /// true when the tier took it.
    private func remember<Value>(
        _ value: Value, in cache: MemoryCache<CacheKey, Value>?, cost: Int, for job: PipelineJob
    ) -> Bool {
        guard let cache, !job.request.cachePolicy.contains(.skipMemoryCacheWrite),
            cache.set(value, for: job.key, cost: cost)
        else { return false }
        indexResult(of: job)
        observer?(.memoryCacheStored(key: job.key.string, cost: cost))
        return true
    }

    /// True when there is a disk tier and `job`'s request may write it.
    private func writesDisk(for job: PipelineJob) -> Bool {
        diskCache != nil && !job.request.cachePolicy.contains(.skipDiskCacheWrite)
    }

    /// Writes `bytes` to the disk tier under `job`'s key, unless the request may not write it (`indexed`: the
    /// result index points there too).
    private func store(_ bytes: [UInt8], for job: PipelineJob, indexed: Bool) {
        guard writesDisk(for: job), let diskCache else { return }
        do {
            guard try diskCache.store(bytes, for: job.key.string) else { return }
        } catch {
            observer?(.diskCacheWriteFailed(key: job.key.string, reason: error.message))
            return
        }
        if indexed { indexResult(of: job) }
        observer?(.diskCacheStored(key: job.key.string, bytes: bytes.count))
    }

    /// Evicts cached results until both memory tiers fit in `room` bytes (what the running decodes leave of
    /// the budget).
    func shareBudget(room: Int) {
        let encodedBytes = encodedCache?.statistics.cost ?? 0
        memoryCache?.trim(toCost: max(0, room - encodedBytes))
        encodedCache?.trim(toCost: max(0, room - (memoryCache?.statistics.cost ?? 0)))
    }

    /// Records that `job`'s result is cached under its request key, so that a request spelled differently that
    /// plans the same result finds it.
    private func indexResult(of job: PipelineJob) {
        guard let result = job.resultKey else { return }
        results.withLock { $0[result] = job.key }
    }

    // MARK: - Ledger

    /// The tiers' bytes, counts and hits, written into `ledger`.
    func record(into ledger: inout PipelineLedger) {
        if let e = encodedCache?.statistics {
            ledger.encodedCachedBytes = e.cost
            ledger.encodedCachedImages = e.count
            ledger.encodedCacheHits = e.hits
        }
        if let m = memoryCache?.statistics {
            ledger.cachedBytes = m.cost
            ledger.cachedImages = m.count
            ledger.memoryCacheHits = m.hits
            ledger.memoryCacheMisses = m.misses
        }
        if let d = diskCache?.statistics {
            ledger.diskCacheHits = d.hits
            ledger.diskCacheMisses = d.misses
            ledger.diskCacheWriteFailures = d.writeFailures
            ledger.diskCacheWriting = diskCache?.isWriting
        }
    }
}
