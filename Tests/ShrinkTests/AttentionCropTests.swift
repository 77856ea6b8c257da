import Shrink
import ShrinkTestSupport
import Testing

/// ``Gravity/attention``: the window follows the content (libvips' attention strategy, checked against libvips itself
/// by scripts/check-smartcrop), it is cut from one cover decode that the plan prices, and caches tell it apart.
@Suite struct AttentionCropTests {
    /// A 600×200 grey image with a detailed, saturated patch at `x`.
    private func source(patchAt x0: Int) throws -> ImageSource {
        let w = 600, h = 200
        var bytes = [UInt8](repeating: 128, count: w * h * 3)
        for y in 60..<140 {
            for x in x0..<(x0 + 80) {
                let on = (x / 4 + y / 4) % 2 == 0
                let i = (y * w + x) * 3
                (bytes[i], bytes[i + 1], bytes[i + 2]) = on ? (230, 30, 40) : (20, 40, 200)
            }
        }
        let pixels = PixelBuffer(format: .rgb8, size: PixelSize(width: w, height: h), bytes: bytes)
        return try ImageSource(bytes: try TestImages.jpeg(pixels), name: "patch.jpg")
    }

    private var attention: ThumbnailOptions {
        var o = ThumbnailOptions()
        o.gravity = .attention
        return o
    }

    @Test func theWindowFollowsTheContent() throws {
        let box = PixelSize(width: 100, height: 100)
        for (patch, side) in [(40, "left"), (480, "right"), (260, "middle")] {
            let image = try source(patchAt: patch).thumbnail(size: box, fit: .cover, options: attention)
            let window = image.plan.window
            #expect(image.size == box, "\(side)")
            #expect(window.x <= patch && window.x + window.width >= patch + 80, "\(side): \(window)")
        }
    }

    @Test func theCutIsTheCoverDecodesWindowAndIsPricedAndKeyed() throws {
        let source = try source(patchAt: 480)
        let box = PixelSize(width: 100, height: 100)
        var rgb = attention
        rgb.pixelFormat = .exactly(.rgb8)
        let cut = try source.thumbnail(size: box, fit: .cover, options: rgb)
        // The same pixels as cutting the window out of the whole image decoded at its cover size (300×100).
        let cover = try source.thumbnail(
            size: PixelSize(width: 300, height: 100), fit: .stretch,
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        let x = cut.plan.window.x / 2 // 600 → 300 pixels across
        var expected = [UInt8]()
        for y in 0..<100 { expected += cover.pixels.bytes[(y * 300 + x) * 3..<(y * 300 + x + 100) * 3] }
        #expect(cut.pixels.bytes == expected)
        // Priced as the cover decode and the cut, above the centred plan's window-only decode.
        let plan = try source.plan(.box(box, fit: .cover), options: attention)
        #expect(source.predictedPeakBytes(for: plan, options: attention) > source.predictedPeakBytes(for: plan))
        #expect(cut.predictedPeakBytes >= 300 * 100 * 3 + 100 * 100 * 3)
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 64, height: 48))
        func key(_ o: ThumbnailOptions) throws -> CacheKey {
            try ImageRequest(
                loader: BytesLoader(bytes: ImageBytes(bytes, name: "k.jpg"), name: "k.jpg"),
                target: .box(box, fit: .cover), options: o
            ).cacheKey()
        }
        #expect(try key(attention) != key(ThumbnailOptions()))
    }

    @Test func boxesThatCutNothingAndFitsInsideIgnoreIt() throws {
        let source = try source(patchAt: 480)
        let inside = try source.thumbnail(size: PixelSize(width: 100, height: 100), fit: .inside, options: attention)
        #expect(inside.size == PixelSize(width: 100, height: 33) && inside.plan.window.width == 600)
        let same = try source.thumbnail(size: PixelSize(width: 300, height: 100), fit: .cover, options: attention)
        #expect(same.plan.window == PixelRect(x: 0, y: 0, width: 600, height: 200))
    }
}
