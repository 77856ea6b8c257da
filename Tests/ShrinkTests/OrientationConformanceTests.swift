import Testing
import Shrink
import ShrinkTestSupport

/// Orientation 1–8 on every path (full decode, thumbnail, box), against an independent reference.
@Suite struct OrientationConformanceTests {
    static let stored = TestImages.pattern(width: 96, height: 64)

    @Test(arguments: 1...8)
    func fullDecodeMatchesPillowsTranspose(_ n: Int) throws {
        let source = try ImageSource(
            bytes: try TestImages.jpeg(Self.stored, quality: 98, orientation: n), name: "o\(n).jpg")
        #expect(source.info.orientation.rawValue == n)
        let image = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        let reference = PixelOps.exifTranspose(Self.stored, orientation: n)
        #expect(image.size == reference.size)
        #expect(PixelOps.psnr(image.pixels, reference) > 35, "orientation \(n)")
    }

    @Test(arguments: 1...8)
    func thumbnailIsOrientedOnce(_ n: Int) throws {
        let big = TestImages.pattern(width: 480, height: 320)
        let source = try ImageSource(bytes: try TestImages.jpeg(big, quality: 95, orientation: n), name: "o\(n).jpg")
        let thumb = try source.thumbnail(maxPixelSize: 60)
        let upright = try ImageSource(
            bytes: try TestImages.jpeg(PixelOps.exifTranspose(big, orientation: n), quality: 95),
            name: "upright.jpg"
        ).thumbnail(maxPixelSize: 60)
        #expect(thumb.size == upright.size)
        #expect(PixelOps.psnr(thumb.pixels, upright.pixels) > 35, "orientation \(n)")
        let cover = try source.thumbnail(size: PixelSize(width: 30, height: 50), fit: .cover)
        let uprightCover = try ImageSource(
            bytes: try TestImages.jpeg(PixelOps.exifTranspose(big, orientation: n), quality: 95),
            name: "upright.jpg"
        ).thumbnail(size: PixelSize(width: 30, height: 50), fit: .cover)
        #expect(cover.size == PixelSize(width: 30, height: 50))
        #expect(PixelOps.psnr(cover.pixels, uprightCover.pixels) > 33, "cover, orientation \(n)")
    }

    @Test(.needsCorpus, arguments: ["Landscape", "Portrait"])
    func corpusPhotosAllDisplayTheSame(_ kind: String) throws {
        let upright = try ImageSource(path: Corpus.path("orientation/recurser/\(kind)_1.jpg")).thumbnail(
            maxPixelSize: 150)
        for n in 0...8 {
            let source = try ImageSource(path: Corpus.path("orientation/recurser/\(kind)_\(n).jpg"))
            #expect(source.info.orientation.rawValue == max(n, 1))
            let image = try source.thumbnail(maxPixelSize: 150)
            #expect(image.size == upright.size, "\(kind)_\(n)")
            if image.size == upright.size {
                #expect(PixelOps.psnr(image.pixels, upright.pixels) > 28, "\(kind)_\(n)")
            }
        }
    }
}
