import Testing
import ShrinkCore
import ShrinkPNG
import ShrinkTestSupport

@Suite struct PNGDecoderTests {
    func decoder(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> PNGDecoder {
        try PNGDecoder(bytes: ImageBytes(bytes, name: "t.png"), path: "t.png", limits: limits)
    }

    @Test func headerOfEncodedFiles() throws {
        let rgba = PixelBuffer(
            format: .rgba8, size: PixelSize(width: 5, height: 3), bytes: (0..<60).map { UInt8($0 * 4) })
        let d = try decoder(try PNGEncoder().encode(rgba))
        #expect(d.info.size == PixelSize(width: 5, height: 3))
        #expect(d.info.colorModel == .rgba && d.info.hasAlpha && d.info.bitsPerComponent == 8)
        #expect(!d.isInterlaced && d.scaleDenominators == [1])
        #expect(d.rowFormat == .rgba8 && d.outputFormat == .rgba8)
        let gray = try decoder(try PNGEncoder().encode(TestImages.grayRamp(width: 4, height: 4)))
        #expect(gray.info.colorModel == .gray && !gray.info.hasAlpha && gray.outputFormat == .gray8)
    }

    @Test func rowsStreamExactlyAndInOrder() throws {
        let image = TestImages.pattern(width: 33, height: 21)
        let d = try decoder(try PNGEncoder().encode(image))
        let rows = try d.startDecoding(scaleDenominator: 1, options: DecodeOptions())
        var out = [UInt8](repeating: 0, count: 33 * 21 * 3)
        try out.withUnsafeMutableBytes { raw in
            while rows.nextRow < 21 {
                _ = try rows.readRows(
                    startingAt: rows.nextRow, into: raw.baseAddress! + rows.nextRow * 99, bytesPerRow: 99, maxRows: 5)
            }
            #expect(throws: ImageError.self) {
                _ = try rows.readRows(startingAt: 3, into: raw.baseAddress!, bytesPerRow: 99, maxRows: 1)
            }
        }
        try rows.finish()
        #expect(out == image.bytes)
    }

    @Test func bombsAreRefusedFromTheHeader() throws {
        for (w, h) in [(787_402, 787_402), (100_000, 100_000), (65_536, 65_536)] {
            do {
                _ = try decoder(TestPNG.file(width: w, height: h))
                Issue.record("\(w)x\(h) accepted")
            } catch {
                #expect(error.code == .limitExceeded, "\(error)")
                #expect(error.description.contains("\(w)x\(h)"))
            }
        }
        // Under a raised limit the header is fine, and the missing data is a clean error.
        let d = try decoder(TestPNG.file(width: 3000, height: 3000), limits: ImageLimits(maxPixels: 10_000_000))
        #expect(d.info.size == PixelSize(width: 3000, height: 3000))
    }

    @Test func chunkLimitsAreEnforced() throws {
        let text = TestPNG.chunk("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: 65, count: 5000))
        var bytes = try PNGEncoder().encode(TestImages.pattern(width: 4, height: 4))
        bytes.insert(contentsOf: text, at: 33) // after the signature and IHDR
        #expect(try decoder(bytes).info.size == PixelSize(width: 4, height: 4))
        do {
            let d = try decoder(bytes, limits: ImageLimits(maxChunkBytes: 1000))
            let rows = try d.startDecoding(scaleDenominator: 1, options: DecodeOptions())
            var out = [UInt8](repeating: 0, count: 48)
            try out.withUnsafeMutableBytes { raw in
                _ = try rows.readRows(startingAt: 0, into: raw.baseAddress!, bytesPerRow: 12, maxRows: 4)
            }
            Issue.record("a 5 KB chunk passed a 1000-byte limit")
        } catch let error as ImageError {
            #expect(error.code == .limitExceeded, "\(error.description)")
        }
    }

    @Test func corruptFilesAreTypedErrors() throws {
        let good = try PNGEncoder().encode(TestImages.pattern(width: 20, height: 20))
        var errors = 0
        // Every cut before the end of the image data (the file's last chunk is the 12-byte IEND).
        for cut in stride(from: 8, to: good.count - 12 - 4, by: 5) {
            do {
                let d = try decoder(Array(good[0..<cut]))
                _ = try d.startDecoding(scaleDenominator: 1, options: DecodeOptions()).readAll()
                Issue.record("cut at \(cut) decoded")
            } catch {
                #expect([.truncated, .corruptData].contains(error.code), "\(cut): \(error)")
                errors += 1
            }
        }
        #expect(errors > 10)
        var badCRC = good
        badCRC[20] ^= 0xFF // inside IHDR
        #expect(throws: ImageError.self) { _ = try decoder(badCRC) }
    }
}
