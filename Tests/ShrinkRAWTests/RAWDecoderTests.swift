import Shrink
import ShrinkTestSupport
import Testing

/// Camera RAW files laid out as their cameras lay them out (TIFF directories, SubIFDs, maker notes, a RAF header)
/// around JPEGs Shrink writes, opened through the registry: the largest preview is the image, a thumbnail decodes the
/// cheapest preview that covers it, the RAW's orientation is applied, sensor data is never taken for a preview, and
/// loops, bombs and files without a preview end in typed errors.
@Suite struct RAWDecoderTests {
    /// A `width`×`height` JPEG of one colour.
    static func solid(_ width: Int, _ height: Int, _ rgb: [UInt8]) throws -> [UInt8] {
        let pixels = PixelBuffer(
            format: .rgb8, size: PixelSize(width: width, height: height),
            bytes: Array((0..<width * height).map { _ in rgb }.joined()))
        return try TestImages.jpeg(pixels)
    }

    @Test func theLargestPreviewIsTheImageAndTheRAWsOrientationIsApplied() throws {
        let preview = try TestImages.jpeg(TestImages.pattern(width: 600, height: 400), orientation: 3)
        let bytes = TestRAW.nef(preview: preview, small: try Self.solid(150, 100, [20, 40, 200]), orientation: 6)
        let source = try ImageSource(bytes: bytes, name: "t.nef")
        #expect(source.info.format.name == "raw")
        #expect(source.info.size == PixelSize(width: 600, height: 400))
        #expect(source.info.orientation == .right) // the NEF's 6, not the preview's own 3
        #expect(source.info.displayedSize == PixelSize(width: 400, height: 600))
        let features = source.info.features
        #expect(features.prefix(3) == ["Nikon NEF", "NIKON CORPORATION NIKON TEST", "sensor 1200x800"])
        #expect(features.contains { $0.hasPrefix("preview 600x400 JPEG in SubIFD 0 of IFD0, \(preview.count) bytes") })
        #expect(features.contains { $0.hasPrefix("preview 150x100 JPEG in Nikon maker note's preview") })
        #expect(source.info.layout == "Nikon NEF, shown through its 600x400 preview (of 2)")

        // The whole image is the preview's pixels, turned as the NEF says.
        let image = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        let direct = try ImageSource(bytes: preview, name: "p.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(image.size == PixelSize(width: 400, height: 600))
        #expect(direct.size == PixelSize(width: 600, height: 400))
    }

    @Test func aSmallThumbnailDecodesTheSmallPreview() throws {
        // The two previews differ in colour, so the pixels say which one was decoded.
        let bytes = TestRAW.nef(
            preview: try Self.solid(600, 400, [200, 30, 30]), small: try Self.solid(150, 100, [20, 40, 200]))
        let source = try ImageSource(bytes: bytes, name: "t.nef")
        let small = try source.image(.maxPixelSize(60), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(small.size == PixelSize(width: 60, height: 40))
        #expect(small.plan.decodedSize == PixelSize(width: 150, height: 100))
        #expect(Array(small.pixels.bytes.prefix(3)).map(Int.init).elementsEqual([20, 40, 200]) { abs($0 - $1) <= 3 })
        let large = try source.image(.maxPixelSize(250), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(large.size == PixelSize(width: 250, height: 167))
        #expect(large.plan.decodedSize == PixelSize(width: 600, height: 400))
        #expect(Array(large.pixels.bytes.prefix(3)).map(Int.init).elementsEqual([200, 30, 30]) { abs($0 - $1) <= 3 })
        // Between them, the large preview's DCT scaling: 1/2 is 300x200, which covers 140 with room to spare.
        let middle = try source.image(.maxPixelSize(140), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(middle.plan.decodedSize == PixelSize(width: 300, height: 200))
    }

    /// A DNG: IFD0 an uncompressed RGB thumbnail with the DNG version tag, SubIFDs for a baseline-JPEG preview and
    /// the sensor data as lossless JPEG with a default crop.
    static func dng(previewJPEG: [UInt8]) -> [UInt8] {
        var raw = TestRAW()
        let rgb = raw.data((0..<30 * 20).flatMap { _ in [UInt8(90), 160, 60] })
        let jpeg = raw.data(previewJPEG)
        // A lossless JPEG's start: SOI, then SOF3.
        let lossless = raw.data([
            0xFF, 0xD8, 0xFF, 0xC3, 0x00, 0x0B, 0x0C, 0x07, 0xD0, 0x0B, 0xB8, 0x01, 0x01, 0x11, 0x00,
        ])
        let previewIFD = raw.ifd([
            (0xFE, .long(1)), (0x100, .long(300)), (0x101, .long(200)), (0x103, .short(7)), (0x106, .short(6)),
            (0x111, .long(jpeg)), (0x117, .long(previewJPEG.count)),
        ])
        let sensorIFD = raw.ifd([
            (0xFE, .long(0)), (0x100, .long(3000)), (0x101, .long(2000)), (0x103, .short(7)), (0x106, .short(32803)),
            (0x111, .long(lossless)), (0x117, .long(15)), (0xC620, .longs([2990, 1990])),
        ])
        let ifd0 = raw.ifd([
            (0xFE, .long(1)), (0x100, .long(30)), (0x101, .long(20)), (0x102, .longs([8, 8, 8])), (0x103, .short(1)),
            (0x106, .short(2)), (0x10F, .ascii("Test Camera Co")), (0x111, .long(rgb)), (0x115, .short(3)),
            (0x116, .long(20)), (0x117, .long(30 * 20 * 3)), (0x14A, .longs([previewIFD, sensorIFD])),
            (0xC612, .undefined([1, 4, 0, 0])),
        ])
        return raw.finish(ifd0: ifd0)
    }

    @Test func aDNGsLosslessSensorDataIsNoPreview() throws {
        let source = try ImageSource(
            bytes: Self.dng(previewJPEG: try Self.solid(300, 200, [10, 200, 10])), name: "t.dng")
        #expect(source.info.size == PixelSize(width: 300, height: 200))
        #expect(source.info.features.prefix(3) == ["Adobe DNG", "Test Camera Co", "sensor 2990x1990"])
        #expect(source.info.features.contains { $0.hasPrefix("preview 30x20 RGB in IFD0") })
        #expect(source.info.layout == "Adobe DNG, shown through its 300x200 preview (of 2)")
        // The uncompressed thumbnail serves a tiny output through the TIFF codec.
        let tiny = try source.image(.maxPixelSize(12), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(tiny.plan.decodedSize == PixelSize(width: 30, height: 20))
        #expect(Array(tiny.pixels.bytes.prefix(3)) == [90, 160, 60])
    }

    @Test func loopsEndAndAFileWithoutAPreviewIsRefused() throws {
        // IFD0 names itself as its next directory and its own SubIFD.
        var raw = TestRAW()
        let at = raw.bytes.count
        _ = raw.ifd(
            [
                (0xFE, .long(1)), (0x10F, .ascii("NIKON CORPORATION")), (0x14A, .longs([at])),
            ], next: at)
        let looping = raw.finish(ifd0: at)
        #expect(throws: ImageError.self) { try ImageSource(bytes: looping, name: "loop.nef") }
        do {
            _ = try ImageSource(bytes: looping, name: "loop.nef")
        } catch {
            #expect(error.code == .unsupportedFeature)
            #expect(
                error.message.hasPrefix("loop.nef: the Nikon NEF file holds no preview Shrink can read (none found)"))
        }
    }

    @Test func aShortMakerNoteAndHugeDimensionsAreReadWithoutATrap() throws {
        // A maker note of nothing but "Nikon\0" and a byte, and uncompressed and CFA directories claiming
        // 4294967295x4294967295 pixels (their products do not fit in 64 bits): the JPEG preview is still found.
        var raw = TestRAW()
        let jpeg = try Self.solid(60, 40, [9, 9, 9])
        let jpegAt = raw.data(jpeg)
        let huge = 0xFFFF_FFFF
        let sensorIFD = raw.ifd([(0x100, .long(huge)), (0x101, .long(huge)), (0x106, .short(32803))])
        let exif = raw.ifd([(0x927C, .undefined(Array("Nikon\0".utf8) + [2]))])
        let ifd0 = raw.ifd([
            (0xFE, .long(1)), (0x100, .long(huge)), (0x101, .long(huge)), (0x102, .longs([8, 8, 8])),
            (0x103, .short(1)), (0x106, .short(2)), (0x10F, .ascii("NIKON CORPORATION")), (0x111, .long(8)),
            (0x115, .short(3)), (0x117, .long(64)), (0x14A, .longs([sensorIFD])), (0x201, .long(jpegAt)),
            (0x202, .long(jpeg.count)), (0x8769, .long(exif)),
        ])
        let source = try ImageSource(bytes: raw.finish(ifd0: ifd0), name: "short-note.nef")
        #expect(source.info.size == PixelSize(width: 60, height: 40))
        #expect(source.info.features.contains("sensor \(huge)x\(huge)"))
    }

    @Test func aCR3WhosePreviewBoxIsCutShortIsRefusedWithoutATrap() throws {
        // The preview uuid box holds its 16-byte uuid and 4 bytes of Canon's: fewer than the 24 before PRVW.
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            TestRAW.u32(8 + payload.count).reversed() + Array(type.utf8) + payload
        }
        let uuid: [UInt8] = [
            0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
        ]
        let bytes = box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1]) + box("uuid", uuid + [0, 0, 0, 0])
        do {
            _ = try ImageSource(bytes: bytes, name: "cut.cr3")
            Issue.record("a CR3 without a preview opened")
        } catch {
            #expect(error.code == .unsupportedFeature)
            #expect(
                error.message.hasPrefix("cut.cr3: the Canon CR3 file holds no preview Shrink can read (none found)"))
        }
    }

    @Test func aPreviewBombIsRefusedFromItsHeader() throws {
        var bomb = try Self.solid(16, 16, [1, 2, 3])
        // The frame header's height and width, made 60000 each.
        let sof = bomb.indices.first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 }!
        bomb.replaceSubrange(sof + 5..<sof + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        let bytes = TestRAW.nef(preview: bomb, small: try Self.solid(150, 100, [1, 2, 3]))
        // The header opens (its size is the preview's claim); a decode is refused before a pixel is allocated.
        let source = try ImageSource(bytes: bytes, name: "bomb.nef")
        #expect(source.info.size == PixelSize(width: 60000, height: 60000))
        do {
            _ = try source.image(.maxPixelSize(100))
            Issue.record("a 60000x60000 preview was decoded")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func anOrdinaryTIFFStaysATIFF() throws {
        // A camera maker's name on a plain RGB image (a camera's TIFF output) is not a RAW file.
        var tiff = TestRAW()
        let rgb = tiff.data([UInt8](repeating: 128, count: 4 * 4 * 3))
        let ifd0 = tiff.ifd([
            (0x100, .long(4)), (0x101, .long(4)), (0x102, .longs([8, 8, 8])), (0x103, .short(1)), (0x106, .short(2)),
            (0x10F, .ascii("NIKON CORPORATION")), (0x111, .long(rgb)), (0x115, .short(3)), (0x116, .long(4)),
            (0x117, .long(48)),
        ])
        let source = try ImageSource(bytes: tiff.finish(ifd0: ifd0), name: "camera.tif")
        #expect(source.info.format == .tiff)
    }

    @Test func aRAFShowsItsJPEGWithTheJPEGsOrientation() throws {
        let jpeg = try TestImages.jpeg(TestImages.pattern(width: 300, height: 200), orientation: 8)
        var bytes = Array("FUJIFILMCCD-RAW 0201FF383501".utf8) + Array("X-TEST".utf8)
        bytes += [UInt8](repeating: 0, count: 100 - bytes.count)
        bytes.replaceSubrange(84..<92, with: TestRAW.u32(100).reversed() + TestRAW.u32(jpeg.count).reversed())
        bytes += jpeg
        let source = try ImageSource(bytes: bytes, name: "t.raf")
        #expect(source.info.features.prefix(2) == ["Fujifilm RAF", "FUJIFILM X-TEST"])
        #expect(source.info.size == PixelSize(width: 300, height: 200))
        #expect(source.info.orientation == .left)
        #expect(source.info.displayedSize == PixelSize(width: 200, height: 300))
    }
}
