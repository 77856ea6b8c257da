import ShrinkCore

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
/// The stages, each one type, run in this order for a job (one per distinct request, shared by its tasks):
///
/// ```
///  imageTask / encodedImageTask
///        │  ResultStore.memoryHit ─────────────────────────────► answered (memory tier)
///        ▼
///  PipelineJobs.join ─ same key in flight ──────────────────────► waits for that job (coalesced)
///        ▼
///  LoadStage ── ResultStore.encodedDiskHit (bytes) ────────────► answered (disk tier, no load, no charge)
///        │  ResultStore.sharedHit (bytes, a SharedResultStore) ──► answered (shared tier, no load, no charge)
///        ▼
///  PlanStage: header, DecodePlan within the budget, charge, result key
///        │  ResultStore.requestKey(forResult:) → memory / disk hit under another spelling ─► answered
///        ▼
///  DecodeScheduler: admitted when the charge fits (queued by priority)
///        │  AnimationStage (bytes of an animation, output keeps it): frame by frame into the writer ─┐
///        ▼                                                                                           │
///  DecodeStage: the plan's route, rows streamed into the resampler, oriented, colour managed          │
///        │  (pixels: or the disk tier's entry, decoded at the planned size)
///        ▼
///  EncodeStage (bytes only): the registry's writer, inside the same charge                          │
///        ▼  ◄─────────────────────────────────────────────────────────────────────────────────────────┘
///  ResultStore.keep: memory tier, encoded tier, disk tier, shared tier ─► PipelineJobs.finish ─► every waiting task
/// ```
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
    public var memoryCache: MemoryCache<CacheKey, DecodedImage>? { store.memoryCache }
    /// Encoded results by request and output key, charged their byte counts; nil when disabled.
    public var encodedCache: MemoryCache<CacheKey, EncodedImage>? { store.encodedCache }
    /// Encoded thumbnails on disk; nil when not configured.
    public var diskCache: DiskCache? { store.diskCache }

    let scheduler: DecodeScheduler
    private let jobs: PipelineJobs
    private let store: ResultStore
    private let loading: LoadStage
    private let planning: PlanStage
    private let decoding: DecodeStage
    private let encoding: EncodeStage
    private let animating: AnimationStage

    /// A pipeline for the process, made on first use with the default ``Configuration`` (a quarter of the
    /// memory limit, at most 2 GiB; a decode thread per core): what `ImageSource`'s awaited methods can run on
    /// when the app has no pipeline of its own. An app that has one passes it instead, so that one budget
    /// holds all its decodes.
    public static let shared = ImagePipeline()

    /// A pipeline with its own threads, budget and caches. Make one per process (or per kind of work) and
    /// keep it: its threads exit when it is released.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        scheduler = DecodeScheduler(budget: configuration.budget, maxConcurrent: configuration.maxConcurrentDecodes)
        jobs = PipelineJobs(scheduler: scheduler)
        store = ResultStore(configuration: configuration)
        loading = LoadStage(scheduler: scheduler, jobs: jobs)
        planning = PlanStage(budget: configuration.budget, codecs: configuration.codecs, helpers: scheduler)
        encoding = EncodeStage(codecs: configuration.codecs)
        animating = AnimationStage(codecs: configuration.codecs)
        decoding = DecodeStage(store: store)
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

    /// The decode budget, running and queued charges, the caches' bytes and the counters, now.
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
        l.helpersLent = s.lent
        jobs.record(into: &l)
        store.record(into: &l)
        return l
    }

    /// True while `task`'s work has not started: its header read or decode waits for budget or a thread.
    /// (A server answers 503 to requests that wait too long.)
    package func isWaitingForAdmission(_ task: ImageTask) -> Bool {
        guard let id = jobs.schedulerID(of: task) else { return false }
        return scheduler.isQueued(id)
    }

    // MARK: - The stages, composed

    /// A task for `request` (bytes when `output` is given): answered by the memory tier at once, joined to the
    /// job in flight for the same key, or the first task of a new job, which starts loading.
    private func task(with request: ImageRequest, output: OutputSettings?) -> ImageTask {
        var request = request
        // Bytes are decoded in the pixels their encoder takes best (YUV 4:2:0 for a JPEG: no RGB image).
        if let output, let encoder = try? configuration.codecs.encoder(for: output) {
            request.options.pixelFormat = encoder.preferredPixels
        }
        let task = ImageTask(request: request, pipeline: self)
        let key: CacheKey
        do {
            key = try cacheKey(for: request, output: output)
            if let output { _ = try configuration.codecs.checkedWriter(for: output) }
        } catch {
            task.finish(.failure(error.naming(request.loader.name)))
            return task
        }
        if let hit = store.memoryHit(key, request: request, encoded: output != nil) {
            task.finish(.success(hit))
            return task
        }
        let measures = configuration.measuresMemory || request.measuresMemory
        if let job = jobs.join(task, key: key, output: output, measuresMemory: measures) {
            if store.shared != nil, output != nil {
                // The disk tier, then the shared one (a network round trip), then the load.
                Task.detached {
                    if self.answered(job, by: self.store.encodedDiskHit(for: job)) { return }
                    if self.answered(job, by: await self.store.sharedHit(for: job)) { return }
                    guard !job.monitor.isCancelled else { return }
                    self.load(job, answered: { false })
                }
            } else {
                load(job, answered: { self.answered(job, by: self.store.encodedDiskHit(for: job)) })
            }
        }
        return task
    }

    /// Loads `job`'s bytes and plans it, unless `answered` (asked where the load runs) answers it first.
    private func load(_ job: PipelineJob, answered: @escaping @Sendable () -> Bool) {
        loading.load(
            job, answered: answered, next: { self.plan(job, bytes: $0) }, failed: { self.complete(job, .failure($0)) })
    }

    /// Plans `job` from its bytes; answers it from a tier when another spelling of the request cached the same
    /// result; else queues its decode with the planned charge.
    private func plan(_ job: PipelineJob, bytes: ImageBytes) {
        guard !job.monitor.isCancelled else { return }
        let planned: PlanStage.Planned
        do {
            planned = try planning.plan(job, bytes: bytes)
        } catch {
            complete(job, .failure(error))
            return
        }
        if let result = job.resultKey, let stored = store.requestKey(forResult: result), stored != job.key {
            let hit =
                store.memoryHit(stored, request: job.request, encoded: job.output != nil)
                ?? store.encodedDiskHit(for: job, key: stored)
            store.keepUnderOwnKey(hit, for: job)
            if answered(job, by: hit) { return }
        }
        // The header's pages are not needed until the decode is admitted, which may be a while.
        planned.source.bytes.releaseResidentPages()
        let priority = jobs.priority(of: job)
        do {
            let id = try scheduler.submit(charge: planned.charge, priority: priority, name: job.request.loader.name) {
                self.run(job, planned, waited: $0)
            }
            if jobs.decodeQueued(job, id: id, submittedAt: priority) { scheduler.cancelQueued(id) }
        } catch {
            complete(job, .failure(error))
        }
    }

    /// Runs on a decode thread once admitted with the planned charge: the decode, for bytes the encode inside
    /// the same charge, then the store and the waiting tasks.
    private func run(_ job: PipelineJob, _ planned: PlanStage.Planned, waited: Duration) {
        let observer = configuration.observer
        let charge = planned.charge
        observer?(.decodeStarted(key: job.key.string, charge: charge, runningCharge: scheduler.snapshot.runningCharge))
        shareBudget()
        var telemetry = ImageTelemetry(origin: .decoded, pixelFormat: planned.chosen.format)
        let output: Result<PipelineOutput, ImageError>
        do throws(ImageError) {
            if let settings = job.output, planned.animates,
                let animated = try animating.encode(job, planned, as: settings, waited: waited, telemetry: &telemetry)
            {
                jobs.countEncode()
                if store.keep(animated, for: job, onDisk: true, shares: true) { shareBudget() }
                output = .success(.encoded(EncodedResponse(image: animated, telemetry: telemetry)))
            } else {
                output = try still(job, planned, waited: waited, telemetry: &telemetry)
            }
        } catch {
            output = .failure(error)
        }
        let cancelled = job.monitor.isCancelled
        observer?(
            .decodeFinished(
                key: job.key.string, charge: charge, cancelled: cancelled, rowsDecoded: job.monitor.rowsDecoded))
        if cancelled {
            jobs.countCancelledDecode()
        } else {
            complete(job, output)
        }
    }

    /// The decode, for bytes the encode inside the same charge, and the store.
    private func still(
        _ job: PipelineJob, _ planned: PlanStage.Planned, waited: Duration, telemetry: inout ImageTelemetry
    ) throws(ImageError) -> Result<PipelineOutput, ImageError> {
        let image = try decoding.decode(job, planned, waited: waited, telemetry: &telemetry)
        if let settings = job.output {
            let encoded = try encoding.encode(image, of: job, as: settings, telemetry: &telemetry)
            jobs.countEncode()
            if store.keep(encoded, for: job, onDisk: true, shares: true) { shareBudget() }
            return .success(.encoded(EncodedResponse(image: encoded, telemetry: telemetry)))
        }
        if !job.monitor.isCancelled, store.keep(image, for: job, onDisk: telemetry.origin == .decoded) {
            shareBudget()
        }
        return .success(.decoded(ImageResponse(image: image, telemetry: telemetry)))
    }

    /// Completes `job` with `hit` when there is one (the result found in a tier, which may have taken a copy
    /// into memory: the budget is shared again); returns whether it did.
    private func answered(_ job: PipelineJob, by hit: PipelineOutput?) -> Bool {
        guard let hit else { return false }
        shareBudget()
        complete(job, .success(hit))
        return true
    }

    /// Evicts cached results until they fit beside the running charges (``Configuration/budget`` holds both).
    private func shareBudget() {
        store.shareBudget(room: max(0, scheduler.budget - scheduler.snapshot.runningCharge))
    }

    /// Hands `result` to every task still waiting for `job` and forgets the job.
    private func complete(_ job: PipelineJob, _ result: Result<PipelineOutput, ImageError>) {
        let result = result.mapError { $0.naming(job.request.loader.name) }
        for (i, task) in jobs.finish(job).enumerated() {
            task.finish(result.map { output in output.with { $0.coalesced = i > 0 } })
        }
    }

    // MARK: - Called by ImageTask

    /// `task` no longer waits; its job is cancelled when no task is left.
    func detach(_ task: ImageTask) { jobs.detach(task) }

    /// The job `task` waits for takes the highest priority of its tasks.
    func priorityChanged(_ task: ImageTask) { jobs.priorityChanged(task) }
}
