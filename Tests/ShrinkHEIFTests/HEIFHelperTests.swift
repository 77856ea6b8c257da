import Foundation
import Shrink
import ShrinkCore
import ShrinkTestSupport
import Synchronization
import Testing

/// A grid's tiles decoded on helper threads beside the reader (``DecodeHelping``) give the pixels one thread gives,
/// on every route: planes and rows, reduced and full size, a crop's tiles; a decode cancelled while helpers hold
/// tiles stops with `.cancelled`; the pipeline lends an idle decode thread, charged within its budget.
@Suite struct HEIFHelperTests {
    @Test(
        .needsCorpus,
        arguments: ["heic/exif-samples/iphone_13_pro_max.HEIC", "avif/av1-avif/Summer_in_Tomsk_720p_5x4_grid.avif"])
    func helpedDecodesGiveOneThreadsPixels(file: String) throws {
        let source = try ImageSource(path: Corpus.path(file))
        let shown = source.info.displayedSize
        let crop = PixelRect(x: shown.width / 3, y: shown.height / 4, width: shown.width / 3, height: shown.height / 3)
        let cases: [(ThumbnailTarget, PixelRect?, PixelFormat)] = [
            (.maxPixelSize(400), nil, .yuv420), // planes at 1/4 or 1/8
            (.maxPixelSize(400), nil, .rgb8), // rows, reduced
            (.original, nil, .rgb8), // rows at full size
            (.maxPixelSize(shown.width / 3), crop, .rgb8), // a crop's tiles at full size
            (.maxPixelSize(100), crop, .yuv420), // a crop's tiles reduced
        ]
        for (i, (target, region, format)) in cases.enumerated() {
            var options = ThumbnailOptions(pixelFormat: .exactly(format), color: .keep)
            let alone = try source.image(target, region: region, options: options)
            for limit in [1, 3] {
                let threads = TestHelperThreads(limit: limit)
                options.helpers = threads
                let helped = try source.image(target, region: region, options: options)
                #expect(threads.lent.load(ordering: .relaxed) >= limit, "\(file) case \(i): no helper was lent")
                #expect(helped.size == alone.size && helped.pixels.format == alone.pixels.format)
                #expect(helped.pixels.bytes == alone.pixels.bytes, "\(file) case \(i), \(limit) helpers: other pixels")
                #expect(helped.helperBytes > 0 && alone.helperBytes == 0)
            }
        }
    }

    @Test(.needsCorpus)
    func aDecodeCancelledWhileHelpersHoldTilesStops() throws {
        let source = try ImageSource(path: Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC"))
        // The helper cancels the decode before its first tile.
        let (error, lent, rowsDecoded) = try TestHelperThreads.cancelledByItsHelper(source, .maxPixelSize(400))
        #expect(error?.code == .cancelled, "\(String(describing: error))")
        #expect(lent == 1)
        #expect(rowsDecoded < source.info.size.height / 4, "decoded to row \(rowsDecoded)")
    }

    @Test(.needsCorpus)
    func thePipelineLendsAnIdleDecodeThreadWithinItsBudget() async throws {
        let path = Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC")
        let options = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let alone = try ImageSource(path: path).image(.maxPixelSize(400), options: options)
        let pipeline = ImagePipeline(configuration: .init(budget: 64 << 20, maxConcurrentDecodes: 2, memoryCache: nil))
        let response = try await pipeline.image(
            for: ImageRequest(path: path, target: .maxPixelSize(400), options: options))
        #expect(response.image.pixels.bytes == alone.pixels.bytes)
        let ledger = pipeline.ledger
        #expect(ledger.helpersLent == 1, "lent \(ledger.helpersLent)")
        // The helper's bytes were charged beside the decode's.
        #expect(ledger.peakRunningCharge >= response.telemetry.predictedPeakBytes + response.image.helperBytes)
        #expect(ledger.peakRunningCharge <= ledger.budget)
        // A pipeline whose budget leaves no room for a helper lends none, and decodes the same pixels.
        let tight = ImagePipeline(
            configuration: .init(
                budget: response.telemetry.predictedPeakBytes + response.image.helperBytes / 2,
                maxConcurrentDecodes: 2, memoryCache: nil))
        let alone2 = try await tight.image(for: ImageRequest(path: path, target: .maxPixelSize(400), options: options))
        #expect(alone2.image.pixels.bytes == alone.pixels.bytes && tight.ledger.helpersLent == 0)
    }
}
