import Testing
import Shrink
import ShrinkTestSupport

@Suite struct ThumbnailSizeTests {
    static let source: ImageSource = {
        let bytes = try! TestImages.jpeg(TestImages.pattern(width: 640, height: 427), chroma444: false)
        return try! ImageSource(bytes: bytes, name: "pattern.jpg")
    }()

    func expectNoBlackEdges(_ image: DecodedImage, _ label: String) {
        let p = image.pixels
        #expect(PixelOps.minimum(ofRow: 0, in: p) >= 20, "\(label): top row")
        #expect(PixelOps.minimum(ofRow: p.size.height - 1, in: p) >= 20, "\(label): bottom row")
        #expect(PixelOps.minimum(ofColumn: 0, in: p) >= 20, "\(label): left column")
        #expect(PixelOps.minimum(ofColumn: p.size.width - 1, in: p) >= 20, "\(label): right column")
    }

    @Test(arguments: [1, 2, 3, 7, 16, 50, 79, 80, 81, 100, 159, 160, 161, 213, 320, 399, 400, 639, 640, 1000])
    func maxPixelSizeGivesExactSizes(_ n: Int) throws {
        let image = try Self.source.thumbnail(maxPixelSize: n)
        let long = min(n, 640)
        let short = max(1, Int((427.0 * Double(long) / 640).rounded()))
        #expect(image.size == PixelSize(width: long, height: short), "n=\(n)")
        // Opaque colour is held as yuv420 by default: w·h + 2·⌈w/2⌉·⌈h/2⌉ bytes.
        #expect(image.pixels.format == .yuv420)
        #expect(image.pixels.byteCount == long * short + 2 * ((long + 1) / 2) * ((short + 1) / 2))
        if long >= 3 && short >= 3 { expectNoBlackEdges(image, "n=\(n)") }
    }

    @Test(arguments: [
        PixelSize(width: 100, height: 100), PixelSize(width: 300, height: 50), PixelSize(width: 33, height: 200),
        PixelSize(width: 1, height: 1), PixelSize(width: 640, height: 427), PixelSize(width: 17, height: 3),
    ])
    func boxesGiveExactSizes(_ box: PixelSize) throws {
        let inside = try Self.source.thumbnail(size: box, fit: .inside)
        #expect(inside.size.width <= box.width && inside.size.height <= box.height)
        // 640x427 scaled by the tighter side's ratio, the other side rounded (e.g. 427·100/640 = 66.7 → 67,
        // 640·3/427 = 4.5 → 4); a box the image already fits is not upscaled.
        let exact: [PixelSize: PixelSize] = [
            PixelSize(width: 100, height: 100): PixelSize(width: 100, height: 67),
            PixelSize(width: 300, height: 50): PixelSize(width: 75, height: 50),
            PixelSize(width: 33, height: 200): PixelSize(width: 33, height: 22),
            PixelSize(width: 1, height: 1): PixelSize(width: 1, height: 1),
            PixelSize(width: 640, height: 427): PixelSize(width: 640, height: 427),
            PixelSize(width: 17, height: 3): PixelSize(width: 4, height: 3),
        ]
        #expect(inside.size == exact[box], "\(box) inside: \(inside.size)")
        let cover = try Self.source.thumbnail(size: box, fit: .cover)
        #expect(cover.size == box, "\(box) cover: \(cover.size)")
        if box.width >= 3 && box.height >= 3 {
            expectNoBlackEdges(inside, "\(box) inside")
            expectNoBlackEdges(cover, "\(box) cover")
        }
    }

    @Test func coverCropsTheCentre() throws {
        // A tall cover of a landscape image keeps the middle third: the yellow marker in the top-left
        // quarter is cut, so the top-left pixel shows the blue quadrant.
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let full = try Self.source.thumbnail(maxPixelSize: 320, options: rgb)
        let cover = try Self.source.thumbnail(size: PixelSize(width: 100, height: 300), fit: .cover, options: rgb)
        #expect(Array(full.pixels.pixel(x: 2, y: 2))[2] < 100) // yellow: low blue
        #expect(Array(cover.pixels.pixel(x: 2, y: 2))[2] > 100) // the blue quadrant
    }

    @Test func qualityModeLeavesTwiceTheTargetToTheResampler() throws {
        let big = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.pattern(width: 2000, height: 1000)), name: "big.jpg")
        #expect(try big.plan(.maxPixelSize(400)).prescale == 2) // 1000 ≥ 2×400; 500 is not
        #expect(try big.plan(.maxPixelSize(250)).prescale == 4)
        #expect(try big.plan(.maxPixelSize(100)).prescale == 8)
        #expect(try big.plan(.maxPixelSize(400), options: .init(mode: .fast)).prescale == 4) // 500 ≥ 400
        #expect(try big.plan(.original).prescale == 1)
        let fast = try big.thumbnail(maxPixelSize: 400, options: .init(mode: .fast))
        #expect(fast.size == PixelSize(width: 400, height: 200))
    }

    @Test func upscalingIsOptIn() throws {
        let small = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.pattern(width: 40, height: 20)), name: "s.jpg")
        #expect(try small.thumbnail(maxPixelSize: 100).size == PixelSize(width: 40, height: 20))
        #expect(
            try small.thumbnail(maxPixelSize: 100, options: .init(allowUpscaling: true)).size
                == PixelSize(width: 100, height: 50))
        #expect(
            try small.thumbnail(size: PixelSize(width: 80, height: 80), fit: .cover).size
                == PixelSize(width: 20, height: 20))
    }

    @Test func grayStaysGray() throws {
        let gray = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.grayRamp(width: 300, height: 200)), name: "g.jpg")
        let t = try gray.thumbnail(maxPixelSize: 60)
        #expect(t.pixels.format == .gray8)
        #expect(t.pixels.byteCount == 60 * 40)
    }

    @Test func emptyTargetsAreInvalid() {
        for target in [ThumbnailTarget.maxPixelSize(0), .box(PixelSize(width: 0, height: 5), fit: .inside)] {
            do {
                _ = try Self.source.image(target)
                Issue.record("\(target) must fail")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
    }
}
