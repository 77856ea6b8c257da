import ShrinkCore
import Synchronization

/// Decodes images in the background the way a scrolling grid of photos needs: on a bounded set of threads,
/// admitted by predicted bytes, identical requests decoded once, results cached by what they really cost.
///
/// - **Admission by bytes**: each decode's peak is predicted from the header (result, decoder working memory
///   such as progressive coefficients, rows in flight) and charged against ``Configuration/budget``;
///   a decode starts only when its charge fits, at most ``Configuration/maxConcurrentDecodes`` at once, on
///   dedicated threads (never Swift's cooperative pool). A request costing more than the whole budget fails
///   with `.memoryBudgetExceeded` instead of waiting forever.
/// - **Coalescing**: requests with the same ``ImageRequest/cacheKey()`` share one decode; it is cancelled
///   only when every task waiting for it is, and then stops at the next strip, freeing its buffers. Cancelled
///   work never enters a cache.
/// - **Caches**: a cost-based LRU ``memoryCache`` (exact buffer bytes) and an optional ``DiskCache`` of encoded
///   thumbnails; ``ledger`` reads both with the decodes in flight.
///
/// ```swift
/// let pipeline = ImagePipeline()
/// let response = try await pipeline.image(for: ImageRequest(path: "photo.jpg", target: .maxPixelSize(256)))
/// print(response.telemetry.bufferBytes, response.telemetry.queueWait)
/// ```
public final class ImagePipeline: Sendable {
    /// The settings this pipeline was made with.
    public let configuration: Configuration
    /// Decoded images by request key, charged their exact buffer bytes; nil when disabled.
    public let memoryCache: MemoryCache<CacheKey, DecodedImage>?
    /// Encoded results by request and output key, charged their byte counts; nil when disabled.
    public let encodedCache: MemoryCache<CacheKey, EncodedImage>?
    /// Encoded thumbnails on disk; nil when not configured.
    public var diskCache: DiskCache? { configuration.diskCache }

    let scheduler: DecodeScheduler
    private struct State {
        var jobs: [CacheKey: PipelineJob] = [:]
        /// Which request key each result is cached under (``ResultIndex``).
        var results = ResultIndex()
        var jobOfTask: [ObjectIdentifier: PipelineJob] = [:]
        var decodesCancelled = 0
        var coalesced = 0
        var encodes = 0
    }
    private let state = Mutex(State())

    /// A pipeline for the process, made on first use with the default ``Configuration`` (a quarter of the
    /// memory limit, at most 2 GiB; a decode thread per core): what `ImageSource`'s awaited methods can run on
    /// when the app has no pipeline of its own. An app that has one passes it instead, so that one budget
    /// holds all its decodes.
    public static let shared = ImagePipeline()

    /// A pipeline with its own threads, budget and caches. Make one per process (or per kind of work) and
    /// keep it: its threads exit when it is released.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        memoryCache = configuration.memoryCache.map { MemoryCache(configuration: $0) }
        encodedCache = configuration.encodedCache.map { MemoryCache(configuration: $0) }
        scheduler = DecodeScheduler(budget: configuration.budget, maxConcurrent: configuration.maxConcurrentDecodes)
    }

    deinit { scheduler.shutdown() }

    /// Decodes (or finds) the image `request` asks for. Cancelling the calling Swift task cancels the request.
    public func image(for request: ImageRequest) async throws(ImageError) -> ImageResponse {
        try await imageTask(with: request).response
    }

    /// Starts `request` and returns its task at once: await ``ImageTask/response``, change its priority or
    /// cancel it. A memory cache hit finishes the task before this returns.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        task(with: request, output: nil)
    }

    /// Makes the image `request` asks for as a file's bytes, encoded with `output` once per coalesced job
    /// inside the decode's budget charge (the encoder's memory is predicted and charged with it). An encoded
    /// result in the memory or disk cache is returned as it is, without decoding or re-encoding; the disk
    /// cache is read before the source is loaded or any budget is charged.
    public func encodedImage(for request: ImageRequest, as output: OutputSettings) async throws(ImageError)
        -> EncodedResponse
    {
        try await encodedImageTask(with: request, as: output).encodedResponse
    }

    /// Starts a request for bytes (``encodedImage(for:as:)``) and returns its task at once: await
    /// ``ImageTask/encodedResponse``.
    public func encodedImageTask(with request: ImageRequest, as output: OutputSettings) -> ImageTask {
        task(with: request, output: output)
    }

    /// The key of the result `request` makes, encoded with `output` when given: what caches, coalescing and
    /// ETags are keyed by.
    public func cacheKey(for request: ImageRequest, output: OutputSettings? = nil) throws(ImageError) -> CacheKey {
        let key = try request.cacheKey()
        return output.map { key.appending($0.keyFields) } ?? key
    }

    private func task(with request: ImageRequest, output: OutputSettings?) -> ImageTask {
        var request = request
        // Bytes are decoded in the pixels their encoder takes best (YUV 4:2:0 for a JPEG: no RGB image).
        if let output, let encoder = try? CodecRegistry.standard.encoder(for: output) {
            request.options.pixelFormat = encoder.preferredPixels
        }
        let task = ImageTask(request: request, pipeline: self)
        let key: CacheKey
        do {
            key = try cacheKey(for: request, output: output)
            if let output { _ = try CodecRegistry.standard.checkedWriter(for: output) }
        } catch {
            task.finish(.failure(error.naming(request.loader.name)))
            return task
        }
        if let hit = memoryHit(key, request: request, encoded: output != nil) {
            task.finish(.success(hit))
            return task
        }
        let newJob = state.withLock { s -> PipelineJob? in
            if let job = s.jobs[key] {
                job.tasks.append(task)
                job.priority = max(job.priority, request.priority)
                s.jobOfTask[ObjectIdentifier(task)] = job
                s.coalesced += 1
                if let id = job.schedulerID { scheduler.setPriority(job.priority, for: id) }
                return nil
            }
            let job = PipelineJob(
                key: key, request: request, output: output, measuresMemory: configuration.measuresMemory)
            job.tasks = [task]
            s.jobs[key] = job
            s.jobOfTask[ObjectIdentifier(task)] = job
            return job
        }
        if let newJob { start(newJob) }
        return task
    }

    /// The memory cache's result for `key`, when it has one and the request may read it.
    private func memoryHit(_ key: CacheKey, request: ImageRequest, encoded: Bool) -> PipelineOutput? {
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

    /// The decode budget, running and queued charges, the memory cache's bytes and the counters, now.
    public var ledger: PipelineLedger {
        let s = scheduler.snapshot
        var l = PipelineLedger()
        l.budget = scheduler.budget
        l.runningCharge = s.runningCharge
        l.runningDecodes = s.runningDecodes
        l.peakRunningCharge = s.peakRunningCharge
        l.peakRunningDecodes = s.peakRunningDecodes
        l.queuedDecodes = s.queuedCount
        l.queuedCharge = s.queuedCharge
        l.decoderThreads = s.threads
        l.decodesStarted = s.started
        state.withLock { st in
            l.inFlightImages = st.jobs.count
            l.waitingTasks = st.jobOfTask.count
            l.decodesCancelled = st.decodesCancelled
            l.coalescedRequests = st.coalesced
            l.encodes = st.encodes
        }
        if let e = encodedCache?.statistics {
            l.encodedCachedBytes = e.cost
            l.encodedCachedImages = e.count
            l.encodedCacheHits = e.hits
        }
        if let m = memoryCache?.statistics {
            l.cachedBytes = m.cost
            l.cachedImages = m.count
            l.memoryCacheHits = m.hits
            l.memoryCacheMisses = m.misses
        }
        if let d = diskCache?.statistics {
            l.diskCacheHits = d.hits
            l.diskCacheMisses = d.misses
        }
        return l
    }

    // MARK: - Stages

    /// Starts `job`'s first stage: for bytes, the disk cache (a hit is the stored file, no load, no charge);
    /// then a loader that can map at once is read on a decode thread (a zero-charge step, so header page
    /// faults never block Swift's cooperative pool); any other loader is awaited in a task, then the header
    /// is read there.
    private func start(_ job: PipelineJob) {
        let name = job.request.loader.name
        if job.request.loader.loadsImmediately {
            let priority = state.withLock { _ in job.priority }
            do throws(ImageError) {
                let id = try scheduler.submit(charge: 0, priority: priority, name: name, isDecode: false) { _ in
                    guard !job.monitor.isCancelled, !self.servedFromDisk(job) else { return }
                    do throws(ImageError) {
                        guard let bytes = try job.request.loader.loadImmediately() else { return }
                        self.plan(job, bytes: bytes)
                    } catch {
                        self.complete(job, .failure(error))
                    }
                }
                state.withLock { _ in if job.schedulerID == nil { job.schedulerID = id } }
            } catch {
                complete(job, .failure(error))
            }
        } else {
            // One Swift priority for every stage: each distinct priority gets its own executor threads.
            Task.detached {
                guard !self.servedFromDisk(job) else { return }
                do throws(ImageError) {
                    let bytes = try await job.request.loader.load()
                    self.plan(job, bytes: bytes)
                } catch {
                    self.complete(job, .failure(error))
                }
            }
        }
    }

    /// For a request for bytes: completes `job` with its disk cache entry (under `key`: the request's own, or
    /// the one a request spelled differently stored the same result under), stored bytes as they are, and
    /// returns true; false on a miss (or when the request may not read the disk cache).
    private func servedFromDisk(_ job: PipelineJob, key: CacheKey? = nil) -> Bool {
        guard let output = job.output, let disk = diskCache, !job.request.cachePolicy.contains(.skipDiskCacheRead),
            let data = disk.data(for: (key ?? job.key).string), let size = Self.storedSize(data)
        else { return false }
        let image = EncodedImage(bytes: data, format: output.format, size: size)
        var telemetry = ImageTelemetry(origin: .diskCache, pixelFormat: nil)
        telemetry.bytesRead = data.count
        telemetry.encodedBytes = data.count
        storeEncoded(image, for: job)
        complete(job, .success(.encoded(EncodedResponse(image: image, telemetry: telemetry))))
        return true
    }

    /// The displayed size of an encoded result, from its header; nil when it does not read.
    private static func storedSize(_ data: [UInt8]) -> PixelSize? {
        (try? ImageSource(bytes: ImageBytes(data), name: "disk cache entry"))?.info.displayedSize
    }

    /// Reads the header, plans, then queues the decode with its predicted charge.
    private func plan(_ job: PipelineJob, bytes: ImageBytes) {
        let request = job.request
        let source: ImageSource, chosen: BudgetedPlan
        do {
            guard !job.monitor.isCancelled else { return }
            // An open source (an awaited `ImageSource` call) is planned as it is; anything else is opened here.
            if let open = (request.loader as? SourceLoader)?.source {
                source = open
            } else {
                source = try ImageSource(bytes: bytes, name: request.loader.name, limits: request.limits)
            }
            let region = try Self.region(of: request, in: source)
            // Bytes in memory (an upload, a download) are held until the decode ends; so is the encoder's
            // working memory for a request for bytes. Both come out of the budget before the decode's plan.
            let held = bytes.isPageAlignedMapping ? 0 : bytes.count
            var encoding = 0
            if let output = job.output {
                // Every fallback plan keeps the output size: the encoder's bytes follow from the first plan.
                let size = try source.plan(request.target, region: region, options: request.options).outputSize
                encoding = try CodecRegistry.standard.predictedEncodeBytes(for: size, settings: output)
            }
            // The requested plan, or the cheapest that fits what is left of the budget (reported in telemetry).
            chosen = try source.plan(
                request.target, region: region, options: request.options,
                within: max(1, scheduler.budget - held - encoding))
            // The result's own key: a request spelled differently (a box and a long side, say) that planned the
            // same output may have cached it already, under its own key. A fallback plan's result is not the
            // requested one, so it is neither looked up nor offered to others.
            if chosen.fallback == nil {
                let resultKey = Self.resultKey(of: job, plan: chosen)
                job.resultKey = resultKey
                if let stored = state.withLock({ $0.results[resultKey] }), stored != job.key {
                    if let hit = memoryHit(stored, request: request, encoded: job.output != nil) {
                        complete(job, .success(hit))
                        return
                    }
                    if servedFromDisk(job, key: stored) { return }
                }
            }
            let charge = chosen.predictedPeakBytes + held + encoding
            // The header's pages are not needed until the decode is admitted, which may be a while.
            source.bytes.releaseResidentPages()
            let priority = state.withLock { _ in job.priority }
            let id = try scheduler.submit(charge: charge, priority: priority, name: request.loader.name) { waited in
                self.decode(job, source: source, chosen: chosen, charge: charge, waited: waited)
            }
            let cancelled = state.withLock { _ -> Bool in
                job.schedulerID = id
                if job.priority != priority { scheduler.setPriority(job.priority, for: id) }
                return job.monitor.isCancelled
            }
            if cancelled { scheduler.cancelQueued(id) }
        } catch {
            complete(job, .failure(error))
        }
    }

    /// Runs on a scheduler thread once admitted with `charge` (the plan's peak, plus in-memory source bytes and
    /// the encoder's prediction): the disk cache (for pixels), else the decode; for bytes the encode, inside the
    /// same charge; then the caches and the waiting tasks.
    private func decode(_ job: PipelineJob, source: ImageSource, chosen: BudgetedPlan, charge: Int, waited: Duration) {
        let observer = configuration.observer
        let request = job.request
        let plan = chosen.plan
        observer?(.decodeStarted(key: job.key.string, charge: charge, runningCharge: scheduler.snapshot.runningCharge))
        let started = ContinuousClock.now
        shareBudgetWithCache()
        job.monitor.beginMeasuring()
        var telemetry = ImageTelemetry(origin: .decoded, pixelFormat: chosen.format)
        telemetry.fallback = chosen.fallback
        telemetry.queueWait = waited
        telemetry.predictedPeakBytes = charge
        telemetry.prescale = plan.prescale
        let result: Result<DecodedImage, ImageError>
        do {
            if job.output == nil, let entry = diskEntry(for: job, source: source, plan: plan, charge: charge) {
                telemetry.origin = .diskCache
                telemetry.bytesRead = entry.bytes
                result = .success(entry.image)
            } else {
                let image = try source.image(plan, options: chosen.options, monitor: job.monitor)
                telemetry.bytesRead = source.fileBytes
                result = .success(image)
            }
        } catch {
            result = .failure(error)
        }
        if case .success(let image) = result {
            telemetry.pixelFormat = image.pixels.format
            telemetry.bufferBytes = image.pixels.byteCount
            if telemetry.origin == .decoded {
                (telemetry.decodePath, telemetry.decoder, telemetry.colorConversion) = (
                    image.decodePath, image.decoder, image.colorConversion
                )
            }
            telemetry.measuredPeakBytes = job.monitor.peakBytes
        }
        telemetry.decodeTime = started.duration(to: .now)
        let output: Result<PipelineOutput, ImageError>
        if let settings = job.output {
            switch result {
            case .failure(let error): output = .failure(error)
            case .success(let image):
                do throws(ImageError) {
                    output = .success(.encoded(try encodeResult(image, of: job, as: settings, telemetry: &telemetry)))
                } catch {
                    output = .failure(error)
                }
            }
        } else {
            if case .success(let image) = result, !job.monitor.isCancelled {
                if let cache = memoryCache, !request.cachePolicy.contains(.skipMemoryCacheWrite),
                    cache.set(image, for: job.key, cost: image.pixels.byteCount)
                {
                    indexResult(of: job)
                    observer?(.memoryCacheStored(key: job.key.string, cost: image.pixels.byteCount))
                    shareBudgetWithCache()
                }
                if telemetry.origin == .decoded, let disk = diskCache,
                    !request.cachePolicy.contains(.skipDiskCacheWrite),
                    let encoded = try? diskEncoding(of: image.pixels).encode(image.pixels, metadata: ImageMetadata()),
                    (try? disk.store(encoded, for: job.key.string)) != nil
                {
                    observer?(.diskCacheStored(key: job.key.string, bytes: encoded.count))
                }
            }
            output = result.map { .decoded(ImageResponse(image: $0, telemetry: telemetry)) }
        }
        let cancelled = job.monitor.isCancelled
        observer?(
            .decodeFinished(
                key: job.key.string, charge: charge, cancelled: cancelled, rowsDecoded: job.monitor.rowsDecoded))
        if cancelled {
            state.withLock { $0.decodesCancelled += 1 }
        } else {
            complete(job, output)
        }
    }

    /// Evicts cached images until they fit beside the running charges (``Configuration/budget`` holds both).
    private func shareBudgetWithCache() {
        let room = max(0, scheduler.budget - scheduler.snapshot.runningCharge)
        let encodedBytes = encodedCache?.statistics.cost ?? 0
        memoryCache?.trim(toCost: max(0, room - encodedBytes))
        encodedCache?.trim(toCost: max(0, room - (memoryCache?.statistics.cost ?? 0)))
    }

    /// The image from the disk cache entry for `job`, decoded in the request's pixel format policy; nil on a
    /// miss (or a damaged entry, which the cache drops).
    private func diskEntry(
        for job: PipelineJob, source: ImageSource, plan: ThumbnailPlan,
        charge: Int
    ) -> (image: DecodedImage, bytes: Int)? {
        guard let disk = diskCache, !job.request.cachePolicy.contains(.skipDiskCacheRead),
            let data = disk.data(for: job.key.string)
        else { return nil }
        do {
            let entry = try ImageSource(bytes: data, name: "\(job.request.loader.name) (disk cache)")
            guard entry.info.displayedSize == plan.outputSize else { return nil }
            var options = job.request.options
            options.allowUpscaling = false
            let pixels = try entry.image(.original, region: nil, options: options, monitor: job.monitor).pixels
            let metadata = try source.decoder.metadata().orientedUpright
            return (
                DecodedImage(pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: charge), data.count
            )
        } catch {
            return nil
        }
    }

    /// How results are stored on disk (``CodecRegistry/cacheSettings(for:quality:)``).
    private func diskEncoding(of pixels: PixelBuffer) throws(ImageError) -> any ImageEncoding {
        try CodecRegistry.standard.encoder(
            for: CodecRegistry.cacheSettings(for: pixels, quality: configuration.diskCacheQuality))
    }

    /// Hands `result` to every task still waiting for `job` and forgets the job.
    private func complete(_ job: PipelineJob, _ result: Result<PipelineOutput, ImageError>) {
        let name = job.request.loader.name
        let result = result.mapError { $0.naming(name) }
        let tasks = state.withLock { s -> [ImageTask] in
            if s.jobs[job.key] === job { s.jobs[job.key] = nil }
            let tasks = job.tasks
            job.tasks = []
            for t in tasks { s.jobOfTask[ObjectIdentifier(t)] = nil }
            return tasks
        }
        for (i, task) in tasks.enumerated() {
            task.finish(result.map { output in output.with { $0.coalesced = i > 0 } })
        }
    }

    /// Stores an encoded result in the encoded memory cache, when there is one and the request may write it.
    private func storeEncoded(_ image: EncodedImage, for job: PipelineJob) {
        guard let cache = encodedCache, !job.request.cachePolicy.contains(.skipMemoryCacheWrite),
            cache.set(image, for: job.key, cost: image.bytes.count)
        else { return }
        indexResult(of: job)
        configuration.observer?(.memoryCacheStored(key: job.key.string, cost: image.bytes.count))
        shareBudgetWithCache()
    }

    /// Encodes `job`'s decoded `image` with `settings` and stores the bytes in the caches.
    private func encodeResult(
        _ image: DecodedImage, of job: PipelineJob, as settings: OutputSettings,
        telemetry: inout ImageTelemetry
    ) throws(ImageError) -> EncodedResponse {
        guard !job.monitor.isCancelled else {
            throw ImageError(.cancelled, "\(job.request.loader.name): request cancelled", name: job.request.loader.name)
        }
        let encodeStart = ContinuousClock.now
        let encoded = try Self.encode(image, as: settings)
        telemetry.encodeTime = encodeStart.duration(to: .now)
        telemetry.encodedBytes = encoded.bytes.count
        state.withLock { $0.encodes += 1 }
        storeEncoded(encoded, for: job)
        if let disk = diskCache, !job.request.cachePolicy.contains(.skipDiskCacheWrite),
            (try? disk.store(encoded.bytes, for: job.key.string)) != nil
        {
            indexResult(of: job)
            configuration.observer?(.diskCacheStored(key: job.key.string, bytes: encoded.bytes.count))
        }
        return EncodedResponse(image: encoded, telemetry: telemetry)
    }

    /// `image` encoded with `output` (runs on the decode thread, inside the job's charge).
    private static func encode(_ image: DecodedImage, as output: OutputSettings) throws(ImageError) -> EncodedImage {
        let encoder = try CodecRegistry.standard.encoder(for: output)
        let bytes = try encoder.encode(image.pixels, metadata: image.metadata)
        return EncodedImage(bytes: bytes, format: output.format, size: image.pixels.size)
    }

    /// The key of the result `job` makes with `plan`, from the header: the source's identity, what the plan
    /// decodes (output size, stored region, orientation, prescale) and the options that shape its pixels; for
    /// bytes, the output settings after them.
    private static func resultKey(of job: PipelineJob, plan chosen: BudgetedPlan) -> CacheKey {
        let p = chosen.plan, r = p.storedRegion
        // shortest round-trip spelling
        let region = [r.x, r.y, r.width, r.height].map { String($0) }.joined(separator: ",")
        let key = job.key.keeping(["src"]).appending(
            [
                ("out", "\(p.outputSize.width)x\(p.outputSize.height)"), ("region", region),
                ("o", String(p.orientation.rawValue)),
                ("pre", String(p.prescale)),
            ] + chosen.options.pixelKeyFields)
        return job.output.map { key.appending($0.keyFields) } ?? key
    }

    /// Records that `job`'s result is cached under its request key, so a request spelled differently that plans
    /// the same result finds it (``resultKey(of:plan:)``).
    private func indexResult(of job: PipelineJob) {
        guard let result = job.resultKey else { return }
        state.withLock { $0.results[result] = job.key }
    }

    /// The request's region: its absolute one, or its crop resolved against the (rotated) displayed size.
    private static func region(of request: ImageRequest, in source: ImageSource) throws(ImageError) -> FractionalRect? {
        guard let crop = request.crop else {
            return try source.fractional(request.region, rotation: request.options.rotation)
        }
        guard request.region == nil else {
            throw ImageError(.invalidArgument, "\(request.loader.name): a request takes a region or a crop, not both")
        }
        let displayed = source.displayedSize(rotatedBy: request.options.rotation)
        return crop.rect(in: displayed)
    }

    /// True while `task`'s work has not started: its header read or decode waits for budget or a thread.
    /// (A server answers 503 to requests that wait too long.)
    package func isWaitingForAdmission(_ task: ImageTask) -> Bool {
        let id = state.withLock { s -> Int? in s.jobOfTask[ObjectIdentifier(task)]?.schedulerID }
        guard let id else { return false }
        return scheduler.isQueued(id)
    }

    // MARK: - Called by ImageTask

    /// `task` no longer waits; its job is cancelled when no task is left.
    func detach(_ task: ImageTask) {
        let (job, cancelID) = state.withLock { s -> (PipelineJob?, Int?) in
            guard let job = s.jobOfTask.removeValue(forKey: ObjectIdentifier(task)) else { return (nil, nil) }
            job.tasks.removeAll { $0 === task }
            guard job.tasks.isEmpty else {
                job.priority = job.tasks.map(\.priority).max() ?? job.priority
                return (nil, nil)
            }
            if s.jobs[job.key] === job { s.jobs[job.key] = nil }
            job.monitor.cancel()
            return (job, job.schedulerID)
        }
        if let cancelID, scheduler.cancelQueued(cancelID), job != nil {
            state.withLock { $0.decodesCancelled += 1 }
        }
    }

    /// The job `task` waits for takes the highest priority of its tasks.
    func priorityChanged(_ task: ImageTask) {
        state.withLock { s in
            guard let job = s.jobOfTask[ObjectIdentifier(task)] else { return }
            job.priority = job.tasks.map(\.priority).max() ?? task.priority
            if let id = job.schedulerID { scheduler.setPriority(job.priority, for: id) }
        }
    }
}
