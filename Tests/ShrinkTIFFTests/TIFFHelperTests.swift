import Foundation
import Shrink
import ShrinkTestSupport
import ShrinkCore
import Synchronization
import Testing

/// A TIFF's tiles — and at 1/d its runs of strips — decoded on helper threads beside the reader (``DecodeHelping``)
/// give the pixels one thread gives (for strips, the row-streaming decode's) — at full size, and at 1/d where d×d
/// blocks straddle tiles' and runs' edges — and those are the box means of the stored samples; a decode cancelled
/// while helpers hold tiles stops with `.cancelled`; a block that cannot be decoded fails the decode, with helpers or
/// without, wherever it lies; the pipeline lends an idle decode thread, charged within its budget.
@Suite struct TIFFHelperTests {

    /// A `width`×`height` page of `samples` 8-bit samples a pixel (the fourth unassociated alpha), in tiles or strips
    /// of `rowsPerStrip`, of pseudo-random samples that change smoothly enough for LZW to matter.
    static func page(
        width: Int, height: Int, samples: Int = 3, tile: (width: Int, height: Int)?, rowsPerStrip: Int = 2,
        coding: TIFFFile.Coding
    ) -> TIFFFile.Page {
        var data = [UInt8](repeating: 0, count: width * height * samples)
        var seed: UInt32 = 12345
        for i in data.indices {
            seed = seed &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: (i / samples % width) &+ Int(seed >> 28))
        }
        return TIFFFile.Page(
            width: width, height: height, samplesPerPixel: samples, rowsPerStrip: rowsPerStrip, coding: coding,
            extraSamples: samples == 4 ? [2] : [], tile: tile, data: data)
    }

    /// Tiles of 64×48, strips of 3 rows (runs of 18), strips of 40 rows (a run each).
    static let layouts: [(tile: (width: Int, height: Int)?, rowsPerStrip: Int)] = [((64, 48), 2), (nil, 3), (nil, 40)]

    @Test(arguments: [3, 4], 0..<3)
    func helpedBlocksGiveOneThreadsPixels(samples: Int, layout: Int) throws {
        let (tile, rowsPerStrip) = Self.layouts[layout]
        let page = Self.page(
            width: 301, height: 247, samples: samples, tile: tile, rowsPerStrip: rowsPerStrip,
            coding: .lzw(predictor: 2))
        let source = try ImageSource(bytes: TIFFFile.file([page]), name: "blocks.tif")
        let crop = PixelRect(x: 70, y: 50, width: 150, height: 120)
        let cases: [(ThumbnailTarget, PixelRect?)] = [
            (.original, nil), (.prescale(3), nil), (.prescale(5), nil), (.prescale(16), nil),
            (.maxPixelSize(90), nil), (.maxPixelSize(75), crop),
        ]
        for (i, (target, region)) in cases.enumerated() {
            var options = ThumbnailOptions(pixelFormat: .native, color: .keep)
            let alone = try source.image(target, region: region, options: options)
            for limit in [1, 3] {
                let threads = TestHelperThreads(limit: limit)
                options.helpers = threads
                let helped = try source.image(target, region: region, options: options)
                // Strips are lent only at 1/d: at full size they stream a row at a time.
                let lends = tile != nil || helped.plan.prescale > 1
                #expect((threads.lent.load(ordering: .relaxed) >= 1) == lends, "case \(i): lent or not")
                #expect(helped.size == alone.size && helped.pixels.format == alone.pixels.format)
                #expect(helped.pixels.bytes == alone.pixels.bytes, "case \(i), \(limit) helpers: other pixels")
                #expect((helped.helperBytes > 0) == lends && alone.helperBytes == 0)
            }
        }
    }

    @Test(arguments: 0..<3)
    func aReducedDecodeOnThreadsIsTheBoxMeansAcrossBlockEdges(layout: Int) throws {
        // 1/5 of 64×48 tiles or runs of 18 or 40 rows: d×d blocks straddle every edge.
        let (tile, rowsPerStrip) = Self.layouts[layout]
        let page = Self.page(width: 301, height: 247, tile: tile, rowsPerStrip: rowsPerStrip, coding: .none)
        let threads = TestHelperThreads(limit: 2)
        var options = ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep)
        options.helpers = threads
        let image = try ImageSource(bytes: TIFFFile.file([page]), name: "box.tif").image(.prescale(5), options: options)
        #expect(image.plan.prescale == 5)
        #expect(image.size == PixelSize(width: 61, height: 50))
        var mismatches = 0
        for y in 0..<50 {
            for x in 0..<61 {
                let xs = (5 * x)..<min(301, 5 * x + 5), ys = (5 * y)..<min(247, 5 * y + 5)
                let n = xs.count * ys.count
                let mean = (0..<3).map { c in
                    let sum = ys.reduce(0) { s, sy in xs.reduce(s) { $0 + Int(page.data[(sy * 301 + $1) * 3 + c]) } }
                    return UInt8((sum + n / 2) / n)
                }
                if Array(image.pixels.pixel(x: x, y: y)) != mean { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(threads.lent.load(ordering: .relaxed) >= 1)
    }

    @Test func aDecodeCancelledWhileHelpersHoldTilesStops() throws {
        let page = Self.page(width: 640, height: 480, tile: (32, 32), coding: .lzw(predictor: 1))
        let source = try ImageSource(bytes: TIFFFile.file([page]), name: "cancel.tif")
        // The helper cancels the decode before its first tile.
        let (error, lent, rowsDecoded) = try TestHelperThreads.cancelledByItsHelper(source, .prescale(4))
        #expect(error?.code == .cancelled, "\(String(describing: error))")
        #expect(lent == 1)
        #expect(rowsDecoded < 480 / 4, "decoded to row \(rowsDecoded)")
    }

    /// A broken block in the middle (the first tile of the fifth row of tiles, or the strip of rows 128–135) or at the
    /// end (the last tile, or the last strip: once a crew counted a failed block among the finished ones, and the last
    /// row of blocks decoded without an error).
    @Test(arguments: [true, false], [false, true])
    func aBlockThatCannotBeDecodedFailsAsOnOneThread(tiled: Bool, last: Bool) throws {
        var bytes = TIFFFile.file([
            Self.page(
                width: 256, height: 256, tile: tiled ? (32, 32) : nil, rowsPerStrip: 8, coding: .lzw(predictor: 1))
        ])
        let blocks = Self.blockOffsets(bytes)
        let index = last ? blocks.count - 1 : tiled ? 4 * 8 : 16
        for i in blocks[index]..<(blocks[index] + 40) { bytes[i] = 0xFF } // LZW codes made invalid
        let source = try ImageSource(bytes: bytes, name: "broken.tif")
        let firstRow = tiled ? index / 8 * 32 : index * 8
        for target in [ThumbnailTarget.original, .prescale(4)] {
            for helpers in [0, 2] {
                var options = ThumbnailOptions(strict: true, pixelFormat: .exactly(.rgb8))
                if helpers > 0 { options.helpers = TestHelperThreads(limit: helpers) }
                let result = Result { () throws(ImageError) in try source.image(target, options: options) }
                guard case .failure(let error) = result else {
                    Issue.record("\(target), \(helpers) helpers: block \(index) is broken, yet the image decoded")
                    continue
                }
                #expect(error.code == ImageError.Code.corruptData, "\(error)")
                if tiled { #expect(error.message.contains("tile at \(index % 8 * 32), \(firstRow)"), "\(error)") }
            }
        }
    }

    /// The tile or strip offsets of the first page of a file ``TIFFFile`` wrote.
    static func blockOffsets(_ bytes: [UInt8]) -> [Int] {
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let ifd = u32(4)
        for e in 0..<u16(ifd) {
            let entry = ifd + 2 + 12 * e
            guard u16(entry) == 324 || u16(entry) == 273 else { continue }
            let count = u32(entry + 4), at = u32(entry + 8)
            return (0..<count).map { u32(at + 4 * $0) }
        }
        return []
    }

    @Test func thePipelineLendsAnIdleDecodeThreadWithinItsBudget() async throws {
        let bytes = TIFFFile.file([Self.page(width: 1024, height: 768, tile: (128, 128), coding: .lzw(predictor: 2))])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shrink-tiff-helpers-\(getpid()).tif")
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let options = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let alone = try ImageSource(bytes: bytes, name: "p.tif").image(.maxPixelSize(100), options: options)
        let pipeline = ImagePipeline(configuration: .init(budget: 64 << 20, maxConcurrentDecodes: 2, memoryCache: nil))
        let response = try await pipeline.image(
            for: ImageRequest(path: path.path, target: .maxPixelSize(100), options: options))
        #expect(response.image.pixels.bytes == alone.pixels.bytes)
        let ledger = pipeline.ledger
        #expect(ledger.helpersLent == 1, "lent \(ledger.helpersLent)")
        #expect(ledger.peakRunningCharge >= response.telemetry.predictedPeakBytes + response.image.helperBytes)
        #expect(ledger.peakRunningCharge <= ledger.budget)
    }
}
