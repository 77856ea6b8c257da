import Testing
import Shrink
import ShrinkTestSupport

/// WebP through the whole library: encoder round trips, the scaled routes, alpha edges, EXIF orientation,
/// animations, the budget, and damaged files.
@Suite struct WebPTests {
    func source(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> ImageSource {
        try ImageSource(bytes: bytes, name: "t.webp", limits: limits)
    }

    @Test func losslessRoundTripsExactly() throws {
        for pixels in [
            TestImages.pattern(width: 37, height: 23),
            PixelConverter.convert(TestImages.pattern(width: 20, height: 9), to: .rgba8),
        ] {
            let webp = try WebPEncoder(options: .init(lossless: true)).encode(pixels)
            let s = try source(webp)
            #expect(s.info.format == .webp && s.info.features.contains("VP8L"))
            let decoded = try s.image(options: ThumbnailOptions(pixelFormat: .exactly(pixels.format)))
            #expect(decoded.decodePath == .wholeImage)
            #expect(decoded.pixels.bytes == pixels.bytes)
        }
    }

    @Test func planesAndRowsAgree() throws {
        // A lossy file decoded to YUV planes (VP8's limited range widened) and to RGB rows by libwebp: the same
        // picture, apart from chroma upsampling. Range handled wrong costs ~8 dB here.
        let original = TestImages.pattern(width: 320, height: 240)
        let s = try source(try WebPEncoder(options: .init(quality: 95)).encode(original))
        let planes = try s.image(options: ThumbnailOptions(pixelFormat: .exactly(.yuv420)))
        let rows = try s.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(planes.decodePath == .scaledPlanes && rows.decodePath == .scaledRows)
        let fromPlanes = PixelConverter.convert(planes.pixels, to: .rgb8)
        #expect(PixelOps.psnr(fromPlanes, rows.pixels) > 33)
        #expect(PixelOps.psnr(rows.pixels, original) > 30)
        // Scaled while decoding: a 40-pixel thumbnail decodes at 1/4 (80×60), never at full size.
        let thumb = try s.thumbnail(maxPixelSize: 40)
        #expect(thumb.plan.prescale == 4 && thumb.size == PixelSize(width: 40, height: 30))
    }

    @Test func alphaEdgesHaveNoHalo() throws {
        // Opaque black beside transparent white (kept under alpha 0 with `exact`): a lossy file with alpha,
        // scaled by libwebp. Colour must come from visible pixels only.
        var rgba = [UInt8](repeating: 0, count: 400 * 400 * 4)
        for y in 0..<400 {
            for x in 0..<400 {
                let i = (y * 400 + x) * 4
                if x < 203 { rgba[i + 3] = 255 } else { rgba[i] = 255; rgba[i + 1] = 255; rgba[i + 2] = 255 }
            }
        }
        let image = PixelBuffer(format: .rgba8, size: PixelSize(width: 400, height: 400), bytes: rgba)
        let s = try source(try WebPEncoder(options: .init(quality: 95, exact: true)).encode(image))
        #expect(s.info.hasAlpha && s.info.features.contains("ALPH"))
        let thumb = try s.thumbnail(maxPixelSize: 50, options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(thumb.plan.prescale > 1 && thumb.decodePath == .scaledRows)
        var edge = 0
        for i in stride(from: 0, to: thumb.pixels.bytes.count, by: 4)
        where thumb.pixels.bytes[i + 3] > 0 && thumb.pixels.bytes[i + 3] < 255 {
            edge += 1
            #expect(
                thumb.pixels.bytes[i] < 12,
                "edge pixel \(i / 4) has colour \(thumb.pixels.bytes[i]) under alpha \(thumb.pixels.bytes[i + 3])")
        }
        #expect(edge > 0)
    }

    @Test func exifOrientationAndICCAreRead() throws {
        let exif = Array(TestImages.exifSegment(orientation: 6, thumbnail: nil).dropFirst(10)) // the TIFF part
        let icc = [UInt8](repeating: 7, count: 300)
        let webp = try WebPEncoder(options: .init(keepEXIF: true)).encode(
            TestImages.pattern(width: 64, height: 48),
            metadata: ImageMetadata(iccProfile: icc, exif: exif))
        let s = try source(webp)
        #expect(s.info.orientation == .right && s.info.displayedSize == PixelSize(width: 48, height: 64))
        #expect(s.info.iccProfileBytes == 300 && s.info.features.contains("EXIF"))
        #expect(try s.decoder.metadata().iccProfile == icc)
        let thumb = try s.thumbnail(maxPixelSize: 32)
        #expect(thumb.size == PixelSize(width: 24, height: 32))
        #expect(ExifReader(tiff: thumb.metadata.exif!.withUnsafeBytes { $0 }).orientation == .up)
    }

    @Test func losslessCostIsChargedBeforeDecoding() throws {
        let s = try source(
            try WebPEncoder(options: .init(lossless: true)).encode(TestImages.pattern(width: 500, height: 400)))
        let plan = try s.plan(.maxPixelSize(100))
        let route = s.route(for: plan, format: .rgb8)
        #expect(route.path == .wholeImage && route.workingBytes >= 500 * 400 * 4)
        let tight = try ImageSource(
            bytes: s.bytes, name: s.name, limits: ImageLimits(maxWorkingBytes: route.workingBytes - 1))
        #expect(throws: ImageError.self) { _ = try tight.thumbnail(maxPixelSize: 100) }
        do throws(ImageError) {
            _ = try s.plan(.maxPixelSize(100), within: 500 * 400 * 4)
            Issue.record("a budget below the whole image admitted the lossless file")
        } catch {
            #expect(error.code == .memoryBudgetExceeded)
        }
        let enough = try ImageSource(
            bytes: s.bytes, name: s.name, limits: ImageLimits(maxWorkingBytes: route.workingBytes))
        #expect(try enough.thumbnail(maxPixelSize: 100).size == PixelSize(width: 100, height: 80))
    }

    @Test(.needsCorpus)
    func animationDecodesItsFirstFrame() throws {
        let s = try ImageSource(path: Corpus.path("webp/sdwebimage/TestImageAnimated.webp"))
        #expect(s.info.frameCount == 8 && s.info.loopCount == 0 && s.info.features.contains("ANIM"))
        let image = try s.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(image.size == PixelSize(width: 990, height: 1050))
        // Pillow's frame 0 (Image.open(f).convert("RGBA")) at these pixels, and its alpha counts.
        let px = image.pixels.bytes
        let pillow: [(Int, Int, [UInt8])] = [
            (600, 450, [255, 255, 0, 255]), (600, 300, [0, 0, 0, 255]), (0, 0, [0, 0, 0, 0]),
            (300, 200, [255, 255, 255, 0]),
            (989, 1049, [0, 0, 0, 0]), (270, 780, [255, 255, 255, 255]), (630, 675, [206, 206, 0, 255]),
            (510, 610, [255, 0, 0, 255]), (540, 262, [156, 156, 0, 255]),
        ]
        for (x, y, rgba) in pillow {
            let i = (y * 990 + x) * 4
            #expect(Array(px[i..<i + 4]) == rgba, "(\(x), \(y))")
        }
        let alphas = stride(from: 3, to: px.count, by: 4).map { px[$0] }
        #expect(alphas.count { $0 == 0 } == 767_700 && alphas.count { $0 == 255 } == 271_800)
    }

    @Test func damagedFilesAreTypedErrors() throws {
        let good = try WebPEncoder().encode(TestImages.pattern(width: 64, height: 64))
        for n in stride(from: 0, to: good.count, by: 7) {
            do throws(ImageError) {
                _ = try source(Array(good[0..<n])).thumbnail(maxPixelSize: 16)
                Issue.record("a file cut at \(n) of \(good.count) bytes decoded")
            } catch {
                #expect(
                    [ImageError.Code.truncated, .corruptData, .unsupportedFormat].contains(error.code), "\(n): \(error)"
                )
            }
        }
        var flipped = good
        for i in stride(from: 40, to: flipped.count, by: 3) { flipped[i] ^= 0x5A }
        // Deterministic (the encoder's output is): libwebp reports the damaged stream as ending early (recorded once).
        do throws(ImageError) {
            _ = try source(flipped).thumbnail(maxPixelSize: 16)
            Issue.record("a file with every third byte from 40 flipped decoded")
        } catch {
            #expect(error.code == .truncated, "\(error)")
        }
        #expect(throws: ImageError.self) { _ = try source(good, limits: ImageLimits(maxPixels: 63 * 64)) }
    }

    @Test func yuvGoesInWithItsRangeConverted() throws {
        // A yuv420 thumbnail (full range) encoded as it is must decode like the same picture given as RGB:
        // VP8 codes limited-range YUV, so passing the planes unconverted stretches the contrast (~28 dB).
        let rgb = TestImages.pattern(width: 160, height: 120)
        let yuv = PixelConverter.convert(rgb, to: .yuv420)
        let fromYUV = try source(try WebPEncoder(options: .init(quality: 95)).encode(yuv)).image(
            options: .init(pixelFormat: .exactly(.rgb8)))
        let fromRGB = try source(
            try WebPEncoder(options: .init(quality: 95)).encode(PixelConverter.convert(yuv, to: .rgb8))
        )
        .image(options: .init(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(fromYUV.pixels, fromRGB.pixels) > 35)
    }

    @Test func regionsAreCroppedByLibwebp() throws {
        // A region decodes only its rectangle (libwebp crops before it scales): the same pixels as the full
        // decode cut out, at full size; a reduced region is within Lanczos distance of that.
        let s = try source(
            try WebPEncoder(options: .init(quality: 90)).encode(TestImages.pattern(width: 400, height: 300)))
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let full = try s.image(options: rgb).pixels
        let region = PixelRect(x: 37, y: 21, width: 200, height: 150)
        let plan = try s.plan(.original, region: region, options: rgb)
        let route = s.route(for: plan, format: .rgb8)
        // The region plus the resampler's reach, left and top snapped to even pixels.
        let kept = try #require(route.sourceRect)
        #expect(kept.x <= 37 && kept.y <= 21 && kept.x + kept.width >= 237 && kept.y + kept.height >= 171)
        #expect(Int(kept.x) % 2 == 0 && Int(kept.y) % 2 == 0 && kept.width * kept.height < 260 * 200)
        #expect(route.decodedSize == PixelSize(width: Int(kept.width), height: Int(kept.height)))
        let cut = try s.image(region: region, options: rgb)
        var expected: [UInt8] = []
        for y in 21..<171 { expected += full.bytes[(y * 400 + 37) * 3..<(y * 400 + 237) * 3] }
        #expect(cut.pixels.bytes == expected)
        let small = try s.image(.maxPixelSize(40), region: region, options: rgb)
        #expect(small.size == PixelSize(width: 40, height: 30) && small.plan.prescale == 2)
        #expect(s.route(for: small.plan, format: .rgb8).sourceRect != nil)
    }

    @Test func encoderRejectsBadSettings() throws {
        let p = TestImages.pattern(width: 8, height: 8)
        #expect(throws: ImageError.self) { _ = try WebPEncoder(options: .init(quality: 0)).encode(p) }
        #expect(throws: ImageError.self) { _ = try WebPEncoder(options: .init(method: 7)).encode(p) }
        // A yuv420 buffer is accepted: a lossy 8x8 file that decodes back to 8x8, close to the picture.
        let yuv = PixelConverter.convert(p, to: .yuv420)
        let webp = try WebPEncoder().encode(yuv)
        let s = try source(webp)
        #expect(
            s.info.format == .webp && s.info.size == PixelSize(width: 8, height: 8) && s.info.features.contains("VP8"))
        let decoded = try s.image(options: .init(pixelFormat: .exactly(.rgb8)))
        #expect(decoded.size == PixelSize(width: 8, height: 8))
        #expect(PixelOps.psnr(decoded.pixels, p) > 20) // 24.8 dB at the default quality (recorded once)
    }
}
