import Testing
import Shrink
import ShrinkTestSupport

/// Regions are given in displayed pixels; every orientation maps them to the right stored pixels.
@Suite struct RegionDecodeTests {
    static let stored = TestImages.pattern(width: 96, height: 64)

    /// The reference: the displayed image (Pillow-style transpose), cropped.
    func reference(orientation n: Int, _ r: (x: Int, y: Int, w: Int, h: Int)) -> PixelBuffer {
        let shown = PixelOps.exifTranspose(Self.stored, orientation: n)
        var out: [UInt8] = []
        for y in r.y..<(r.y + r.h) {
            out += shown.bytes[(y * shown.size.width + r.x) * 3..<(y * shown.size.width + r.x + r.w) * 3]
        }
        return PixelBuffer(format: .rgb8, size: PixelSize(width: r.w, height: r.h), bytes: out)
    }

    @Test(arguments: 1...8)
    func regionsMatchTheDisplayedImage(_ n: Int) throws {
        let source = try ImageSource(
            bytes: try TestImages.jpeg(Self.stored, quality: 98, orientation: n), name: "o\(n).jpg")
        let shown = source.info.displayedSize
        let regions = [
            (0, 0, 20, 12), (shown.width - 17, 0, 17, 9), (0, shown.height - 10, 30, 10),
            (shown.width - 25, shown.height - 25, 25, 25), (shown.width / 2 - 8, shown.height / 2 - 5, 16, 10),
        ]
        for (x, y, w, h) in regions {
            let rect = PixelRect(x: x, y: y, width: w, height: h)
            let image = try source.image(region: rect, options: .init(pixelFormat: .exactly(.rgb8)))
            #expect(image.size == PixelSize(width: w, height: h))
            #expect(
                PixelOps.psnr(image.pixels, reference(orientation: n, (x, y, w, h))) > 33,
                "orientation \(n) at \(x),\(y)")
        }
    }

    @Test func regionThumbnailsEqualThumbnailsOfTheCroppedImage() throws {
        let big = TestImages.pattern(width: 640, height: 480)
        let source = try ImageSource(bytes: try TestImages.jpeg(big, quality: 95, orientation: 6))
        let rect = PixelRect(x: 100, y: 200, width: 300, height: 240)
        let thumb = try source.image(.maxPixelSize(60), region: rect, options: .init(pixelFormat: .exactly(.rgb8)))
        #expect(thumb.size == PixelSize(width: 60, height: 48))
        let cropped = try source.image(region: rect, options: .init(pixelFormat: .exactly(.rgb8)))
        let viaPNG = try ImageSource(bytes: try PNGEncoder().encode(cropped.pixels))
            .thumbnail(maxPixelSize: 60, options: .init(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(thumb.pixels, viaPNG.pixels) > 30)
    }

    @Test func regionsOutsideTheImageAreRefused() throws {
        // shown 64×96
        let source = try ImageSource(bytes: try TestImages.jpeg(Self.stored, orientation: 6), name: "r.jpg")
        for rect in [
            PixelRect(x: 0, y: 0, width: 65, height: 10), PixelRect(x: 60, y: 90, width: 10, height: 10),
            PixelRect(x: -1, y: 0, width: 5, height: 5), PixelRect(x: 0, y: 0, width: 0, height: 5),
        ] {
            do {
                _ = try source.image(region: rect)
                Issue.record("\(rect) accepted")
            } catch {
                #expect(error.code == .invalidArgument && error.description.contains("outside"))
            }
        }
    }

    @Test func pngRegionsStopDecodingAfterTheLastRow() throws {
        let png = try PNGEncoder().encode(Self.stored)
        let source = try ImageSource(bytes: png)
        let image = try source.image(
            region: PixelRect(x: 10, y: 5, width: 30, height: 20), options: .init(pixelFormat: .exactly(.rgb8)))
        #expect(image.pixels.bytes == reference(orientation: 1, (10, 5, 30, 20)).bytes)
    }
}

@Suite struct LosslessCropTests {
    @Test(arguments: [1, 3, 6, 8])
    func losslessCropsShowTheRegionWidenedToBlocks(_ n: Int) throws {
        let big = TestImages.pattern(width: 200, height: 120)
        let source = try ImageSource(bytes: try TestImages.jpeg(big, quality: 95, chroma444: false, orientation: n))
        let asked = PixelRect(x: 37, y: 21, width: 50, height: 40)
        let (bytes, kept) = try source.losslessCrop(asked)
        // The kept region contains the asked one and is at most one 16-pixel iMCU larger on each side.
        #expect(
            kept.x <= asked.x && kept.y <= asked.y && kept.x + kept.width >= asked.x + asked.width
                && kept.y + kept.height >= asked.y + asked.height)
        #expect(kept.width - asked.width < 32 && kept.height - asked.height < 32)
        let cropped = try ImageSource(bytes: bytes)
        #expect(cropped.info.orientation.rawValue == n) // orientation kept: it displays right
        #expect(cropped.info.displayedSize == kept.size)
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let viaDecode = try source.image(region: kept, options: rgb)
        #expect(PixelOps.psnr(try cropped.image(options: rgb).pixels, viaDecode.pixels) > 40, "orientation \(n)")
    }
}
