import ShrinkCore
import Synchronization

/// Decodes images in the background the way a scrolling grid of photos needs: on a bounded set of threads,
/// admitted by predicted bytes, identical requests decoded once, results cached by what they really cost.
///
/// - **Admission by bytes**: each decode's peak is predicted from the header (result, decoder working memory
///   such as progressive coefficients, rows in flight) and charged against ``Configuration/decodeBudget``;
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
    public let memoryCache: MemoryCache<String, DecodedImage>?
    /// Encoded thumbnails on disk; nil when not configured.
    public var diskCache: DiskCache? { configuration.diskCache }

    let scheduler: DecodeScheduler
    private struct State {
        var jobs: [String: PipelineJob] = [:]
        var jobOfTask: [ObjectIdentifier: PipelineJob] = [:]
        var decodesCancelled = 0
        var coalesced = 0
    }
    private let state = Mutex(State())

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        memoryCache = configuration.memoryCache.map { MemoryCache(configuration: $0) }
        scheduler = DecodeScheduler(budget: configuration.decodeBudget, maxConcurrent: configuration.maxConcurrentDecodes)
    }

    deinit { scheduler.shutdown() }

    /// Decodes (or finds) the image `request` asks for. Cancelling the calling Swift task cancels the request.
    public func image(for request: ImageRequest) async throws(ImageError) -> ImageResponse {
        try await imageTask(with: request).response
    }

    /// Starts `request` and returns its task at once: await ``ImageTask/response``, change its priority or
    /// cancel it. A memory cache hit finishes the task before this returns.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request, pipeline: self)
        let key: String
        do {
            key = try request.cacheKey()
        } catch {
            task.finish(.failure(error))
            return task
        }
        if !request.cachePolicy.contains(.skipMemoryCacheRead), let image = memoryCache?.value(for: key) {
            var telemetry = ImageTelemetry(origin: .memoryCache, pixelFormat: image.pixels.format)
            telemetry.prescale = image.plan.prescale
            telemetry.bufferBytes = image.pixels.byteCount
            telemetry.predictedPeakBytes = image.predictedPeakBytes
            task.finish(.success(ImageResponse(image: image, telemetry: telemetry)))
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
            let job = PipelineJob(key: key, request: request, measuresMemory: configuration.measuresMemory)
            job.tasks = [task]
            s.jobs[key] = job
            s.jobOfTask[ObjectIdentifier(task)] = job
            return job
        }
        if let newJob { start(newJob) }
        return task
    }

    /// The decode budget, running and queued charges, the memory cache's bytes and the counters, now.
    public var ledger: PipelineLedger {
        let s = scheduler.snapshot
        var l = PipelineLedger()
        l.decodeBudget = scheduler.budget
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

    /// Starts `job`'s first stage: a loader that can map at once is read on a decode thread (a zero-charge
    /// step, so header page faults never block Swift's cooperative pool); any other loader is awaited in a
    /// task, then the header is read there.
    private func start(_ job: PipelineJob) {
        let name = job.request.loader.name
        if job.request.loader.loadsImmediately {
            let priority = state.withLock { _ in job.priority }
            do throws(ImageError) {
                let id = try scheduler.submit(charge: 0, priority: priority, name: name, isDecode: false) { _ in
                    guard !job.monitor.isCancelled else { return }
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
                do throws(ImageError) {
                    let bytes = try await job.request.loader.load()
                    self.plan(job, bytes: bytes)
                } catch {
                    self.complete(job, .failure(error))
                }
            }
        }
    }

    /// Reads the header, plans, then queues the decode with its predicted charge.
    private func plan(_ job: PipelineJob, bytes: ImageBytes) {
        let request = job.request
        let source: ImageSource, chosen: BudgetedPlan
        do {
            guard !job.monitor.isCancelled else { return }
            source = try ImageSource(bytes: bytes, name: request.loader.name, limits: request.limits)
            // The requested plan, or the cheapest that fits the whole budget (reported in telemetry).
            chosen = try source.plan(request.target, crop: request.region, options: request.options, within: scheduler.budget)
            let charge = chosen.predictedPeakBytes
            // The header's pages are not needed until the decode is admitted, which may be a while.
            source.bytes.releaseResidentPages()
            let priority = state.withLock { _ in job.priority }
            let id = try scheduler.submit(charge: charge, priority: priority, name: request.loader.name) { waited in
                self.decode(job, source: source, chosen: chosen, waited: waited)
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

    /// Runs on a scheduler thread once admitted: the disk cache, else the decode; then the caches and the
    /// waiting tasks.
    private func decode(_ job: PipelineJob, source: ImageSource, chosen: BudgetedPlan, waited: Duration) {
        let observer = configuration.observer
        let request = job.request
        let plan = chosen.plan, charge = chosen.predictedPeakBytes
        observer?(.decodeStarted(key: job.key, charge: charge, runningCharge: scheduler.snapshot.runningCharge))
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
            if let entry = diskEntry(for: job, source: source, plan: plan, charge: charge) {
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
        let cancelled = job.monitor.isCancelled
        if case .success(let image) = result, !cancelled {
            telemetry.pixelFormat = image.pixels.format
            telemetry.bufferBytes = image.pixels.byteCount
            if telemetry.origin == .decoded {
                (telemetry.decodePath, telemetry.decoder, telemetry.colorConversion) = (image.decodePath, image.decoder, image.colorConversion)
            }
            telemetry.measuredPeakBytes = job.monitor.peakBytes
            if let cache = memoryCache, !request.cachePolicy.contains(.skipMemoryCacheWrite),
               cache.set(image, for: job.key, cost: image.pixels.byteCount) {
                observer?(.memoryCacheStored(key: job.key, cost: image.pixels.byteCount))
                shareBudgetWithCache()
            }
            if telemetry.origin == .decoded, let disk = diskCache, !request.cachePolicy.contains(.skipDiskCacheWrite),
               let encoded = try? diskEncoding(of: image.pixels).encode(image.pixels, metadata: ImageMetadata()),
               (try? disk.store(encoded, for: job.key)) != nil {
                observer?(.diskCacheStored(key: job.key, bytes: encoded.count))
            }
        }
        telemetry.decodeTime = started.duration(to: .now)
        observer?(.decodeFinished(key: job.key, charge: charge, cancelled: cancelled, rowsDecoded: job.monitor.rowsDecoded))
        if cancelled {
            state.withLock { $0.decodesCancelled += 1 }
        } else {
            complete(job, result.map { ImageResponse(image: $0, telemetry: telemetry) })
        }
    }

    /// With ``Configuration/cacheSharesDecodeBudget``, evicts cached images until they fit beside the
    /// running charges.
    private func shareBudgetWithCache() {
        guard configuration.cacheSharesDecodeBudget, let cache = memoryCache else { return }
        cache.trim(toCost: max(0, scheduler.budget - scheduler.snapshot.runningCharge))
    }

    /// The image from the disk cache entry for `job`, decoded in the request's pixel format policy; nil on a
    /// miss (or a damaged entry, which the cache drops).
    private func diskEntry(for job: PipelineJob, source: ImageSource, plan: ThumbnailPlan,
                           charge: Int) -> (image: DecodedImage, bytes: Int)? {
        guard let disk = diskCache, !job.request.cachePolicy.contains(.skipDiskCacheRead),
              let data = disk.data(for: job.key) else { return nil }
        do {
            let entry = try ImageSource(bytes: data, name: "\(job.request.loader.name) (disk cache)")
            guard entry.info.displayedSize == plan.outputSize else { return nil }
            var options = job.request.options
            options.allowUpscaling = false
            let pixels = try entry.image(.original, options: options, monitor: job.monitor).pixels
            let metadata = try source.decoder.metadata().orientedUpright
            return (DecodedImage(pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: charge), data.count)
        } catch {
            return nil
        }
    }

    /// How results are stored on disk (``CodecRegistry/cacheEncoder(for:quality:)``).
    private func diskEncoding(of pixels: PixelBuffer) -> any ImageEncoding {
        CodecRegistry.cacheEncoder(for: pixels, quality: configuration.diskCacheQuality)
    }

    /// Hands `result` to every task still waiting for `job` and forgets the job.
    private func complete(_ job: PipelineJob, _ result: Result<ImageResponse, ImageError>) {
        let tasks = state.withLock { s -> [ImageTask] in
            if s.jobs[job.key] === job { s.jobs[job.key] = nil }
            let tasks = job.tasks
            job.tasks = []
            for t in tasks { s.jobOfTask[ObjectIdentifier(t)] = nil }
            return tasks
        }
        for (i, task) in tasks.enumerated() {
            task.finish(result.map { response in
                var telemetry = response.telemetry
                telemetry.coalesced = i > 0
                return ImageResponse(image: response.image, telemetry: telemetry)
            })
        }
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
