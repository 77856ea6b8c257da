import Testing
import ShrinkCore
import ShrinkResample
import Shrink
import ShrinkTestSupport

/// HEIC through ImageSource: an iPhone photo (a 6×8 grid of HEVC tiles, irot 270, an EXIF orientation of its
/// own that must not be applied again) comes out 3024×4032 portrait on every path; a clean aperture is applied;
/// alpha comes from the auxiliary image.
@Suite struct HEIFDecodeTests {
    @Test(.needsCorpus)
    func iPhonePhotoIsPortraitOnEveryPath() throws {
        let source = try ImageSource(path: Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC"))
        #expect(source.info.format == .heif && source.info.size == PixelSize(width: 4032, height: 3024))
        #expect(source.info.orientation == .right && source.info.displayedSize == PixelSize(width: 3024, height: 4032))
        let small = try source.thumbnail(maxPixelSize: 256)
        #expect(small.size == PixelSize(width: 192, height: 256) && small.decodePath == DecodePath("tileRows"))
        #expect(small.pixels.format == .yuv420)
        // The planes and the rows routes agree (matrix and range handled the same way).
        let viaRows = try source.thumbnail(maxPixelSize: 256, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(viaRows.size == small.size)
        #expect(PixelOps.psnr(PixelConverter.convert(small.pixels, to: .rgb8), viaRows.pixels) > 30)
        // A region in displayed (portrait) pixels.
        let crop = try source.image(.maxPixelSize(200), region: PixelRect(x: 100, y: 3000, width: 800, height: 600))
        #expect(crop.size == PixelSize(width: 200, height: 150))
        // EXIF travels with the result, its orientation reset: it is never applied on top of irot.
        let exif = try #require(small.metadata.exif)
        #expect(ExifReader(tiff: exif.withUnsafeBytes { $0 }).orientation == .up)
    }

    @Test(.needsCorpus)
    func theThmbImageStandsInWhenAskedAndLargeEnough() throws {
        let source = try ImageSource(path: Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC"))
        #expect(source.info.embeddedThumbnail == PixelSize(width: 320, height: 240))
        let fast = ThumbnailOptions(mode: .fast, pixelFormat: .exactly(.rgb8))
        let thumb = try source.thumbnail(maxPixelSize: 150, options: fast)
        // portrait: irot applied
        #expect(thumb.decodePath == .embeddedThumbnail && thumb.size == PixelSize(width: 113, height: 150))
        let tiles = try source.thumbnail(maxPixelSize: 150, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(tiles.decodePath == DecodePath("tileRows") && tiles.size == thumb.size) // quality mode: the photo
        // the same scene, softer
        if tiles.size == thumb.size { #expect(PixelOps.psnr(tiles.pixels, thumb.pixels) > 25) }
        // Never upscaled: above 320x240 the tiles decode, fast mode or not.
        #expect(try source.thumbnail(maxPixelSize: 400, options: fast).decodePath == DecodePath("tileRows"))
        #expect(
            try source.thumbnail(maxPixelSize: 150, options: ThumbnailOptions(mode: .fast, useEmbeddedThumbnail: false))
                .decodePath
                == DecodePath("tileRows"))
        // A thumbnail whose aspect rounds to another output size is not used: 320x212 for 1280x854 gives 100x66.
        let example = try ImageSource(path: Corpus.path("heic/libheif/example.heic"))
        let hundred = try example.thumbnail(maxPixelSize: 100, options: fast)
        #expect(hundred.size == PixelSize(width: 100, height: 67) && hundred.decodePath == .wholeImage)
    }

    @Test(.needsCorpus)
    func aCropDecodesOnlyTheTilesItTouches() throws {
        let source = try ImageSource(path: Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC"))
        // Displayed (portrait) 1500,1500 300x300 is stored (irot 270) 1500..1800 across, 1224..1524 down: tiles
        // 2...3 of 8 across and 2...2 of 6 down, 1024x512 pixels from 1024,1024.
        let region = PixelRect(x: 1500, y: 1500, width: 300, height: 300)
        let plan = try source.plan(.original, region: region, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        let route = source.route(for: plan, format: .rgb8)
        #expect(
            route.sourceRect == FractionalRect(x: 1024, y: 1024, width: 1024, height: 512),
            "\(String(describing: route.sourceRect))")
        #expect(route.decodedSize == PixelSize(width: 1024, height: 512))
        // The same pixels as the whole image decoded and cut.
        let crop = try source.image(region: region, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))).pixels
        let whole = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))).pixels
        #expect(crop.size == PixelSize(width: 300, height: 300))
        var same = true
        for y in 0..<300 where same {
            for x in 0..<300 where Array(crop.pixel(x: x, y: y)) != Array(whole.pixel(x: 1500 + x, y: 1500 + y)) {
                same = false; break
            }
        }
        #expect(same, "the crop differs from the whole image cut")
    }

    /// A grid decoded at 1/4 sums each tile's rows into 4×4 means as they are copied: each plane is the full
    /// decode's plane in 4×4 means, exactly, and the route holds a sixteenth of the band (beside the sums).
    @Test(.needsCorpus)
    func aReducedDecodeIsTheFullDecodeInFourByFourMeans() throws {
        let source = try ImageSource(path: Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC"))
        #expect(source.decoder.scaleDenominators == [1, 2, 4, 8, 16, 32, 64])
        // The samples as decoded: no conversion from the photo's Display P3 (not linear: it would be applied to
        // the means).
        let yuv = ThumbnailOptions(pixelFormat: .exactly(.yuv420), color: .keep)
        let reduced = try source.image(.prescale(4), options: yuv)
        let full = try source.image(options: yuv)
        #expect(reduced.size == PixelSize(width: 756, height: 1008) && reduced.decodePath == DecodePath("tileRows"))
        let big = full.pixels.format.planes(for: full.size), small = reduced.pixels.format.planes(for: reduced.size)
        var worst = 0
        for (b, s) in zip(big, small) {
            #expect(s.width * 4 == b.width && s.height * 4 == b.height)
            for y in 0..<s.height {
                for x in 0..<s.width {
                    var sum = 0
                    for dy in 0..<4 {
                        for dx in 0..<4 {
                            sum += Int(full.pixels.bytes[b.offset + (4 * y + dy) * b.width + 4 * x + dx])
                        }
                    }
                    let mean = (sum + 8) / 16, got = Int(reduced.pixels.bytes[s.offset + y * s.width + x])
                    worst = max(worst, abs(mean - got))
                }
            }
        }
        #expect(worst == 0, "largest difference from the 4×4 means: \(worst)")
        let whole = source.route(for: try source.plan(.prescale(1), options: yuv), format: .yuv420).workingBytes
        let quarter = source.route(for: try source.plan(.prescale(4), options: yuv), format: .yuv420).workingBytes
        // 4032×512 samples of luma and 2016×256 of each chroma against a sixteenth of them and their sums.
        #expect(whole - quarter > 2_000_000, "\(whole) \(quarter)")
        #expect(reduced.predictedPeakBytes < full.predictedPeakBytes)
        // A crop decoded at 1/4 (the request's window is in the scaled image's pixels, its tiles found in the
        // image's): what the whole image at 1/4 gives for that region, resampled the same way.
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep)
        let crop = try source.image(
            .maxPixelSize(150), region: PixelRect(x: 1200, y: 1600, width: 1200, height: 1200), options: rgb)
        #expect(crop.size == PixelSize(width: 150, height: 150) && crop.plan.prescale == 4)
        let fourth = try source.image(.prescale(4), options: rgb).pixels
        let resampler = StreamingResampler(
            inputSize: fourth.size, format: .rgb8, outputSize: crop.size,
            region: FractionalRect(x: 300, y: 400, width: 300, height: 300))
        var expected = [UInt8](repeating: 0, count: crop.pixels.bytes.count)
        fourth.bytes.withUnsafeBufferPointer { rows in
            resampler.consume(rows.baseAddress!, bytesPerRow: fourth.bytesPerRow, count: fourth.size.height) {
                y, row in
                for i in 0..<row.count { expected[y * row.count + i] = row[i] }
            }
        }
        let psnr = PixelOps.psnr(crop.pixels, PixelBuffer(format: .rgb8, size: crop.size, bytes: expected))
        #expect(psnr > 40, "the crop at 1/4 is \(psnr) dB from the whole image at 1/4's region")
    }

    @Test(.needsCorpus)
    func cleanApertureAndAlpha() throws {
        // 452×462 coded, a clap keeping 451×461 (Pillow with libheif shows the same).
        let rainbow = try ImageSource(path: Corpus.path("heic/libheif/rainbow-451x461.heic"))
        #expect(rainbow.info.size == PixelSize(width: 451, height: 461))
        #expect(
            try rainbow.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))).size
                == PixelSize(width: 451, height: 461))
        let alpha = try ImageSource(path: Corpus.path("heic/libheif/with-alpha-512x512.heic"))
        #expect(alpha.info.hasAlpha)
        let image = try alpha.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        let values = Set(stride(from: 3, to: image.pixels.bytes.count, by: 4).map { image.pixels.bytes[$0] })
        #expect(values.contains(0) && values.contains(255)) // transparent and opaque parts
    }

    @Test(.needsCorpus)
    func damagedAndUnsupportedFilesAreTypedErrors() throws {
        // Every cut is refused with a typed error (the first inside ftyp and meta, which end at 949; the rest
        // leave image data past the end): all 24, recorded once.
        let bytes = try #require(Corpus.readBytes(Corpus.path("heic/libheif/example.heic")))
        var cuts = 0, refused = 0
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 23)) {
            cuts += 1
            do throws(ImageError) {
                _ = try ImageSource(bytes: Array(bytes[0..<n]), name: "cut.heic").thumbnail(maxPixelSize: 32)
                Issue.record("a file cut at \(n) of 718114 bytes decoded")
            } catch {
                refused += 1
                #expect(
                    [ImageError.Code.truncated, .corruptData, .unsupportedFormat, .unsupportedFeature].contains(
                        error.code), "\(n): \(error)")
            }
        }
        #expect(refused == cuts && cuts == 24)
        do throws(ImageError) {
            _ = try ImageSource(path: Corpus.path("heic/libheif-unci/uncompressed_comp_RGB.heif"))
            Issue.record("an uncompressed HEIF item opened")
        } catch {
            #expect(error.code == .unsupportedFeature)
        }
    }
}
