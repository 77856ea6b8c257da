import Shrink
import Testing

/// TIFFs written tag by tag, decoded through the registry: strips in order, the orientation tag applied once, a
/// pyramid's levels chosen for thumbnails, samples libtiff's RGBA reader refuses, bombs refused from the tags.
@Suite struct TIFFDecoderTests {
    /// A `width`×`height` RGB page whose pixel (x, y) is (30x, 60y, 7).
    static func gradient(width: Int, height: Int, orientation: Int = 1) -> TIFFFile.Page {
        var data: [UInt8] = []
        for y in 0..<height { for x in 0..<width { data += [UInt8(30 * x), UInt8(60 * y), 7] } }
        return TIFFFile.Page(width: width, height: height, orientation: orientation, data: data)
    }

    static func solid(_ side: Int, _ rgb: [UInt8], reduced: Bool) -> TIFFFile.Page {
        TIFFFile.Page(
            width: side, height: side, reduced: reduced,
            data: Array([[UInt8]](repeating: rgb, count: side * side).joined()))
    }

    static func native(_ bytes: [UInt8]) throws(ImageError) -> DecodedImage {
        try ImageSource(bytes: bytes, name: "t.tif").image(options: ThumbnailOptions(pixelFormat: .native))
    }

    @Test func stripsStreamInOrder() throws {
        let image = try Self.native(TIFFFile.file([Self.gradient(width: 5, height: 4)]))
        #expect(image.pixels.format == .rgb8)
        #expect(image.size == PixelSize(width: 5, height: 4))
        for (x, y) in [(0, 0), (4, 0), (2, 1), (0, 3), (4, 3)] {
            #expect(Array(image.pixels.pixel(x: x, y: y)) == [UInt8(30 * x), UInt8(60 * y), 7])
        }
    }

    @Test func theOrientationTagIsAppliedOnce() throws {
        // Orientation 6: the stored top left shows at the top right; the displayed image is 4×5.
        let image = try Self.native(TIFFFile.file([Self.gradient(width: 5, height: 4, orientation: 6)]))
        #expect(image.size == PixelSize(width: 4, height: 5))
        #expect(Array(image.pixels.pixel(x: 3, y: 0)) == [0, 0, 7])
        #expect(Array(image.pixels.pixel(x: 0, y: 4)) == [120, 180, 7])
    }

    @Test func aPageIsReadByItsIndex() async throws {
        // Two pages of different sizes and colours: page 1 on request, page 2 refused, a JPEG has one page.
        let bytes = TIFFFile.file([
            Self.solid(8, [255, 0, 0], reduced: false), Self.gradient(width: 5, height: 4),
        ])
        let source = try ImageSource(bytes: bytes, name: "pages.tif")
        #expect(source.pageCount == 2)
        let second = try source.page(1)
        #expect(second.info.size == PixelSize(width: 5, height: 4))
        let image = try second.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(Array(image.pixels.pixel(x: 4, y: 3)) == [120, 180, 7])
        #expect(try source.page(0).info.size == PixelSize(width: 8, height: 8))
        do {
            _ = try source.page(2)
            Issue.record("page 2 of 2 opened")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("pages.tif"))
        }
        // The pipeline reads the page a request names.
        var request = ImageRequest(loader: BytesLoader(bytes: ImageBytes(bytes), name: "pages.tif"))
        request.page = 1
        let piped = try await ImagePipeline().image(for: request)
        #expect(piped.image.size == PixelSize(width: 5, height: 4))
    }

    @Test func aThumbnailDecodesThePyramidLevelThatCoversIt() throws {
        let bytes = TIFFFile.file([
            Self.solid(8, [255, 0, 0], reduced: false), Self.solid(4, [0, 255, 0], reduced: true),
            Self.solid(2, [0, 0, 255], reduced: true),
        ])
        let source = try ImageSource(bytes: bytes, name: "pyramid.tif")
        #expect(source.info.size == PixelSize(width: 8, height: 8))
        let options = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let four = try source.thumbnail(maxPixelSize: 4, options: options)
        #expect(four.plan.decodedSize == PixelSize(width: 4, height: 4))
        #expect(Array(four.pixels.pixel(x: 1, y: 1)) == [0, 255, 0])
        let two = try source.thumbnail(maxPixelSize: 2, options: options)
        #expect(Array(two.pixels.pixel(x: 1, y: 1)) == [0, 0, 255])
        let full = try source.image(options: options)
        #expect(Array(full.pixels.pixel(x: 5, y: 5)) == [255, 0, 0])
    }

    @Test func aReducedDecodeIsTheBoxMeansOfTheSamples() throws {
        // 8×4 at 1/4: each pixel the mean of a 4×4 block.
        let source = try ImageSource(bytes: TIFFFile.file([Self.gradient(width: 8, height: 4)]), name: "box.tif")
        let image = try source.image(.prescale(4), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(image.plan.prescale == 4)
        #expect(image.size == PixelSize(width: 2, height: 1))
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [45, 90, 7])
        #expect(Array(image.pixels.pixel(x: 1, y: 0)) == [165, 90, 7])
    }

    @Test func floatSamplesAreReadAsZeroToOne() throws {
        // 32-bit float gray (libtiff's RGBA reader refuses it): 0.5 → 128, 2.0 → 255, -1 → 0.
        let values: [Float] = [0.5, 2.0, -1]
        let data: [UInt8] = values.withUnsafeBytes { Array($0) }
        let page = TIFFFile.Page(
            width: 3, height: 1, samplesPerPixel: 1, bits: 32, photometric: 1, sampleFormat: 3, data: data)
        let image = try Self.native(TIFFFile.file([page]))
        #expect(image.pixels.format == .gray8)
        #expect([0, 1, 2].map { Array(image.pixels.pixel(x: $0, y: 0)) } == [[128], [255], [0]])
    }

    @Test func aBombIsRefusedFromItsTags() throws {
        // A one-pixel file whose width and height entries are rewritten to 100000: over the pixel limit from the tags.
        var bytes = TIFFFile.file([TIFFFile.Page(width: 1, height: 1, data: [1, 2, 3])])
        for tag in [256, 257] {
            let at = try #require(Self.entry(tag, in: bytes))
            bytes.replaceSubrange((at + 8)..<(at + 12), with: TIFFFile.le32(100_000))
        }
        do {
            _ = try ImageSource(bytes: bytes, name: "bomb.tif")
            Issue.record("a 10^10-pixel TIFF opened")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    /// Where the IFD entry of `tag` starts in the first directory.
    static func entry(_ tag: Int, in bytes: [UInt8]) -> Int? {
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        return (0..<count).map { ifd + 2 + 12 * $0 }.first { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 == tag }
    }
}
