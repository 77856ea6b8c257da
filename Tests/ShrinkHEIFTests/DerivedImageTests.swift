import Testing
import ShrinkCore
import ShrinkHEIF
import Shrink
import ShrinkTestSupport

/// Derived images (`iden`, `iovl`), which the tile path does not decode, go through libheif with the decoder
/// named (libde265 or dav1d, never aom), upright, and are limited from their boxes before libheif decodes.
/// The files are written here (``TestHEIF``) around coded items of corpus files: no corpus file has one.
@Suite(.needsCorpus) struct DerivedImageTests {
    /// The primary coded item of a corpus file.
    static func codedItem(_ file: String) throws -> TestHEIF.CodedItem {
        try TestHEIF.codedItem(
            of: try #require(Corpus.readBytes(Corpus.path(file)), "the corpus file \(file)"), name: file)
    }

    static let rgb8 = ThumbnailOptions(pixelFormat: .exactly(.rgb8))

    /// The code of the ImageError `body` throws, nil when it throws none.
    static func code(_ body: () throws -> Void) -> ImageError.Code? {
        do { try body() } catch let error as ImageError { return error.code } catch { return nil }
        return nil
    }

    /// An `iden` of a HEIC's item that turns it a quarter anticlockwise, carrying the rainbow HEIC's ICC profile.
    static func rotatedIden() throws -> [UInt8] {
        let icc = try #require(
            try ImageSource(path: Corpus.path("heic/libheif/rainbow-451x461.heic")).decoder.metadata().iccProfile)
        return TestHEIF.identity(
            of: try codedItem("heic/exif-samples/samplefilehub.heif"), majorBrand: "heic", quarterTurns: 1, icc: icc)
    }

    @Test func idenIsDecodedByLibheifWithLibde265Upright() throws {
        let source = try ImageSource(bytes: try Self.rotatedIden(), name: "iden.heic")
        #expect(source.info.format == .heif && source.info.size == PixelSize(width: 426, height: 640))
        #expect(source.info.orientation == .up && source.info.displayedSize == PixelSize(width: 426, height: 640))
        let decoded = try source.image(options: Self.rgb8)
        #expect(
            decoded.decodePath == .libheifWhole && decoded.decoder?.hasSuffix("(libde265)") == true,
            "\(decoded.decoder ?? "nil")")
        // The same picture as the tile path's decode of the coded item, turned once.
        let original = try ImageSource(path: Corpus.path("heic/exif-samples/samplefilehub.heif")).image(
            options: Self.rgb8)
        let turned = PixelOps.rotateCounterClockwise(original.pixels)
        #expect(turned.size == decoded.pixels.size)
        if turned.size == decoded.pixels.size { #expect(PixelOps.psnr(turned, decoded.pixels) > 40) }
        let thumb = try source.thumbnail(maxPixelSize: 200)
        #expect(thumb.size == PixelSize(width: 133, height: 200), "\(thumb.size)")
        // The derived item's ICC profile is kept.
        #expect(try source.decoder.metadata().iccProfile?.count == 672 && source.info.iccProfileBytes == 672)
    }

    @Test func overlayIsDecodedByLibheifWithDav1dOnItsCanvas() throws {
        let tile = try Self.codedItem("avif/libavif/kodim03_yuv420_8bpc.avif")
        let (w, h) = (tile.size.width, tile.size.height)
        let bytes = TestHEIF.overlay(twice: tile, majorBrand: "avif", gap: 16, fill: [65535, 0, 0, 65535])
        let source = try ImageSource(bytes: bytes, name: "overlay.avif")
        #expect(source.info.format == .avif && source.info.size == PixelSize(width: 2 * w + 16, height: h + 8))
        let decoded = try source.image(options: Self.rgb8)
        #expect(decoded.decoder?.hasSuffix("(dav1d)") == true, "\(decoded.decoder ?? "nil")")
        let p = decoded.pixels
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { (0..<3).map { p.bytes[(y * p.size.width + x) * 3 + $0] } }
        // The canvas shows its fill between the images and above the second one.
        #expect(
            pixel(w + 8, h / 2) == [255, 0, 0] && pixel(w + 16 + w / 2, 3) == [255, 0, 0]
                && pixel(w / 2, h + 4) == [255, 0, 0])
        // Both images are the AVIF's own picture, where the overlay puts them.
        let original = try ImageSource(path: Corpus.path("avif/libavif/kodim03_yuv420_8bpc.avif")).image(
            options: Self.rgb8
        ).pixels
        for (x0, y0) in [(0, 0), (w + 16, 8)] {
            var part = [UInt8]()
            for y in 0..<h {
                let start: Int = ((y0 + y) * p.size.width + x0) * 3
                part += p.bytes[start..<start + w * 3]
            }
            #expect(
                PixelOps.psnr(PixelBuffer(format: .rgb8, size: tile.size, bytes: part), original) > 40, "at \(x0),\(y0)"
            )
        }
        // Limits from the boxes, before libheif decodes: an item above the limit, then the canvas.
        #expect(
            Self.code {
                _ = try ImageSource(bytes: bytes, name: "overlay.avif", limits: ImageLimits(maxPixels: w * h - 1))
            } == .limitExceeded)
        #expect(
            Self.code { _ = try ImageSource(bytes: bytes, name: "overlay.avif", limits: ImageLimits(maxPixels: w * h)) }
                == .limitExceeded)
    }

    @Test func derivedImagesOfNothingAreTypedErrors() throws {
        let tile = try Self.codedItem("heic/exif-samples/samplefilehub.heif")
        // An iden that derives from no item, and one whose item is not declared.
        for derivedFrom in [[], [7]] {
            var file = TestHEIF(majorBrand: "heic", primary: 2)
            file.properties = [tile.config, TestHEIF.ispe(tile.size.width, tile.size.height)]
            file.items = [
                TestHEIF.Item(type: tile.type, properties: [(1, true), (2, false)], data: tile.data),
                TestHEIF.Item(type: "iden", properties: [(2, false)], derivedFrom: derivedFrom),
            ]
            #expect(
                Self.code { _ = try ImageSource(bytes: file.bytes(), name: "iden.heic").image() } == .corruptData,
                "dimg \(derivedFrom)")
        }
        // An iden over a JPEG item: not HEVC or AV1.
        var file = TestHEIF(majorBrand: "heic", primary: 2)
        file.properties = [TestHEIF.ispe(8, 8)]
        file.items = [
            TestHEIF.Item(type: "jpeg", properties: [(1, false)], data: [0xFF, 0xD8]),
            TestHEIF.Item(type: "iden", properties: [(1, false)], derivedFrom: [1]),
        ]
        #expect(Self.code { _ = try ImageSource(bytes: file.bytes(), name: "iden.heic") } == .unsupportedFeature)
    }
}

/// Rotation, mirror and crop not marked essential (the format requires them to be): a HEVC image has them applied
/// with a warning; an AVIF is refused, as libavif refuses it.
@Suite(.needsCorpus) struct NonEssentialTransformTests {
    /// A file of one coded item whose `irot` (a quarter turn anticlockwise) is not marked essential.
    static func file(_ corpusFile: String, brand: String) throws -> [UInt8] {
        let item = try DerivedImageTests.codedItem(corpusFile)
        var file = TestHEIF(majorBrand: brand, primary: 1)
        file.properties = [item.config, TestHEIF.ispe(item.size.width, item.size.height), TestHEIF.irot(1)]
        file.items = [TestHEIF.Item(type: item.type, properties: [(1, true), (2, false), (3, false)], data: item.data)]
        return file.bytes()
    }

    @Test func aHEVCImageIsTurnedWithAWarning() throws {
        let source = try ImageSource(
            bytes: try Self.file("heic/exif-samples/samplefilehub.heif", brand: "heic"), name: "t.heic")
        #expect(source.info.size == PixelSize(width: 640, height: 426))
        #expect(source.info.orientation == .left && source.info.displayedSize == PixelSize(width: 426, height: 640))
        #expect(source.info.warnings.contains { $0.contains("not marked essential") })
        let turned = try source.image(options: DerivedImageTests.rgb8)
        #expect(turned.size == PixelSize(width: 426, height: 640))
    }

    @Test func anAVIFIsRefused() throws {
        let bytes = try Self.file("avif/libavif/kodim03_yuv420_8bpc.avif", brand: "avif")
        do {
            _ = try ImageSource(bytes: bytes, name: "t.avif")
            Issue.record("an AVIF with a non-essential irot opened")
        } catch {
            #expect(error.code == .corruptData && error.message.contains("not marked essential"))
        }
    }
}
