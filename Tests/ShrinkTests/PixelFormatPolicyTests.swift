import Testing
import Shrink
import ShrinkTestSupport

@Suite struct PixelFormatPolicyTests {
    static let photo420 = try! TestImages.jpeg(
        TestImages.pattern(width: 333, height: 222), quality: 95, chroma444: false)
    static let photo444 = try! TestImages.jpeg(
        TestImages.pattern(width: 333, height: 222), quality: 95, chroma444: true)

    @Test func memoryOptimizedFollowsContent() throws {
        let color = try ImageSource(bytes: Self.photo420).thumbnail(maxPixelSize: 100)
        #expect(color.pixels.format == .yuv420)
        #expect(color.pixels.byteCount == 100 * 67 + 2 * 50 * 34)
        let gray = try ImageSource(bytes: try TestImages.jpeg(TestImages.grayRamp(width: 90, height: 60))).thumbnail(
            maxPixelSize: 30)
        #expect(gray.pixels.format == .gray8 && gray.pixels.byteCount == 30 * 20)
        var rgba = [UInt8](repeating: 200, count: 20 * 10 * 4)
        rgba[3] = 0
        let png = try PNGEncoder().encode(
            PixelBuffer(format: .rgba8, size: PixelSize(width: 20, height: 10), bytes: rgba))
        #expect(try ImageSource(bytes: png).thumbnail(maxPixelSize: 10).pixels.format == .rgba8)
        #expect(
            try ImageSource(bytes: Self.photo420).thumbnail(
                maxPixelSize: 50, options: .init(pixelFormat: .displayReady)
            )
            .pixels.format == .bgra8Premultiplied)
        // An alpha-only mask (black wherever it shows) is held as alpha8, exactly.
        var mask = [UInt8](repeating: 0, count: 16 * 8 * 4)
        for i in 0..<(16 * 8) { mask[i * 4 + 3] = UInt8(i * 2) }
        let maskPNG = try PNGEncoder().encode(
            PixelBuffer(format: .rgba8, size: PixelSize(width: 16, height: 8), bytes: mask))
        let decodedMask = try ImageSource(bytes: maskPNG).image()
        #expect(decodedMask.pixels.format == .alpha8)
        let expected: [UInt8] = (0..<128).map { (i: Int) -> UInt8 in UInt8(i * 2) }
        #expect(decodedMask.pixels.bytes == expected)
    }

    @Test(.needsCorpus)
    func grayWithAlphaIsHeldAsGrayAlpha8() throws {
        let source = try ImageSource(path: Corpus.path("png/pngsuite/basn4a08.png")) // gray + alpha, 8-bit
        let image = try source.image()
        #expect(image.pixels.format == .grayAlpha8 && image.pixels.byteCount == 32 * 32 * 2)
        let rgba = try source.image(options: .init(pixelFormat: .exactly(.rgba8)))
        #expect(PixelConverter.convert(image.pixels, to: .rgba8).bytes == rgba.pixels.bytes)
    }

    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8, .yuv420, .nv12, .rgba16, .bgra8Premultiplied])
    func explicitFormatsCostExactly(_ format: PixelFormat) throws {
        let image = try ImageSource(bytes: Self.photo420).thumbnail(
            maxPixelSize: 77, options: .init(pixelFormat: .exactly(format)))
        #expect(image.pixels.format == format)
        // 77x51 = 3927 pixels; yuv420 and nv12 add two 39x26 chroma planes (3927 + 2·1014 = 5955).
        let expected: [PixelFormat: Int] = [
            .gray8: 3927, .rgb8: 11781, .rgba8: 15708, .bgra8Premultiplied: 15708,
            .yuv420: 5955, .nv12: 5955, .rgba16: 31416,
        ]
        #expect(image.pixels.byteCount == expected[format], "\(format)")
        #expect(image.pixels.bytes.count == expected[format], "\(format)")
        #expect(image.size == PixelSize(width: 77, height: 51))
    }

    @Test func peakIsPredictedFromTheHeader() throws {
        let progressive = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.pattern(width: 400, height: 300), progressive: true))
        // The progressive file's coefficient buffer, as libjpeg's route reports it (recorded once).
        #expect(progressive.decoderWorkingBytes == 729_600)
        // Recorded once and checked term by term against predictedPeakBytes(for:format:route:color:): a 50x38
        // result (yuv420 2850, rgb8 5700, gray8 1900 bytes), the coefficient buffer 729 600, libjpeg's state
        // 29 184, a 16-row strip of 200-pixel rgb rows (9600), the resampler's rings from 200x150 (three
        // planes 61 048: one channel filters vertically first, so its rings hold the 200- and 100-pixel plane
        // rows, 25 rows for luma, 17 for the chroma's shorter kernel, and the chroma planes, predicted from the
        // 200-pixel luma width, box-shrink with 800 bytes of per-pixel sums each; rgb rows 31 500), and for gray8
        // the whole rgb8 result converted after (5700).
        let pinned: [PixelFormat: Int] = [.yuv420: 833_082, .rgb8: 805_584, .gray8: 807_484]
        for format in [PixelFormat.yuv420, .rgb8, .gray8] {
            let plan = try progressive.plan(.maxPixelSize(50))
            let predicted = progressive.decodePlan(plan, options: .init(pixelFormat: .exactly(format)))
                .predictedPeakBytes
            let image = try progressive.thumbnail(maxPixelSize: 50, options: .init(pixelFormat: .exactly(format)))
            #expect(image.predictedPeakBytes == predicted)
            #expect(predicted == pinned[format], "\(format): \(predicted)")
            // At least the result and the coefficient buffer; rows and rings add under 120 kB for a thumbnail.
            let floor = image.pixels.byteCount + progressive.decoderWorkingBytes
            #expect(predicted >= floor && predicted < floor + 120_000, "\(format): \(predicted)")
        }
    }

    /// RGB sources (PNG) convert to YUV row by row: exactly what converting the finished, oriented RGB
    /// image gives, for every orientation and odd sizes.
    @Test(arguments: 1...8)
    func pngToYUVWhileStreamingEqualsConvertingAfter(_ orientation: Int) throws {
        let rgb = TestImages.pattern(width: 37, height: 23)
        var png = try PNGEncoder(options: .init(keepEXIF: true)).encode(
            rgb,
            metadata: ImageMetadata(
                exif: Array(TestImages.exifSegment(orientation: orientation, thumbnail: nil)[10...])))
        png = Array(png)
        let source = try ImageSource(bytes: png)
        #expect(source.info.orientation.rawValue == orientation)
        for target in [ThumbnailTarget.original, .maxPixelSize(15)] {
            let reference = try source.image(target, options: .init(pixelFormat: .exactly(.rgb8)))
            for format in [PixelFormat.yuv420, .nv12] {
                let streamed = try source.image(target, options: .init(pixelFormat: .exactly(format)))
                #expect(
                    streamed.pixels.bytes == PixelConverter.convert(reference.pixels, to: format).bytes,
                    "orientation \(orientation) \(target) \(format)")
            }
        }
    }

    /// The planar path (Y, Cb, Cr straight from libjpeg) against the RGB path converted to yuv420.
    @Test(arguments: 1...8)
    func planarDecodeMatchesTheRGBPath(_ orientation: Int) throws {
        for bytes in [Self.photo420, Self.photo444] {
            let withOrientation =
                Array(bytes[0..<2]) + TestImages.exifSegment(orientation: orientation, thumbnail: nil)
                + Array(bytes[2...])
            let source = try ImageSource(bytes: withOrientation)
            for target in [
                ThumbnailTarget.original, .maxPixelSize(100), .box(PixelSize(width: 40, height: 60), fit: .cover),
            ] {
                // Colours as decoded: a profile applied after the reduction would amplify the paths' rounding (one
                // corpus file's test profile turns each dark level into 15).
                let planar = try source.image(target, options: .init(pixelFormat: .exactly(.yuv420), color: .keep))
                let viaRGB = PixelConverter.convert(
                    try source.image(target, options: .init(pixelFormat: .exactly(.rgb8), color: .keep)).pixels,
                    to: .yuv420)
                #expect(planar.size == viaRGB.size)
                #expect(PixelOps.psnr(planar.pixels, viaRGB) > 33, "orientation \(orientation) \(target)")
            }
        }
    }
}

@Suite struct PlanarCorpusTests {
    /// Every decodable YCbCr JPEG in the corpus: the planar path agrees with the RGB path converted to yuv420
    /// (whatever the subsampling, restart markers, progressive or arithmetic coding).
    @Test(.needsCorpus)
    func planarPathAgreesWithTheRGBPathOnTheCorpus() throws {
        var checked = 0
        var worst = (99.0, "")
        for entry in Corpus.entries
        where entry.format == "jpeg" && entry.expected.hasPrefix("decodes") && !entry.path.hasPrefix("corrupt/") {
            let source = try ImageSource(path: Corpus.path(entry.path))
            guard source.info.colorModel == .yCbCr, min(source.info.size.width, source.info.size.height) >= 16 else {
                continue
            }
            // Full size too for the smaller files (debug builds are slow on the large ones; make test's time is bounded).
            let targets: [ThumbnailTarget] =
                source.info.size.pixelCount <= 300_000 ? [.maxPixelSize(64), .original] : [.maxPixelSize(64)]
            for target in targets {
                // Colours as decoded: a profile applied after the reduction would amplify the paths' rounding (one
                // corpus file's test profile turns each dark level into 15).
                let planar = try source.image(target, options: .init(pixelFormat: .exactly(.yuv420), color: .keep))
                let viaRGB = PixelConverter.convert(
                    try source.image(target, options: .init(pixelFormat: .exactly(.rgb8), color: .keep)).pixels,
                    to: .yuv420)
                let psnr = PixelOps.psnr(planar.pixels, viaRGB)
                if psnr < worst.0 { worst = (psnr, "\(entry.path) \(target)") }
                #expect(psnr > 35, "\(entry.path) \(target): \(psnr) dB")
            }
            checked += 1
        }
        print("planar vs RGB: \(checked) files, worst \(worst.0) dB at \(worst.1)")
        #expect(checked > 150)
    }
}
