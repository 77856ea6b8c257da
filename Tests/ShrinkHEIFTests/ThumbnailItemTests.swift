import Shrink
import ShrinkCore
import ShrinkTestSupport
import Testing

@testable import ShrinkHEIF

/// A `thmb` item stands in for the primary image only when it shows what the primary shows: a thumbnail of
/// another shape (another picture, or the primary's uncropped frame) is listed but never decoded in its place, so
/// the primary's picture is what every thumbnail shows, as libheif and libvips show it.
@Suite struct ThumbnailItemTests {
    /// Embedded thumbnails allowed (``ThumbnailOptions/useEmbeddedThumbnail``), RGB out.
    static let embedded = ThumbnailOptions(pixelFormat: .exactly(.rgb8), useEmbeddedThumbnail: true)

    /// A coded AV1 item of `width × height` pixels, written by Shrink's AVIF encoder.
    static func item(_ width: Int, _ height: Int) throws -> TestHEIF.CodedItem {
        let planes = PixelConverter.convert(TestImages.pattern(width: width, height: height), to: .yuv420)
        return try TestHEIF.codedItem(of: try AVIFEncoder().encode(planes), name: "\(width)x\(height).avif")
    }

    /// An AVIF whose primary (item 1) is `primary` and whose item 2, when given, is `thumbnail`, a `thmb` of item 1.
    static func file(primary: TestHEIF.CodedItem, thumbnail: TestHEIF.CodedItem?) -> [UInt8] {
        var file = TestHEIF(majorBrand: "avif", primary: 1)
        file.properties = [primary.config, TestHEIF.ispe(primary.size.width, primary.size.height)]
        file.items = [TestHEIF.Item(type: primary.type, properties: [(1, true), (2, false)], data: primary.data)]
        if let thumbnail {
            file.properties += [thumbnail.config, TestHEIF.ispe(thumbnail.size.width, thumbnail.size.height)]
            file.items.append(
                TestHEIF.Item(
                    type: thumbnail.type, properties: [(3, true), (4, false)], thumbnailOf: [1], data: thumbnail.data))
        }
        return file.bytes()
    }

    @Test func aThumbnailOfThePrimarysShapeStandsIn() throws {
        let source = try ImageSource(
            bytes: Self.file(primary: try Self.item(300, 200), thumbnail: try Self.item(97, 64)), name: "t.avif")
        #expect(source.info.size == PixelSize(width: 300, height: 200))
        #expect(source.info.embeddedThumbnail == PixelSize(width: 97, height: 64))
        let small = try source.thumbnail(maxPixelSize: 60, options: Self.embedded)
        #expect(small.pixels.size == PixelSize(width: 60, height: 40))
    }

    @Test func aThumbnailOfAnotherShapeNeverStandsIn() throws {
        let primary = try Self.item(300, 200)
        let source = try ImageSource(
            bytes: Self.file(primary: primary, thumbnail: try Self.item(96, 96)), name: "t.avif")
        #expect(source.info.size == PixelSize(width: 300, height: 200))
        #expect(source.info.embeddedThumbnail == nil)
        #expect(
            source.info.features.contains("thumbnail 96x96 (not used: it does not match)"), "\(source.info.features)")
        // At a size the square thumbnail would cover, the primary's picture is what comes out, in its shape.
        let small = try source.thumbnail(maxPixelSize: 60, options: Self.embedded)
        #expect(small.pixels.size == PixelSize(width: 60, height: 40))
        let alone = try ImageSource(bytes: Self.file(primary: primary, thumbnail: nil), name: "alone.avif")
        let expected = try alone.thumbnail(maxPixelSize: 60, options: Self.embedded)
        #expect(PixelOps.maxDifference(small.pixels, expected.pixels) == 0)
    }
}
