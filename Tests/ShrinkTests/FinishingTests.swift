import Foundation
import Shrink
import ShrinkTestSupport
import Testing

/// The fits imgproxy's resizing types need (`stretch`, `fill`), the minimum size, and ``Finishing``: blur checked
/// against libvips' `gaussblur`, pixelation against block means computed here, canvases and padding pixel by pixel.
@Suite struct FinishingTests {
    let source: ImageSource
    let pattern = TestImages.pattern(width: 480, height: 320)

    init() throws {
        source = try ImageSource(bytes: try TestImages.jpeg(pattern, quality: 95), name: "p.jpg")
    }

    private func size(_ target: ThumbnailTarget, _ options: ThumbnailOptions = ThumbnailOptions()) throws -> PixelSize {
        try source.plan(target, options: options).outputSize
    }

    @Test func stretchFillAndMinimumSizesAsImgproxyGivesThem() throws {
        func box(_ w: Int, _ h: Int, _ fit: ThumbnailTarget.Fit) -> ThumbnailTarget {
            .box(PixelSize(width: w, height: h), fit: fit)
        }
        let up = ThumbnailOptions(allowUpscaling: true)
        // Stretch: exactly the box; without upscaling both sides shrink until neither enlarges the source.
        #expect(try size(box(100, 100, .stretch)) == PixelSize(width: 100, height: 100))
        #expect(try size(box(960, 100, .stretch)) == PixelSize(width: 480, height: 50))
        #expect(try size(box(960, 100, .stretch), up) == PixelSize(width: 960, height: 100))
        #expect(try size(box(200, 0, .stretch)) == PixelSize(width: 200, height: 320))
        #expect(throws: ImageError.self) { try size(box(0, 0, .stretch)) }
        // Fill keeps the source's side where it is smaller than the box; cover keeps the box's aspect ratio.
        #expect(try size(box(600, 200, .fill)) == PixelSize(width: 480, height: 200))
        #expect(try size(box(600, 200, .cover)) == PixelSize(width: 480, height: 160))
        #expect(try size(box(120, 120, .fill)) == PixelSize(width: 120, height: 120))
        #expect(try size(box(600, 200, .fill), up) == PixelSize(width: 600, height: 200))
        // A minimum size enlarges what fits inside, aspect kept; cover keeps its box and cuts a smaller window.
        var least = ThumbnailOptions()
        least.minimumSize = PixelSize(width: 150, height: 0)
        #expect(try size(box(100, 100, .inside)) == PixelSize(width: 100, height: 67))
        #expect(try size(box(100, 100, .inside), least) == PixelSize(width: 150, height: 100))
        #expect(try size(.maxPixelSize(60), least) == PixelSize(width: 150, height: 100))
        least.minimumSize = PixelSize(width: 0, height: 640)
        #expect(try size(.original, least) == PixelSize(width: 960, height: 640))
        least.minimumSize = PixelSize(width: 240, height: 0)
        let cut = try source.plan(box(100, 100, .cover), options: least)
        let plain = try source.plan(box(100, 100, .cover))
        #expect(cut.outputSize == plain.outputSize && cut.storedRegion.width < plain.storedRegion.width)
    }

    @Test func zoomMultipliesTheResultWithinTheSource() throws {
        func zoomed(_ target: ThumbnailTarget, _ x: Double, _ y: Double, up: Bool = false) throws -> PixelSize {
            var o = ThumbnailOptions(allowUpscaling: up)
            o.zoom = (x, y)
            return try size(target, o)
        }
        let box = ThumbnailTarget.box(PixelSize(width: 100, height: 100), fit: .inside)
        #expect(try zoomed(box, 1.5, 1.5) == PixelSize(width: 150, height: 100))
        #expect(try zoomed(box, 2, 1) == PixelSize(width: 200, height: 67))
        #expect(try zoomed(.original, 0.5, 0.5) == PixelSize(width: 240, height: 160))
        // Without upscaling, both sides shrink until neither enlarges the source; with it, as asked.
        #expect(try zoomed(.original, 2, 1) == PixelSize(width: 480, height: 160))
        #expect(try zoomed(.original, 2, 1, up: true) == PixelSize(width: 960, height: 320))
        #expect(throws: ImageError.self) { try zoomed(box, 0, 1) }
    }

    @Test func gravityOffsetsAndFocusPointsPlaceTheWindow() throws {
        func window(_ g: Gravity) throws -> Double {
            var o = ThumbnailOptions()
            o.gravity = g
            return try source.plan(.box(PixelSize(width: 100, height: 100), fit: .cover), options: o).storedRegion.x
        }
        // The 320×320 window of the 480×320 image, result pixels 3.2 source pixels each.
        #expect(try window(.west) == 0 && window(.east) == 160 && window(.centre) == 80)
        #expect(try window(Gravity.west.offset(x: 10, y: 0)) == 32) // 10 result pixels from the left edge
        #expect(try window(Gravity.east.offset(x: 10, y: 0)) == 128) // … from the right edge
        #expect(try window(Gravity.centre.offset(x: 0.1, y: 0)) == 128) // a tenth of the width to the right
        #expect(try window(Gravity.west.offset(x: -50, y: 0)) == 0) // clamped inside
        // A focus point is the window's centre: at a quarter across, the window starts at 120 − 160 → 0.
        #expect(try window(.focus(x: 0.25, y: 0.5)) == 0 && window(.focus(x: 0.75, y: 0.5)) == 160)
        #expect(try window(.focus(x: 0.5, y: 0.5)) == 80 && window(Gravity(x: 0.25, y: 0.5)) == 40)
    }

    private func finished(_ f: Finishing, size: Int = 120, format: PixelFormat = .rgb8) throws -> (
        plain: PixelBuffer, finished: PixelBuffer
    ) {
        var o = ThumbnailOptions(pixelFormat: .exactly(format))
        let plain = try source.thumbnail(maxPixelSize: size, options: o).pixels
        o.finishing = f
        return (plain, try source.thumbnail(maxPixelSize: size, options: o).pixels)
    }

    @Test func blurIsLibvipsGaussblurWithinTheApproximation() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("finishing-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for sigma in [1.5, 4.0] {
            var f = Finishing()
            f.blurSigma = sigma
            let (plain, blurred) = try finished(f, size: 240)
            try DecodedImage(pixels: plain, plan: ThumbnailPlan(size: plain.size)).write(to: dir + "/in.png")
            let vips = try await ChildProcess.run(
                "/usr/bin/vips", ["gaussblur", dir + "/in.png", dir + "/out.png", String(sigma)])
            #expect(vips.status == 0, "\(vips.err)")
            let theirs = try ImageSource(path: dir + "/out.png").image(
                options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
            ).pixels
            let psnr = PixelOps.psnr(blurred, theirs), unblurred = PixelOps.psnr(plain, theirs)
            #expect(psnr >= 38 && psnr > unblurred + 5, "sigma \(sigma): \(psnr) dB (unblurred \(unblurred) dB)")
        }
    }

    @Test func sharpenRaisesEdgesAndLeavesFlatAreas() throws {
        var f = Finishing()
        f.sharpenSigma = 1
        let (plain, sharp) = try finished(f)
        func contrast(_ p: PixelBuffer) -> Int {
            var sum = 0
            for i in 3..<p.bytes.count { sum += abs(Int(p.bytes[i]) - Int(p.bytes[i - 3])) }
            return sum
        }
        #expect(sharp.size == plain.size && contrast(sharp) > contrast(plain) * 11 / 10)
        // The yellow block's inside (flat) is unchanged.
        #expect(sharp.pixel(x: 10, y: 10) == plain.pixel(x: 10, y: 10))
    }

    @Test func pixelationIsTheMeanOfEachBlock() throws {
        var f = Finishing()
        f.pixelateSize = 16
        let (plain, blocks) = try finished(f)
        let w = plain.size.width, h = plain.size.height
        for (bx, by) in [(0, 0), (16, 32), (112, 64), (w - w % 16, h - h % 16)] where bx < w && by < h {
            let xs = bx..<min(w, bx + 16), ys = by..<min(h, by + 16)
            for c in 0..<3 {
                var sum = 0
                for y in ys { for x in xs { sum += Int(plain.bytes[(y * w + x) * 3 + c]) } }
                let mean = (sum + xs.count * ys.count / 2) / (xs.count * ys.count)
                for y in ys { for x in xs { #expect(Int(blocks.bytes[(y * w + x) * 3 + c]) == mean) } }
            }
        }
    }

    @Test func canvasesAndPaddingPlaceTheImageAndFillTheRest() throws {
        var f = Finishing()
        f.extend = CanvasExtension(
            size: PixelSize(width: 200, height: 100), gravity: Gravity.northWest.offset(x: 10, y: 5))
        f.padding = EdgeInsets(top: 1, right: 2, bottom: 3, left: 4)
        let (plain, canvas) = try finished(f) // 120×80
        #expect(canvas.size == PixelSize(width: 206, height: 104) && canvas.format == .rgba8)
        for (x, y) in [(0, 0), (3, 50), (13, 5), (205, 103), (134, 85)] {
            #expect(canvas.pixel(x: x, y: y)[(y * 206 + x) * 4 + 3] == 0, "(\(x), \(y)) is transparent")
        }
        for (x, y) in [(0, 0), (119, 0), (50, 40), (119, 79)] {
            let at = ((y + 6) * 206 + x + 14) * 4, from = (y * 120 + x) * 3
            #expect(Array(canvas.bytes[at..<at + 4]) == Array(plain.bytes[from..<from + 3]) + [255], "(\(x), \(y))")
        }
        // With a background: opaque RGB, the added space that colour; the aspect-ratio canvas centres the image.
        var g = Finishing()
        g.extendToAspectRatio = CanvasExtension(size: PixelSize(width: 1, height: 1))
        g.background = RGBColor(red: 1, green: 2, blue: 3)
        let square = try finished(g).finished
        #expect(square.size == PixelSize(width: 120, height: 120) && square.format == .rgb8)
        #expect(Array(square.pixel(x: 60, y: 19)) == [1, 2, 3] && Array(square.pixel(x: 60, y: 100)) == [1, 2, 3])
        #expect(square.pixel(x: 0, y: 20) == plain.pixel(x: 0, y: 0))
        // A background alone leaves an opaque image as it is.
        var h = Finishing()
        h.background = RGBColor(red: 1, green: 2, blue: 3)
        let (p, same) = try finished(h, format: .yuv420)
        #expect(same.format == .yuv420 && same.bytes == p.bytes)
    }

    @Test func watermarksAreLaidOverPlacedTiledScaledAndBlended() throws {
        // A 20×10 opaque red mark.
        let red = PixelBuffer(
            format: .rgba8, size: PixelSize(width: 20, height: 10),
            bytes: Array(repeating: [255, 0, 0, 255], count: 200).flatMap { $0 })
        let mark = try ImageSource(bytes: try PNGEncoder().encode(red), name: "mark.png")
        var f = Finishing()
        f.watermark = Watermark(source: mark, identity: "red", gravity: .southEast)
        let (plain, marked) = try finished(f) // 120×80, rgb8
        #expect(marked.size == plain.size && marked.format == .rgb8)
        #expect(
            Array(marked.pixel(x: 119, y: 79)) == [255, 0, 0] && Array(marked.pixel(x: 100, y: 70)) == [255, 0, 0])
        #expect(
            marked.pixel(x: 99, y: 69) == plain.pixel(x: 99, y: 69)
                && marked.pixel(x: 0, y: 0) == plain.pixel(x: 0, y: 0))
        // Half opacity: halfway between the image and red.
        f.watermark?.opacity = 0.5
        let half = try finished(f).finished
        let p = plain.pixel(x: 110, y: 75), h = half.pixel(x: 110, y: 75)
        #expect(abs(Int(h[h.startIndex]) - (Int(p[p.startIndex]) + 255) / 2) <= 1)
        // Tiled with 10-pixel gaps: marks at x 0, 30, 60, 90 on rows 0, 20, 40, 60; the gaps untouched.
        f.watermark = Watermark(
            source: mark, identity: "red", gravity: Gravity.centre.offset(x: 10, y: 10), tiled: true)
        let tiled = try finished(f).finished
        for (x, y) in [(0, 0), (30, 20), (95, 65)] {
            #expect(Array(tiled.pixel(x: x, y: y)) == [255, 0, 0], "(\(x), \(y))")
        }
        for (x, y) in [(25, 5), (5, 15)] { #expect(tiled.pixel(x: x, y: y) == plain.pixel(x: x, y: y), "(\(x), \(y))") }
        // Scaled: fitted inside half the result (60×40 → 60×30), centred.
        f.watermark = Watermark(source: mark, identity: "red", scale: 0.5)
        let scaled = try finished(f).finished
        #expect(Array(scaled.pixel(x: 31, y: 26)) == [255, 0, 0] && Array(scaled.pixel(x: 88, y: 53)) == [255, 0, 0])
        #expect(scaled.pixel(x: 28, y: 40) == plain.pixel(x: 28, y: 40))
        // Priced and keyed.
        var o = ThumbnailOptions()
        let plan = try source.plan(.maxPixelSize(120))
        let bare = source.predictedPeakBytes(for: plan, options: o)
        o.finishing.watermark = Watermark(source: mark, identity: "red", scale: 1)
        #expect(source.predictedPeakBytes(for: plan, options: o) >= bare + 120 * 80 * 4)
        #expect(o.finishing.keyValue.contains("red"))
    }

    @Test func finishingIsPricedKeyedAndValidated() throws {
        var o = ThumbnailOptions()
        let plan = try source.plan(.maxPixelSize(120))
        let bare = source.predictedPeakBytes(for: plan, options: o)
        o.finishing.extend = CanvasExtension(size: PixelSize(width: 2000, height: 2000))
        #expect(source.predictedPeakBytes(for: plan, options: o) >= 2000 * 2000 * 4 + 120 * 80 * 4)
        #expect(source.predictedPeakBytes(for: plan, options: o) > bare)
        let bytes = try TestImages.jpeg(pattern)
        let keyed = try ImageRequest(
            loader: BytesLoader(bytes: ImageBytes(bytes, name: "x.jpg"), name: "x.jpg"), options: o
        ).cacheKey()
        #expect(
            keyed
                != (try ImageRequest(loader: BytesLoader(bytes: ImageBytes(bytes, name: "x.jpg"), name: "x.jpg"))
                    .cacheKey()))
        o.finishing.blurSigma = .infinity
        #expect(throws: ImageError.self) { try source.thumbnail(maxPixelSize: 120, options: o) }
        o.finishing = Finishing()
        o.finishing.padding.left = -1
        #expect(throws: ImageError.self) { try source.thumbnail(maxPixelSize: 120, options: o) }
    }
}
