import Testing
import Shrink
import ShrinkTestSupport
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct ImagePipelineTests {
    static let small = try! TestJPEG.make(width: 320, height: 240)

    static func request(
        _ id: String, bytes: [UInt8] = small, gate: Gate? = nil, size: Int = 64,
        priority: ImageRequest.Priority = .normal, format: PixelFormatRequest = .memoryOptimized
    ) -> ImageRequest {
        ImageRequest(
            loader: MemoryLoader(bytes: bytes, id: id, gate: gate), target: .maxPixelSize(size),
            options: ThumbnailOptions(pixelFormat: format), priority: priority)
    }

    @Test func hundredIdenticalConcurrentRequestsShareOneDecode() async throws {
        let log = EventLog()
        let pipeline = ImagePipeline(configuration: .init(observer: { log.append($0) }))
        let gate = Gate()
        let request = Self.request("same", gate: gate)
        let tasks = (0..<100).map { _ in pipeline.imageTask(with: request) }
        #expect(pipeline.ledger.inFlightImages == 1)
        #expect(pipeline.ledger.waitingTasks == 100)
        gate.open()
        var coalesced = 0
        for task in tasks {
            let response = try await task.response
            #expect(response.image.size == PixelSize(width: 64, height: 48))
            if response.telemetry.coalesced { coalesced += 1 }
        }
        #expect(log.startedKeys.count == 1)
        #expect(pipeline.ledger.decodesStarted == 1)
        #expect(pipeline.ledger.coalescedRequests == 99)
        #expect(coalesced == 99)
        // The next identical request is a memory cache hit: still one decode.
        let again = try await pipeline.image(for: request)
        #expect(again.telemetry.origin == .memoryCache)
        #expect(pipeline.ledger.decodesStarted == 1)
    }

    @Test func cancellingARunningDecodeStopsItBetweenStripsAndCachesNothing() async throws {
        let big = try TestImages.jpeg(TestImages.pattern(width: 1600, height: 2400), quality: 80, chroma444: false)
        let log = EventLog()
        let started = Latch(), cancelIssued = Latch()
        // The decode thread waits at its start until the task is cancelled: however loaded the machine, the
        // cancel lands before the last strip (a decode that ran to the end before the test thread got a core
        // once made this test fail).
        let pipeline = ImagePipeline(
            configuration: .init(observer: { event in
                log.append(event)
                if case .decodeStarted = event {
                    started.open()
                    cancelIssued.wait()
                }
            }))
        let task = pipeline.imageTask(
            with: ImageRequest(
                loader: MemoryLoader(bytes: big, id: "big"),
                options: ThumbnailOptions(pixelFormat: .exactly(.rgba8))))
        #expect(await eventually { started.isOpen })
        task.cancel()
        cancelIssued.open()
        await #expect(throws: ImageError.self) { try await task.response }
        #expect(await eventually { pipeline.ledger.runningDecodes == 0 })
        let finished = log.all.compactMap { e -> (Bool, Int)? in
            if case .decodeFinished(_, _, let cancelled, let rows) = e { (cancelled, rows) } else { nil }
        }
        #expect(finished.count == 1)
        #expect(finished.first?.0 == true)
        #expect((finished.first?.1 ?? 2400) < 2400, "the decoder stopped before the last row")
        #expect(pipeline.memoryCache?.statistics.count == 0)
        #expect(pipeline.ledger.decodesCancelled == 1)
        do {
            _ = try await task.response
            Issue.record("a cancelled task gave a response")
        } catch {
            #expect(error.code == .cancelled)
        }
    }

    @Test func aSharedDecodeContinuesUntilEveryWaiterHasGone() async throws {
        let gate = Gate()
        let pipeline = ImagePipeline()
        let request = Self.request("shared", gate: gate)
        let first = pipeline.imageTask(with: request), second = pipeline.imageTask(with: request)
        first.cancel()
        gate.open()
        let response = try await second.response
        #expect(response.image.size == PixelSize(width: 64, height: 48))
        #expect(pipeline.memoryCache?.statistics.count == 1)
        // Both cancelled while loading: nothing decodes, nothing is cached.
        let gate2 = Gate()
        let r2 = Self.request("both", gate: gate2)
        let a = pipeline.imageTask(with: r2), b = pipeline.imageTask(with: r2)
        a.cancel()
        b.cancel()
        gate2.open()
        #expect(await eventually { pipeline.ledger.inFlightImages == 0 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(pipeline.ledger.decodesStarted == 1)
        #expect(pipeline.memoryCache?.statistics.count == 1)
    }

    @Test func runningChargesNeverExceedTheBudget() async throws {
        // Learn one request's charge, then allow 2.5 of them with 4 threads: the budget, not the thread
        // count, must bound concurrency.
        let probe = try await ImagePipeline().image(for: Self.request("probe", size: 200, format: .exactly(.rgba8)))
        let charge = probe.telemetry.predictedPeakBytes
        #expect(charge > 200 * 150 * 4)
        let budget = charge * 5 / 2
        let running = Mutex<(now: Int, peak: Int, decodes: Int, started: Int)>((0, 0, 0, 0))
        // The first decode holds its scheduler thread (up to 10 s) until a second one starts, so that two do run
        // at once however fast one decode is; a third must still wait for the budget.
        let second = Latch()
        let pipeline = ImagePipeline(
            configuration: .init(
                budget: budget, maxConcurrentDecodes: 4,
                observer: { e in
                    switch e {
                    case .decodeStarted(_, let c, _):
                        let (decodes, started) = running.withLock { r -> (Int, Int) in
                            r.now += c
                            r.peak = max(r.peak, r.now)
                            r.decodes += 1
                            r.started += 1
                            return (r.decodes, r.started)
                        }
                        if decodes >= 2 { second.open() }
                        if started == 1 { for _ in 0..<10_000 where !second.isOpen { usleep(1000) } }
                    case .decodeFinished(_, let c, _, _):
                        running.withLock {
                            $0.now -= c; $0.decodes -= 1
                        }
                    default: break
                    }
                }))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 {
                group.addTask {
                    _ = try await pipeline.image(for: Self.request("r\(i)", size: 200, format: .exactly(.rgba8)))
                }
            }
            try await group.waitForAll()
        }
        let ledger = pipeline.ledger
        #expect(ledger.decodesStarted == 8)
        #expect(second.isOpen, "no second decode started while the first ran")
        #expect(running.withLock { $0.peak } <= budget)
        #expect(ledger.peakRunningCharge <= budget)
        #expect(ledger.peakRunningDecodes == 2, "2.5 charges fit only two at once")
        #expect(await eventually { pipeline.ledger.runningCharge == 0 })
    }

    /// A progressive photo whose quality-mode plan needs its whole coefficient buffer does not fail under a
    /// small budget: the pipeline runs the cheapest plan that fits (here fast mode, which reaches the DC-first
    /// path at 1/8) and says so in telemetry; a budget no plan fits still fails.
    @Test func aTightBudgetFallsBackToACheaperPlan() async throws {
        let progressive = try TestImages.jpeg(
            TestImages.pattern(width: 1600, height: 1200), chroma444: false, progressive: true)
        let source = try ImageSource(bytes: progressive, name: "p.jpg")
        let target = ThumbnailTarget.maxPixelSize(180)
        let requested = try source.plan(target, within: Int.max)
        let dcFirst = try source.plan(target, options: ThumbnailOptions(mode: .fast), within: Int.max)
        #expect(requested.fallback == nil && requested.plan.prescale == 4)
        #expect(dcFirst.plan.prescale == 8 && dcFirst.route.path == .dcFirst)
        #expect(dcFirst.predictedPeakBytes * 4 < requested.predictedPeakBytes)
        let budget = (dcFirst.predictedPeakBytes + requested.predictedPeakBytes) / 2
        let pipeline = ImagePipeline(configuration: .init(budget: budget))
        let response = try await pipeline.image(
            for: ImageRequest(loader: MemoryLoader(bytes: progressive, id: "p"), target: target))
        #expect(response.telemetry.fallback == "fast mode (DC-first)")
        #expect(response.telemetry.decodePath == .dcFirst && response.telemetry.prescale == 8)
        #expect(response.image.size == PixelSize(width: 180, height: 135))
        #expect(response.telemetry.predictedPeakBytes <= budget)
        let tiny = ImagePipeline(configuration: .init(budget: dcFirst.predictedPeakBytes / 4))
        do {
            _ = try await tiny.image(
                for: ImageRequest(loader: MemoryLoader(bytes: progressive, id: "p"), target: target))
            Issue.record("no plan fits, yet it decoded")
        } catch {
            #expect(error.code == .memoryBudgetExceeded && error.description.contains("cheapest plan"), "\(error)")
        }
    }

    @Test func aRequestLargerThanTheWholeBudgetFailsAtOnce() async {
        let pipeline = ImagePipeline(configuration: .init(budget: 10_000))
        do {
            _ = try await pipeline.image(for: Self.request("large", size: 200))
            Issue.record("expected memoryBudgetExceeded")
        } catch {
            #expect(error.code == .memoryBudgetExceeded)
            #expect(error.message.contains("large"))
        }
    }

    @Test func higherPriorityOvertakesQueuedWork() async throws {
        let log = EventLog()
        let release = Latch()
        let pipeline = ImagePipeline(
            configuration: .init(
                maxConcurrentDecodes: 1,
                observer: { e in
                    log.append(e)
                    if case .decodeStarted(let key, _, _) = e, key.contains("|src=blocker|") { release.wait() }
                }))
        let blocker = pipeline.imageTask(with: Self.request("blocker"))
        #expect(await eventually { pipeline.ledger.runningDecodes == 1 })
        // Each low request is queued before the next is made: a request's bytes load on a task of its own, so
        // requests made at once may reach the queue in any order (CI, with both cores busy, saw low1 before low0).
        var lows: [ImageTask] = []
        for i in 0..<4 {
            lows.append(pipeline.imageTask(with: Self.request("low\(i)", priority: .low)))
            #expect(await eventually { pipeline.ledger.queuedDecodes == i + 1 })
        }
        let urgent = pipeline.imageTask(with: Self.request("urgent", priority: .veryHigh))
        #expect(await eventually { pipeline.ledger.queuedDecodes == 5 })
        lows[3].priority = .high // changed while queued
        release.open()
        _ = try await blocker.response
        _ = try await urgent.response
        for t in lows { _ = try await t.response }
        let order = log.startedSources
        #expect(order == ["blocker", "urgent", "low3", "low0", "low1", "low2"])
    }

    @Test func diskCacheServesASecondPipeline() async throws {
        let dir = DiskCacheTests.temporaryDirectory()
        let disk = try DiskCache(directory: dir)
        let request = Self.request("disk", size: 100)
        let first = try await ImagePipeline(configuration: .init(diskCache: disk)).image(for: request)
        #expect(first.telemetry.origin == .decoded)
        #expect(disk.statistics.writes == 1 && disk.statistics.count == 1)
        let second = try await ImagePipeline(configuration: .init(diskCache: try DiskCache(directory: dir))).image(
            for: request)
        #expect(second.telemetry.origin == .diskCache)
        #expect(second.image.size == first.image.size)
        #expect(second.image.pixels.format == first.image.pixels.format)
        let a = PixelConverter.convert(first.image.pixels, to: .rgb8),
            b = PixelConverter.convert(second.image.pixels, to: .rgb8)
        #expect(PixelOps.psnr(a, b) > 35)
        // skipDiskCacheRead decodes again.
        var fresh = request
        fresh.cachePolicy = [.skipDiskCacheRead]
        let third = try await ImagePipeline(configuration: .init(diskCache: disk)).image(for: fresh)
        #expect(third.telemetry.origin == .decoded)
    }

    @Test func webpAndGIFGoThroughThePipelineAndTheDiskCache() async throws {
        // A lossy WebP (YUV result), a lossless WebP with alpha and a GIF with a transparent index (RGBA results,
        // stored as PNG): decoded once, then served from disk by a second pipeline.
        let photo = TestImages.pattern(width: 320, height: 240)
        var rgba = PixelConverter.convert(photo, to: .rgba8).bytes
        for i in stride(from: 3, to: rgba.count, by: 4) where (i / 4) % 320 < 40 { rgba[i] = 0 }
        let gif = TestGIF.file(
            width: 160, height: 120, palette: TestGIF.palette16,
            frames: [
                TestGIF.Frame(
                    width: 160, height: 120, indices: TestGIF.pattern(width: 160, height: 120),
                    transparent: 3)
            ])
        let inputs: [(String, [UInt8], DecodePath)] = [
            ("lossy", try WebPEncoder().encode(photo), .scaledPlanes),
            (
                "lossless",
                try WebPEncoder(options: .init(lossless: true)).encode(
                    PixelBuffer(format: .rgba8, size: photo.size, bytes: rgba)),
                .wholeImage
            ),
            ("gif", gif, .firstFrameRows),
        ]
        let dir = DiskCacheTests.temporaryDirectory()
        for (id, bytes, path) in inputs {
            let request = Self.request(id, bytes: bytes, size: 100)
            let first = try await ImagePipeline(configuration: .init(diskCache: try DiskCache(directory: dir))).image(
                for: request)
            #expect(first.telemetry.origin == .decoded && first.telemetry.decodePath == path, "\(id)")
            let second = try await ImagePipeline(configuration: .init(diskCache: try DiskCache(directory: dir))).image(
                for: request)
            #expect(second.telemetry.origin == .diskCache, "\(id)")
            #expect(
                second.image.size == first.image.size && second.image.pixels.format == first.image.pixels.format,
                "\(id)")
            let a = PixelConverter.convert(first.image.pixels, to: .rgba8),
                b = PixelConverter.convert(second.image.pixels, to: .rgba8)
            #expect(PixelOps.psnr(a, b) > 35, "\(id)")
        }
    }

    @Test func prefetchingWarmsTheMemoryCache() async throws {
        let pipeline = ImagePipeline()
        let prefetcher = ImagePrefetcher(pipeline: pipeline)
        let requests = (0..<6).map { Self.request("pre\($0)") }
        prefetcher.startPrefetching(with: requests)
        #expect(await eventually { prefetcher.pendingCount == 0 })
        #expect(pipeline.memoryCache?.statistics.count == 6)
        for r in requests {
            #expect(try await pipeline.image(for: r).telemetry.origin == .memoryCache)
        }
        // Stopping a queued prefetch cancels it; nothing is cached for it.
        let gate = Gate()
        let held = Self.request("held", gate: gate)
        prefetcher.startPrefetching(with: [held])
        prefetcher.stopPrefetching(with: [held])
        gate.open()
        #expect(await eventually { pipeline.ledger.inFlightImages == 0 })
        #expect(pipeline.memoryCache?.contains(try held.cacheKey()) == false)
    }

    @Test func responsesCarryTelemetry() async throws {
        let response = try await ImagePipeline().image(for: Self.request("telemetry", size: 100))
        let t = response.telemetry
        #expect(t.origin == .decoded)
        #expect(t.bytesRead == Self.small.count)
        #expect(t.pixelFormat == .yuv420)
        #expect(t.bufferBytes == 100 * 75 + 2 * 50 * 38)
        #expect(t.prescale == 1) // 320 → 100 leaves less than 2× after a 1/2 prescale
        #expect(t.predictedPeakBytes >= t.bufferBytes)
        #expect(t.decodeTime > .zero)
    }
}
