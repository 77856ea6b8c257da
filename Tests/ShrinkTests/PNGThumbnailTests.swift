import Testing
import Shrink
import ShrinkTestSupport

@Suite struct PNGThumbnailTests {
    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8])
    func fullDecodeRoundTripsExactly(_ format: PixelFormat) throws {
        let size = PixelSize(width: 23, height: 17)
        let pixels = PixelBuffer(
            format: format, size: size, bytes: (0..<format.byteCount(for: size)).map { UInt8(($0 * 37) % 251) })
        let source = try ImageSource(bytes: try PNGEncoder().encode(pixels), name: "x.png")
        let decoded = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(format)))
        #expect(decoded.pixels.format == format)
        #expect(decoded.pixels.bytes == pixels.bytes)
    }

    @Test func alphaIsPremultipliedBeforeReduction() throws {
        // Left half fully transparent black, right half opaque white: a straight (non-premultiplied)
        // average would give grey at the seam; premultiplied, every visible pixel stays white.
        let w = 64, h = 8
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in (w / 2)..<w { for k in 0..<4 { bytes[(y * w + x) * 4 + k] = 255 } } }
        let source = try ImageSource(
            bytes: try PNGEncoder().encode(
                PixelBuffer(format: .rgba8, size: PixelSize(width: w, height: h), bytes: bytes)))
        let thumb = try source.thumbnail(maxPixelSize: 16)
        #expect(thumb.pixels.format == .rgba8)
        var partial = 0
        for x in 0..<16 {
            let p = Array(thumb.pixels.pixel(x: x, y: 1))
            if p[3] > 0 { #expect(p[0] >= 250 && p[1] >= 250 && p[2] >= 250, "x=\(x): \(p)") }
            if p[3] > 0 && p[3] < 255 { partial += 1 }
        }
        #expect(partial >= 1)
    }

    @Test func pngWithAlphaBecomesJPEGOnWhite() throws {
        var bytes = [UInt8](repeating: 0, count: 16 * 16 * 4)
        for i in stride(from: 0, to: bytes.count, by: 4) { bytes[i + 2] = 255; bytes[i + 3] = 0 } // transparent blue
        let source = try ImageSource(
            bytes: try PNGEncoder().encode(
                PixelBuffer(format: .rgba8, size: PixelSize(width: 16, height: 16), bytes: bytes)))
        let jpeg = try source.image().encoded(as: .jpeg(.init(quality: 95)))
        let back = try ImageSource(bytes: jpeg).image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(back.pixels.bytes.allSatisfy { $0 >= 250 })
    }

    @Test(.needsCorpus)
    func interlacedAndNonInterlacedTwinsGiveTheSameThumbnail() throws {
        var pairs = 0
        for entry in Corpus.entries
        where entry.path.hasPrefix("png/pngsuite/basi") && entry.expected.hasPrefix("decodes") {
            let twin = "png/pngsuite/basn" + entry.path.dropFirst("png/pngsuite/basi".count)
            guard Corpus.entries.contains(where: { $0.path == twin }) else { continue }
            let interlaced = try ImageSource(path: Corpus.path(entry.path))
            let plain = try ImageSource(path: Corpus.path(twin))
            #expect(interlaced.info.isProgressive && !plain.info.isProgressive)
            // Full size: identical pixels. Thumbnails: the same size, and the same picture.
            #expect(try interlaced.image().pixels.bytes == plain.image().pixels.bytes, "\(entry.path)")
            // (Opaque colour twins come out yuv420 under the default policy; equal bytes either way.)
            let a = try interlaced.thumbnail(maxPixelSize: 12), b = try plain.thumbnail(maxPixelSize: 12)
            #expect(a.size == b.size && a.pixels.format == b.pixels.format)
            if a.size == b.size && a.pixels.format == b.pixels.format {
                #expect(
                    PixelOps.psnr(a.pixels, b.pixels) > 30, "\(entry.path): \(PixelOps.psnr(a.pixels, b.pixels)) dB")
            }
            pairs += 1
        }
        #expect(pairs >= 15)
    }

    @Test(.needsCorpus)
    func interlacedWorkingMemoryIsPredictedAndBudgeted() throws {
        let source = try ImageSource(path: Corpus.path("png/pngsuite/basi6a16.png")) // 32×32 RGBA, 16-bit, Adam7
        #expect(source.decoderWorkingBytes == 32 * 32 * 8) // the whole image, full size
        let plan = try source.plan(.maxPixelSize(8))
        #expect(plan.prescale == 2) // 32 → 8: 1/2 leaves 2× to Lanczos
        // 16 × 16 cells of four 32-bit sums, then the averaged 16-bit rows.
        let expected = 16 * 16 * 4 * 4 + 16 * 16 * 8
        #expect(source.decoder.route(RouteRequest(scaleDenominator: 2)).workingBytes == expected)
        do {
            _ = try ImageSource(bytes: source.bytes, name: source.name, limits: ImageLimits(maxWorkingBytes: 8191))
                .image()
            Issue.record("full decode above the budget")
        } catch {
            #expect(error.code == .memoryBudgetExceeded)
        }
        #expect(
            try ImageSource(bytes: source.bytes, name: source.name, limits: ImageLimits(maxWorkingBytes: 8192)).image()
                .size == PixelSize(width: 32, height: 32))
    }

    @Test(.needsCorpus)
    func exifAfterTheImageDataIsFoundOnce() throws {
        // libpng's pngtest.png stores eXIf (orientation 5) after IDAT.
        let source = try ImageSource(path: Corpus.path("png/libpng/pngtest.png"))
        #expect(
            source.info.orientation == .leftMirrored && source.info.displayedSize == PixelSize(width: 69, height: 91))
        let image = try source.thumbnail(maxPixelSize: 30)
        #expect(image.size == PixelSize(width: 23, height: 30))
        let exif = try #require(image.metadata.exif)
        #expect(exif.withUnsafeBytes { ExifReader(tiff: $0) }.orientation == .up) // the pixels are upright now
    }

    @Test(.needsCorpus)
    func highPrecisionKeepsSixteenBits() throws {
        let source = try ImageSource(path: Corpus.path("png/pngsuite/basn6a16.png"))
        let full = try source.image(options: .init(pixelFormat: .highPrecision))
        #expect(full.pixels.format == .rgba16 && full.pixels.byteCount == 32 * 32 * 8)
        // Samples that are not multiples of 257 prove the 16-bit values were not widened from 8 bits.
        let samples = full.pixels.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.contains { $0 % 257 != 0 })
        // Reduced in 16-bit precision, then narrowed, it matches the 8-bit thumbnail within rounding.
        let wide = try source.thumbnail(maxPixelSize: 12, options: .init(pixelFormat: .highPrecision))
        let narrow = try source.thumbnail(maxPixelSize: 12, options: .init(pixelFormat: .exactly(.rgba8)))
        #expect(wide.pixels.format == .rgba16)
        #expect(PixelOps.maxDifference(PixelConverter.convert(wide.pixels, to: .rgba8), narrow.pixels) <= 1)
        // 8-bit sources are unaffected by the policy.
        let eight = try ImageSource(path: Corpus.path("png/pngsuite/basn6a08.png")).image(
            options: .init(pixelFormat: .highPrecision))
        #expect(eight.pixels.format == .rgba8)
        // A 16-bit PNG written from rgba16 keeps every sample.
        let again = try ImageSource(bytes: try full.encoded(as: .png(.init()))).image(
            options: .init(pixelFormat: .highPrecision))
        #expect(again.pixels.bytes == full.pixels.bytes)
    }

    @Test(.needsCorpus)
    func sixteenBitSourcesComeOutEightBit() throws {
        let source = try ImageSource(path: Corpus.path("png/pngsuite/basn6a16.png"))
        #expect(source.info.bitsPerComponent == 16 && source.info.hasAlpha)
        let full = try source.image()
        #expect(full.pixels.format == .rgba8)
        let thumb = try source.thumbnail(maxPixelSize: 8)
        #expect(thumb.size == PixelSize(width: 8, height: 8) && thumb.pixels.format == .rgba8)
    }
}
