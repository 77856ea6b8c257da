import Dispatch
import Shrink
import ShrinkTestSupport
import Synchronization
import Testing

/// `ImageSource`'s methods awaited in async code run on a pipeline's decode threads, give what the
/// synchronous calls give, and stop when their task is cancelled.
@Suite struct AsyncSourceTests {
    static let photo = try! TestImages.jpeg(TestImages.pattern(width: 640, height: 480))

    /// The synchronous call (from a synchronous function, where the async overload is not chosen).
    static func synchronous(_ source: ImageSource, _ target: ThumbnailTarget, region: PixelRect? = nil) throws
        -> DecodedImage
    {
        try source.image(target, region: region)
    }

    @Test func awaitedCallsMatchTheSynchronousOnesAndRunOnThePipeline() async throws {
        let source = try ImageSource(bytes: Self.photo, name: "p.jpg")
        let pipeline = ImagePipeline()
        let region = PixelRect(x: 100, y: 50, width: 320, height: 240)
        let awaited = try await source.image(.maxPixelSize(80), region: region, on: pipeline)
        let direct = try Self.synchronous(source, .maxPixelSize(80), region: region)
        #expect(awaited.size == PixelSize(width: 80, height: 60))
        #expect(awaited.pixels.bytes == direct.pixels.bytes)
        #expect(pipeline.ledger.decodesStarted == 1)
        #expect(pipeline.memoryCache?.statistics.count == 0) // an open source is not cached
        // The shorthands too; the shared pipeline serves an app without a pipeline of its own.
        let before = ImagePipeline.shared.ledger.decodesStarted
        let thumb = try await source.thumbnail(maxPixelSize: 64, on: .shared)
        #expect(thumb.size == PixelSize(width: 64, height: 48))
        #expect(ImagePipeline.shared.ledger.decodesStarted > before)
        let box = try await source.thumbnail(size: PixelSize(width: 50, height: 50), fit: .cover, on: pipeline)
        #expect(box.size == PixelSize(width: 50, height: 50) && pipeline.ledger.decodesStarted == 2)
    }

    /// Encoded bytes from an open source, decoded and encoded on the pipeline: a WebP of the planned size.
    @Test func encodedImagesComeFromThePipeline() async throws {
        let source = try ImageSource(bytes: Self.photo, name: "p.jpg")
        let pipeline = ImagePipeline()
        let webp = try await source.encodedImage(
            .maxPixelSize(100), as: OutputSettings(format: .webp, quality: 70), on: pipeline)
        #expect(webp.mimeType == "image/webp" && webp.size == PixelSize(width: 100, height: 75))
        let decoded = try ImageSource(bytes: webp.bytes)
        #expect(decoded.info.format == .webp && decoded.info.size == PixelSize(width: 100, height: 75))
        #expect(pipeline.ledger.encodes == 1 && pipeline.ledger.encodedCachedImages == 0)
    }

    /// The pipeline plans with the open source itself: the codecs it was opened with still hold.
    @Test func theSourceIsNotOpenedAgain() async throws {
        let png = try PNGEncoder().encode(TestImages.pattern(width: 40, height: 30))
        let source = try ImageSource(bytes: png, name: "p.png", codecs: .standard.restricted(to: [.png]))
        let image = try await source.image(.maxPixelSize(20), on: ImagePipeline())
        #expect(image.size == PixelSize(width: 20, height: 15))
        // A registry without PNG refuses the same bytes before any header is read.
        #expect(throws: ImageError.self) { _ = try ImageSource(bytes: png, codecs: .standard.restricted(to: [.jpeg])) }
    }

    @Test func errorsNameTheSourceAndKeepTheirCode() async throws {
        let source = try ImageSource(bytes: Self.photo, name: "uploads/p.jpg")
        do throws(ImageError) {
            _ = try await source.image(.maxPixelSize(0), on: .shared)
            Issue.record("a zero target decoded")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.name == "uploads/p.jpg" && !error.reason.contains("uploads"))
        }
    }

    @Test func cancellingTheTaskCancelsAQueuedDecode() async throws {
        // One decode thread, held by the first decode (its start event waits): the next call waits in the queue.
        let hold = DispatchSemaphore(value: 0), starts = Atomic<Int>(0)
        let pipeline = ImagePipeline(
            configuration: .init(
                maxConcurrentDecodes: 1,
                observer: { event in
                    if case .decodeStarted = event, starts.add(1, ordering: .relaxed).newValue == 1 { hold.wait() }
                }))
        let source = try ImageSource(bytes: Self.photo, name: "queued.jpg")
        let blocker = Task { try await source.image(.maxPixelSize(32), on: pipeline) }
        while starts.load(ordering: .relaxed) == 0 { await Task.yield() }
        let waiting = Task { try await source.image(.maxPixelSize(32), on: pipeline) }
        while pipeline.ledger.queuedDecodes + pipeline.ledger.waitingTasks < 2 { await Task.yield() }
        waiting.cancel()
        let result = await waiting.result
        hold.signal()
        #expect(try await blocker.value.size == PixelSize(width: 32, height: 24))
        switch result {
        case .success: Issue.record("a cancelled decode returned an image")
        case .failure(let error): #expect((error as? ImageError)?.code == .cancelled, "\(error)")
        }
        #expect(starts.load(ordering: .relaxed) == 1, "the cancelled call never started decoding")
    }
}
