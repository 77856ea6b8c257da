import Testing
import Shrink
import ShrinkTestSupport

/// The EXIF thumbnail fast path: used in fast mode when big enough and of the same shape, oriented.
@Suite struct EmbeddedThumbnailTests {
    /// An 800×600 pattern whose EXIF carries a solid blue 160×120 thumbnail (so the path taken shows).
    static func photo(orientation: Int = 1, thumbnail: PixelSize = PixelSize(width: 160, height: 120)) throws
        -> ImageSource
    {
        var blue = [UInt8](repeating: 0, count: thumbnail.pixelCount * 3)
        for i in stride(from: 0, to: blue.count, by: 3) { blue[i] = 20; blue[i + 1] = 40; blue[i + 2] = 230 }
        let thumb = try TestImages.jpeg(PixelBuffer(format: .rgb8, size: thumbnail, bytes: blue), quality: 90)
        let bytes = try TestImages.jpeg(
            TestImages.pattern(width: 800, height: 600), orientation: orientation, thumbnail: thumb)
        return try ImageSource(bytes: bytes, name: "exif-thumb")
    }

    static func isBlue(_ image: DecodedImage) -> Bool {
        let rgb = PixelConverter.convert(image.pixels, to: .rgb8)
        let p = Array(rgb.pixel(x: rgb.size.width / 2, y: rgb.size.height / 2))
        return p[2] > 180 && p[0] < 80
    }

    @Test func fastModeUsesTheThumbnailQualityModeDoesNot() throws {
        let source = try Self.photo()
        let fast = try source.thumbnail(maxPixelSize: 100, options: ThumbnailOptions(mode: .fast))
        #expect(fast.decodePath == .embeddedThumbnail)
        #expect(fast.size == PixelSize(width: 100, height: 75))
        #expect(Self.isBlue(fast))
        let quality = try source.thumbnail(maxPixelSize: 100)
        #expect(quality.decodePath != .embeddedThumbnail)
        #expect(!Self.isBlue(quality))
        let forced = try source.thumbnail(maxPixelSize: 100, options: ThumbnailOptions(useEmbeddedThumbnail: true))
        #expect(forced.decodePath == .embeddedThumbnail)
    }

    @Test func orientationStillApplies() throws {
        let source = try Self.photo(orientation: 6)
        let image = try source.thumbnail(maxPixelSize: 100, options: ThumbnailOptions(mode: .fast))
        #expect(image.decodePath == .embeddedThumbnail)
        #expect(image.size == PixelSize(width: 75, height: 100))
        #expect(image.plan.orientation == .right)
    }

    @Test func tooSmallOrOtherShapeFallsBackToTheImage() throws {
        let source = try Self.photo()
        let big = try source.thumbnail(maxPixelSize: 200, options: ThumbnailOptions(mode: .fast))
        #expect(big.decodePath != .embeddedThumbnail)
        #expect(!Self.isBlue(big))
        let squat = try Self.photo(thumbnail: PixelSize(width: 160, height: 100))
        let other = try squat.thumbnail(maxPixelSize: 100, options: ThumbnailOptions(mode: .fast))
        #expect(other.decodePath != .embeddedThumbnail)
    }
}
