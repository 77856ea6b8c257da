import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

@Suite struct JPEGDecoderTests {
    func decoder(_ bytes: [UInt8]) throws -> JPEGDecoder {
        try JPEGDecoder(bytes: ImageBytes(bytes, name: "test.jpg"), path: "test.jpg")
    }

    @Test func headerOfGeneratedFiles() throws {
        let rgb = TestImages.pattern(width: 100, height: 60)
        let d420 = try decoder(try TestImages.jpeg(rgb, chroma444: false))
        #expect(d420.info.size == PixelSize(width: 100, height: 60))
        #expect(d420.info.colorModel == .yCbCr)
        #expect(d420.info.chromaSubsampling == .s420)
        #expect(!d420.info.isProgressive)
        #expect(d420.libjpegWorkingBytes == 0)
        #expect(d420.outputFormat == .rgb8)

        let d444 = try decoder(try TestImages.jpeg(rgb, chroma444: true, progressive: true))
        #expect(d444.info.chromaSubsampling == .s444)
        #expect(d444.info.isProgressive)

        let gray = try decoder(try TestImages.jpeg(TestImages.grayRamp(width: 9, height: 7)))
        #expect(gray.info.colorModel == .gray)
        #expect(gray.info.chromaSubsampling == nil)
        #expect(gray.outputFormat == .gray8)
    }

    @Test func exifOrientationAndThumbnail() throws {
        let thumb = try TestImages.jpeg(TestImages.pattern(width: 16, height: 12))
        let d = try decoder(
            try TestImages.jpeg(TestImages.pattern(width: 64, height: 48), orientation: 6, thumbnail: thumb))
        #expect(d.info.orientation == .right)
        #expect(d.info.displayedSize == PixelSize(width: 48, height: 64))
        #expect(d.info.embeddedThumbnail == PixelSize(width: 16, height: 12))
        #expect(d.info.exifBytes > thumb.count)
    }

    @Test func progressiveCoefficientBufferIsPredictedFromTheHeader() throws {
        let d = try decoder(
            try TestImages.jpeg(TestImages.pattern(width: 100, height: 60), chroma444: false, progressive: true))
        // Luma: ceil(100/8)=13 → 14 (a multiple of h=2) × ceil(60/8)=8 blocks; chroma: 7 × 4 blocks each;
        // 64 coefficients × 2 bytes per block.
        #expect(d.libjpegWorkingBytes == (14 * 8 + 2 * 7 * 4) * 128)
    }

    @Test func rowsComeStrictlyTopToBottom() throws {
        let d = try decoder(try TestImages.jpeg(TestImages.pattern(width: 40, height: 30)))
        let rows = try d.startRows(scaleDenominator: 2)
        #expect(rows.size == PixelSize(width: 20, height: 15))
        var strip = [UInt8](repeating: 0, count: 20 * 3 * 4)
        let n = try strip.withUnsafeMutableBytes {
            try rows.readRows(startingAt: 0, into: $0.baseAddress!, bytesPerRow: 60, maxRows: 4)
        }
        #expect(n > 0 && rows.nextRow == n)
        #expect(throws: ImageError.self) {
            try strip.withUnsafeMutableBytes {
                _ = try rows.readRows(startingAt: 0, into: $0.baseAddress!, bytesPerRow: 60, maxRows: 4)
            }
        }
        do {
            _ = try strip.withUnsafeMutableBytes {
                try rows.readRows(startingAt: n + 1, into: $0.baseAddress!, bytesPerRow: 60, maxRows: 1)
            }
            Issue.record("skipping a row must fail")
        } catch let error as ImageError {
            #expect(error.code == .invalidArgument)
        }
        try rows.finish()
    }

    @Test(arguments: [2, 4, 8])
    func scaledSizesRoundUp(_ d: Int) throws {
        let dec = try decoder(try TestImages.jpeg(TestImages.pattern(width: 101, height: 37)))
        let rows = try dec.startRows(scaleDenominator: d)
        #expect(rows.size == dec.scaledSize(denominator: d))
        #expect(rows.size == PixelSize(width: (101 + d - 1) / d, height: (37 + d - 1) / d))
    }

    @Test func memoryLimitIsEnforcedInsideLibjpeg() throws {
        let d = try decoder(try TestImages.jpeg(TestImages.pattern(width: 600, height: 400), progressive: true))
        #expect(d.libjpegWorkingBytes > 1_000_000)
        do {
            _ = try d.startRows(scaleDenominator: 1, options: .init(memoryLimit: 1_000_000))
            Issue.record("a decode above the memory limit must fail")
        } catch {
            #expect(error.code == .memoryBudgetExceeded)
            #expect(error.description.contains("test.jpg"))
        }
    }

    @Test func truncationIsAnErrorByDefaultToo() throws {
        let full = try TestImages.jpeg(TestImages.pattern(width: 64, height: 64))
        for cut in [full.count / 2, full.count - 2] {
            do {
                let rows = try decoder(Array(full[0..<cut])).startRows(scaleDenominator: 1)
                _ = try rows.readAll()
                try rows.finish()
                Issue.record("a file cut at \(cut) of \(full.count) decoded")
            } catch let error as ImageError {
                #expect(error.code == .truncated, "\(error)")
            }
        }
        let clean = try decoder(full).startRows(scaleDenominator: 1)
        _ = try clean.readAll()
        try clean.finish()
        #expect(clean.warnings.isEmpty)
    }

    @Test func truncatedAndCorruptDataAreErrorsWhenStrict() throws {
        let full = try TestImages.jpeg(TestImages.pattern(width: 64, height: 64))
        for cut in [full.count / 2, full.count - 10, 200] {
            do {
                let d = try decoder(Array(full[0..<cut]))
                let rows = try d.startRows(scaleDenominator: 1, options: DecodeOptions(strict: true))
                _ = try rows.readAll()
                try rows.finish()
                Issue.record("truncated at \(cut) must fail")
            } catch let error as ImageError {
                #expect(error.code == .truncated, "\(error)")
            }
        }
        #expect(throws: ImageError.self) { _ = try decoder([0xFF, 0xD8, 0xFF, 0xC0, 0, 3, 1]) }
        #expect(throws: ImageError.self) { _ = try decoder([0xFF, 0xD8, 0xFF]) }
    }

    @Test(.needsCorpus)
    func corpusHeadersMatchTheManifest() throws {
        var checked = 0
        for entry in Corpus.entries where entry.format == "jpeg" {
            guard let sizes = entry.decodedSizes else { continue }
            let d = try JPEGDecoder(bytes: try ImageBytes(mapping: Corpus.path(entry.path)), path: entry.path)
            #expect(d.info.size == PixelSize(width: sizes.stored.0, height: sizes.stored.1), "\(entry.path)")
            #expect(
                d.info.displayedSize == PixelSize(width: sizes.displayed.0, height: sizes.displayed.1), "\(entry.path)")
            checked += 1
        }
        #expect(checked > 250)
    }
}
