#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Shrink
import ShrinkFuzzSupport

/// `ImagePipeline` over the input's image with a configuration (budget, threads, memory and disk caches)
/// and 1–3 requests (target, priority, cache policy) from the parameter bytes: the requests run together
/// (coalesced; one may be cancelled or reprioritised), then the first is asked again to hit the caches. The
/// harness blocks on a semaphore until every task has finished and the pipeline is freed, so each input is
/// done, and leak-checked, when it returns.
enum PipelineHarness {
    static let pixelFormats: [PixelFormatRequest] = [
        .memoryOptimized, .displayReady, .highPrecision, .native, .exactly(.rgba8), .exactly(.nv12),
    ]
    /// One disk cache for the process, in `$SHRINK_FUZZ_CACHE` (scripts/fuzz sets it) or /tmp; entries of
    /// different inputs never collide (see ``MemoryLoader``).
    static let diskCache = try? DiskCache(
        directory: getenv("SHRINK_FUZZ_CACHE").map { String(cString: $0) } ?? "/tmp/shrink-fuzz-cache",
        sizeLimit: 4 << 20)
    /// Inputs run so far: each one's loader gets a new serial.
    nonisolated(unsafe) static var inputs = 0

    static func fuzz(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let thumbnail = ThumbnailParameters(&input, pixelFormats: pixelFormats)
        let flags = input.byte(), requestFlags = input.byte()
        let configuration = ImagePipeline.Configuration(
            budget: input.pick([64 << 20, 8 << 20, 1 << 20, 4 << 10]),
            maxConcurrentDecodes: 1 + Int(flags & 1),
            memoryCache: flags & 2 == 0 ? MemoryCache.Configuration(costLimit: 16 << 20, countLimit: 8) : nil,
            diskCache: flags & 8 != 0 ? diskCache : nil,
            measuresMemory: flags & 16 != 0)
        inputs += 1
        let loader = MemoryLoader(bytes: input.image, serial: inputs, loadsImmediately: flags & 32 == 0)
        let requests = (0...Int(requestFlags % 3)).map { _ in
            ImageRequest(
                loader: loader, target: thumbnail.target, options: thumbnail.options, limits: FuzzLimits.image,
                priority: input.pick(ImageRequest.Priority.allCases),
                cachePolicy: CachePolicy(rawValue: Int(input.byte() & 15)))
        }
        var pipeline = ImagePipeline(configuration: configuration)
        run(requests, on: pipeline, flags: requestFlags)
        // Decode threads and the finished task let go of the pipeline just after the last response. It is freed
        // here, before the input ends: LSan takes the weak-reference side table of a pipeline still alive on
        // another thread for a leak. A pipeline that is never let go of is a leak, and hangs here until -timeout.
        while !isKnownUniquelyReferenced(&pipeline) { usleep(100) }
    }

    /// Starts `requests` together (the first cancelled, the last made urgent, as `flags` say), waits for every
    /// task, then asks for the first again.
    private static func run(_ requests: [ImageRequest], on pipeline: ImagePipeline, flags: UInt8) {
        let tasks = requests.map { pipeline.imageTask(with: $0) }
        if flags & 4 != 0 { tasks.last?.priority = .veryHigh }
        if flags & 8 != 0 { tasks.first?.cancel() }
        wait {
            for task in tasks { _ = try? await task.response }
            _ = try? await pipeline.image(for: requests[0])
        }
        _ = pipeline.ledger
    }

    /// Runs `body` in a task and blocks this (libFuzzer's) thread until it returns.
    private static func wait(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}
