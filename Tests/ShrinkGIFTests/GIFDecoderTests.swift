import Testing
import Shrink
import ShrinkCore
import ShrinkGIF
import ShrinkTestSupport

@Suite struct GIFDecoderTests {
    func decoder(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> GIFDecoder {
        try GIFDecoder(bytes: ImageBytes(bytes, name: "t.gif"), path: "t.gif", limits: limits)
    }

    /// The code of the ImageError `body` throws, nil when it returns.
    func code(_ body: () throws -> Void) -> ImageError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ImageError)?.code
        }
    }

    /// `indices` through `palette` (RGB triples) as rgb8, or rgba8 with alpha 0 at index `transparent`.
    func expand(_ indices: [UInt8], _ palette: [UInt8], transparent: Int? = nil) -> [UInt8] {
        indices.flatMap { i -> [UInt8] in
            let rgb = Array(palette[Int(i) * 3..<Int(i) * 3 + 3])
            guard let transparent else { return rgb }
            return rgb + [Int(i) == transparent ? 0 : 255]
        }
    }

    @Test func headerFrameCountAndLoopCount() throws {
        let frame = TestGIF.Frame(width: 20, height: 10, indices: TestGIF.pattern(width: 20, height: 10))
        let bytes = TestGIF.file(
            width: 20, height: 10, palette: TestGIF.palette16, frames: [frame, frame, frame], loopCount: 3)
        let d = try decoder(bytes)
        #expect(d.info.format == .gif && d.info.size == PixelSize(width: 20, height: 10))
        #expect(
            d.info.colorModel == .palette && d.info.bitsPerComponent == 8 && !d.info.hasAlpha && !d.info.isProgressive)
        #expect(d.info.frameCount == 3 && d.info.loopCount == 3)
        #expect(d.info.features == ["animated", "NETSCAPE2.0"] && d.info.warnings.isEmpty)
        #expect(d.outputFormat == .rgb8 && d.scaleDenominators == [1])
        let route = d.route(RouteRequest(scaleDenominator: 1))
        #expect(route.path == .firstFrameRows && route.rowFormat == .rgb8 && route.workingBytes == 0)
        #expect(try d.metadata() == ImageMetadata())

        let still = try decoder(TestGIF.file(width: 20, height: 10, palette: TestGIF.palette16, frames: [frame]))
        #expect(still.info.frameCount == 1 && still.info.loopCount == nil && still.info.features.isEmpty)
    }

    @Test func rowsAreThePaletteColorsOfTheFirstFrame() throws {
        let first = TestGIF.pattern(width: 33, height: 21)
        let second = TestGIF.Frame(width: 33, height: 21, indices: [UInt8](repeating: 5, count: 33 * 21))
        let bytes = TestGIF.file(
            width: 33, height: 21, palette: TestGIF.palette16,
            frames: [TestGIF.Frame(width: 33, height: 21, indices: first), second])
        let rows = try decoder(bytes).startDecoding()
        #expect(rows.size == PixelSize(width: 33, height: 21) && rows.format == .rgb8)
        #expect(try rows.readAll(strip: 5) == expand(first, TestGIF.palette16))
        let again = try decoder(bytes).startDecoding()
        let out = UnsafeMutableRawPointer.allocate(byteCount: 33 * 3 * 3, alignment: 16)
        defer { out.deallocate() }
        #expect(try again.readRows(startingAt: 0, into: out, bytesPerRow: 99, maxRows: 3) == 3)
        try again.finish()
        #expect(
            code { _ = try again.readRows(startingAt: 3, into: out, bytesPerRow: 99, maxRows: 1) } == .invalidArgument)
    }

    @Test func rowsAreReadTopToBottomOnly() throws {
        let bytes = TestGIF.file(
            width: 8, height: 8, palette: TestGIF.palette16,
            frames: [TestGIF.Frame(width: 8, height: 8, indices: TestGIF.pattern(width: 8, height: 8))])
        let rows = try decoder(bytes).startDecoding()
        let out = UnsafeMutableRawPointer.allocate(byteCount: 8 * 3 * 8, alignment: 16)
        defer { out.deallocate() }
        #expect(try rows.readRows(startingAt: 0, into: out, bytesPerRow: 24, maxRows: 3) == 3)
        #expect(
            code { _ = try rows.readRows(startingAt: 1, into: out, bytesPerRow: 24, maxRows: 1) } == .invalidArgument)
        #expect(try rows.readRows(startingAt: 3, into: out, bytesPerRow: 24, maxRows: 100) == 5)
        #expect(try rows.readRows(startingAt: 8, into: out, bytesPerRow: 24, maxRows: 1) == 0)
    }

    @Test func interlacedFramesDecodeToTheSamePixels() throws {
        for (w, h) in [(37, 29), (5, 1), (3, 2), (16, 9), (1, 17)] {
            let indices = TestGIF.pattern(width: w, height: h)
            let plain = TestGIF.file(
                width: w, height: h, palette: TestGIF.palette16,
                frames: [TestGIF.Frame(width: w, height: h, indices: indices)])
            let interlaced = TestGIF.file(
                width: w, height: h, palette: TestGIF.palette16,
                frames: [TestGIF.Frame(width: w, height: h, indices: indices, interlaced: true)])
            #expect(plain != interlaced)
            let d = try decoder(interlaced)
            #expect(d.info.isProgressive && d.info.features.first == "interlaced")
            let route = d.route(RouteRequest(scaleDenominator: 1))
            #expect(route.path == .interlacedFrame && route.workingBytes == w * h)
            #expect(try d.startDecoding().readAll(strip: 3) == expand(indices, TestGIF.palette16), "\(w)x\(h)")
            #expect(try decoder(plain).startDecoding().readAll() == expand(indices, TestGIF.palette16), "\(w)x\(h)")
        }
    }

    @Test func smallFrameSitsAtItsOffsetOnTheCanvas() throws {
        // Without transparency the canvas outside the frame is palette index 0 (Pillow's frame 0; not the
        // background colour); with a transparent index it is that index, alpha 0.
        let indices = TestGIF.pattern(width: 3, height: 2)
        for transparent in [nil, 7] as [Int?] {
            let frame = TestGIF.Frame(left: 4, top: 1, width: 3, height: 2, indices: indices, transparent: transparent)
            let d = try decoder(
                TestGIF.file(width: 9, height: 5, palette: TestGIF.palette16, frames: [frame], background: 3))
            #expect(d.info.size == PixelSize(width: 9, height: 5) && d.info.hasAlpha == (transparent != nil))
            #expect(d.outputFormat == (transparent == nil ? .rgb8 : .rgba8))
            var canvas = [UInt8](repeating: UInt8(transparent ?? 0), count: 45)
            for y in 0..<2 { for x in 0..<3 { canvas[(1 + y) * 9 + 4 + x] = indices[y * 3 + x] } }
            #expect(try d.startDecoding().readAll() == expand(canvas, TestGIF.palette16, transparent: transparent))
        }
    }

    @Test func frameBeyondTheScreenGrowsTheCanvasAsPillowDoes() throws {
        let indices = TestGIF.pattern(width: 4, height: 3)
        let frame = TestGIF.Frame(left: 2, top: 1, width: 4, height: 3, indices: indices)
        let d = try decoder(TestGIF.file(width: 3, height: 2, palette: TestGIF.palette16, frames: [frame]))
        #expect(d.info.size == PixelSize(width: 6, height: 4))
        #expect(d.outputFormat == .rgb8)
        // The grown canvas is palette index 0 (the background index here) outside the frame, the frame's
        // indices at (2, 1): the same 6x4 picture Pillow gives for this file (checked with Image.open().convert("RGB")).
        var canvas = [UInt8](repeating: 0, count: 6 * 4)
        for y in 0..<3 { for x in 0..<4 { canvas[(1 + y) * 6 + 2 + x] = indices[y * 4 + x] } }
        #expect(try d.startDecoding().readAll() == expand(canvas, TestGIF.palette16))
    }

    @Test(.needsCorpus)
    func corpusPixelsMatchPillow() throws {
        func decode(_ path: String) throws -> (PixelSize, PixelFormat, [UInt8]) {
            let d = try GIFDecoder(bytes: try ImageBytes(mapping: Corpus.path(path)), path: path)
            return (d.info.size, d.outputFormat, try d.startDecoding().readAll())
        }
        // Values read with Pillow 13: Image.open(f).convert("RGBA").getdata().
        let (_, f1, transparent) = try decode("gif/gif-test-suite/transparent.gif")
        #expect(f1 == .rgba8 && transparent == [255, 0, 0, 0, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
        // 2x1 frame on a 4x1 screen, background index 3
        let (s2, _, background) = try decode("gif/wuffs/background-color.gif")
        #expect(s2 == PixelSize(width: 4, height: 1) && background == [128, 0, 0, 128, 0, 193, 128, 0, 0, 128, 0, 0])
        // 2x2 frame at (2, 2) of a 2x2 screen
        let (s3, _, outside) = try decode("gif/gif-test-suite/image-outside-bg.gif")
        #expect(s3 == PixelSize(width: 4, height: 4))
        let red: [UInt8] = [255, 0, 0], black: [UInt8] = [0, 0, 0]
        let expected: [UInt8] = (0..<16).flatMap { (i: Int) -> [UInt8] in i / 4 >= 2 && i % 4 >= 2 ? red : black }
        #expect(outside == expected)
        let (s4, _, harvesters) = try decode("gif/wuffs/harvesters.gif")
        func rgb(_ p: [UInt8], _ size: PixelSize, _ x: Int, _ y: Int, _ c: Int = 3) -> [UInt8] {
            Array(p[(y * size.width + x) * c..<(y * size.width + x) * c + c])
        }
        #expect(
            rgb(harvesters, s4, 0, 0) == [1, 0, 1] && rgb(harvesters, s4, 600, 400) == [52, 42, 20]
                && rgb(harvesters, s4, 1164, 858) == [13, 7, 3])
        let (s5, f5, transX) = try decode("gif/libvips/trans-x.gif") // interlaced, transparent index
        #expect(f5 == .rgba8 && rgb(transX, s5, 0, 0, 4)[3] == 0 && rgb(transX, s5, 50, 50, 4) == [0, 0, 0, 255])
        // The same picture stored interlaced and not.
        let (_, _, regular) = try decode("gif/wuffs/hippopotamus.regular.gif")
        let (_, _, interlaced) = try decode("gif/wuffs/hippopotamus.interlaced.gif")
        #expect(regular == interlaced && regular.count == 36 * 28 * 3)
    }

    @Test(.needsCorpus)
    func corpusFrameCountsAndLoopCounts() throws {
        // Pillow's n_frames and info["loop"]; for several NETSCAPE2.0 extensions the last one counts (libvips).
        for (path, frames, loop) in [
            ("gif/wuffs/gifplayer-muybridge.gif", 380, 0), ("gif/libvips/cogs.gif", 5, 32760),
            ("gif/sharp/animated-loop-3.gif", 10, 2), ("gif/wuffs/multiple-loop-counts.gif", 4, 40),
            ("gif/libvips/invalid_multiframe.gif", 4, 32760),
        ] as [(String, Int, Int?)] {
            let d = try GIFDecoder(bytes: try ImageBytes(mapping: Corpus.path(path)), path: path)
            #expect(d.info.frameCount == frames && d.info.loopCount == loop, "\(path)")
        }
    }

    @Test func bombsAreRefusedFromTheHeaderQuickly() throws {
        let clock = ContinuousClock()
        // A 65535x65535 screen, with a frame after it and without.
        for bytes in [
            TestGIF.header(width: 65535, height: 65535),
            TestGIF.header(
                width: 65535, height: 65535, rest: TestGIF.image(width: 2, height: 2, data: [0x4C, 0x01]) + [0x3B]),
        ] {
            let start = clock.now
            do {
                _ = try ImageSource(bytes: bytes, name: "bomb.gif")
                Issue.record("65535x65535 accepted")
            } catch {
                #expect(error.code == .limitExceeded, "\(error)")
                #expect(error.description.contains("65535x65535"))
            }
            #expect(clock.now - start < .milliseconds(100))
        }
        // A small screen whose first frame is huge, or far outside it: the canvas holding the frame is checked.
        for (left, top, w, h) in [(0, 0, 60000, 60000), (65535, 65535, 65535, 65535), (30000, 0, 40000, 20000)] {
            let bytes = TestGIF.header(
                width: 10, height: 10, rest: TestGIF.image(left: left, top: top, width: w, height: h, data: [0x4C]))
            #expect(code { _ = try decoder(bytes) } == .limitExceeded)
        }
        // Under a raised limit a large canvas is fine; the missing data is then a clean error.
        let d = try decoder(
            TestGIF.header(
                width: 20000, height: 20000, rest: TestGIF.image(width: 20000, height: 20000, data: [0x4C]) + [0x3B]),
            limits: ImageLimits(maxPixels: 400_000_000))
        #expect(d.info.size == PixelSize(width: 20000, height: 20000))
        let row = UnsafeMutableRawPointer.allocate(byteCount: 20000 * 3, alignment: 16)
        defer { row.deallocate() }
        #expect(
            [.truncated, .corruptData].contains(
                code {
                    let rows = try d.startDecoding()
                    while try rows.readRows(startingAt: rows.nextRow, into: row, bytesPerRow: 0, maxRows: 1) > 0 {}
                }))
    }

    @Test func filesWithoutAnImageAreRefused() throws {
        for (bytes, expected) in [
            (TestGIF.header(width: 1, height: 1, rest: [0x3B]), ImageError.Code.corruptData),
            (TestGIF.header(width: 0, height: 0, rest: [0x3B]), .corruptData),
            (
                TestGIF.header(width: 2, height: 2, rest: TestGIF.image(width: 0, height: 2, data: [0x4C]) + [0x3B]),
                .corruptData
            ),
            (Array("GIF89a\u{1}\0".utf8), .truncated),
            (Array(TestGIF.header(width: 2, height: 2).prefix(15)), .truncated),
            (Array("GIF88a".utf8) + [UInt8](repeating: 0, count: 20), .corruptData),
        ] {
            #expect(code { _ = try decoder(bytes) } == expected)
        }
    }

    @Test func damageInTheFirstFrameIsAnError() throws {
        // An LZW code that is not in the table yet: clear (4), then 7.
        let invalid = TestGIF.header(
            width: 2, height: 2, rest: TestGIF.image(width: 2, height: 2, data: [0x3C, 0x00]) + [0x3B])
        #expect(code { _ = try decoder(invalid).startDecoding().readAll() } == .corruptData)
        // A minimum code size above 8.
        let wide = TestGIF.header(
            width: 2, height: 2, rest: TestGIF.image(width: 2, height: 2, codeSize: 12, data: [0xFF]) + [0x3B])
        #expect(code { _ = try decoder(wide).startDecoding().readAll() } == .corruptData)
        // The image data stops before the frame is full.
        let frame = TestGIF.Frame(width: 40, height: 30, indices: TestGIF.pattern(width: 40, height: 30))
        let good = TestGIF.file(width: 40, height: 30, palette: TestGIF.palette16, frames: [frame])
        #expect(code { _ = try decoder(Array(good.prefix(good.count / 2))).startDecoding().readAll() } == .truncated)
    }

    @Test func truncationAfterTheFirstFrameIsAWarningAndStrictRefusesIt() throws {
        let first = TestGIF.Frame(width: 30, height: 20, indices: TestGIF.pattern(width: 30, height: 20))
        let second = TestGIF.Frame(width: 30, height: 20, indices: TestGIF.pattern(width: 30, height: 20, colors: 7))
        let whole = TestGIF.file(
            width: 30, height: 20, palette: TestGIF.palette16, frames: [first, second], loopCount: 0)
        let cut = Array(whole.prefix(whole.count - 20))
        let d = try decoder(cut)
        #expect(d.info.frameCount == 2 && d.info.warnings.count == 1)
        #expect(d.info.warnings.first?.contains("frame 2") == true)
        #expect(try d.startDecoding().readAll() == expand(first.indices, TestGIF.palette16))
        #expect(code { _ = try d.startDecoding(options: DecodeOptions(strict: true)) } == .truncated)

        // Through ImageSource: a thumbnail with the warning; strict fails.
        let source = try ImageSource(bytes: cut, name: "cut.gif")
        let image = try source.thumbnail(maxPixelSize: 15)
        #expect(image.size == PixelSize(width: 15, height: 10) && image.warnings == d.info.warnings)
        #expect(
            code { _ = try source.thumbnail(maxPixelSize: 15, options: ThumbnailOptions(strict: true)) } == .truncated)
    }

    @Test func everyCutIsATypedErrorOrADecodeNeverACrash() throws {
        let frames = [
            TestGIF.Frame(
                width: 23, height: 17, indices: TestGIF.pattern(width: 23, height: 17), interlaced: true, transparent: 2
            ),
            TestGIF.Frame(left: 3, top: 2, width: 7, height: 5, indices: TestGIF.pattern(width: 7, height: 5)),
        ]
        let good = TestGIF.file(width: 23, height: 17, palette: TestGIF.palette16, frames: frames, loopCount: 7)
        var decoded = 0, refused = 0
        for cut in 0..<good.count {
            do {
                let d = try decoder(Array(good.prefix(cut)))
                _ = try d.startDecoding().readAll()
                decoded += 1
                #expect(d.info.frameCount >= 1)
            } catch {
                #expect([.truncated, .corruptData, .unsupportedFormat].contains(error.code), "\(cut): \(error)")
                refused += 1
            }
        }
        #expect(decoded > 0 && refused > 0)
    }

    @Test func minimumCodeSizeZeroReadsAsIndexZeroWithAWarning() throws {
        let bytes = TestGIF.header(
            width: 3, height: 2, rest: TestGIF.image(width: 3, height: 2, codeSize: 0, data: [0x00]) + [0x3B])
        let d = try decoder(bytes)
        #expect(d.info.warnings.count == 1)
        #expect(try d.startDecoding().readAll() == [UInt8](repeating: 0, count: 18))
        #expect(code { _ = try d.startDecoding(options: DecodeOptions(strict: true)) } == .corruptData)
    }

    @Test func strayBytesAndTheWalkCapAreBounded() throws {
        let frame = TestGIF.Frame(width: 4, height: 4, indices: TestGIF.pattern(width: 4, height: 4))
        var bytes = TestGIF.file(width: 4, height: 4, palette: TestGIF.palette16, frames: [frame])
        bytes.removeLast() // the trailer
        bytes += [UInt8](repeating: 0x07, count: GIFStructure.maxWalkSteps + 10) // stray bytes, one step each
        let clock = ContinuousClock(), start = clock.now
        let d = try decoder(bytes)
        #expect(clock.now - start < .seconds(5)) // ~10 ms optimised; debug builds are far slower
        #expect(d.info.frameCount == 1)
        #expect(d.info.warnings.contains { $0.contains("stopped counting") })
        #expect(try d.startDecoding().readAll() == expand(frame.indices, TestGIF.palette16))
    }

    @Test func iccProfileExtensionIsReturnedAsMetadata() throws {
        let frame = TestGIF.Frame(width: 2, height: 2, indices: [0, 1, 1, 0])
        var bytes = TestGIF.file(width: 2, height: 2, palette: TestGIF.palette16, frames: [frame])
        let profile = (0..<300).map { UInt8($0 % 251) }
        var ext: [UInt8] = [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
        ext += [255] + Array(profile[0..<255])
        ext += [45] + Array(profile[255...]) + [0]
        let at = 13 + 48 // after the header and the 16-entry global table
        bytes.insert(contentsOf: ext, at: at)
        let d = try decoder(bytes)
        #expect(d.info.iccProfileBytes == 300 && d.info.features.contains("ICC"))
        #expect(try d.metadata().iccProfile == profile)
        let capped = try decoder(bytes, limits: ImageLimits(maxChunkBytes: 100))
        #expect(capped.info.iccProfileBytes == 0 && capped.info.warnings.count == 1)
        #expect(try capped.metadata() == ImageMetadata())
    }

    @Test func thumbnailsThroughTheRegistry() throws {
        let indices = TestGIF.pattern(width: 64, height: 48)
        let bytes = TestGIF.file(
            width: 64, height: 48, palette: TestGIF.palette16,
            frames: [TestGIF.Frame(width: 64, height: 48, indices: indices, transparent: 3)])
        let source = try ImageSource(bytes: bytes, name: "t.gif")
        #expect(source.codec.format == .gif && source.info.hasAlpha)
        let thumb = try source.thumbnail(maxPixelSize: 32)
        #expect(
            thumb.size == PixelSize(width: 32, height: 24) && thumb.pixels.format == .rgba8
                && thumb.decodePath == .firstFrameRows)
        let full = try source.image()
        #expect(full.pixels.bytes == expand(indices, TestGIF.palette16, transparent: 3))
        #expect(Codec.gif.capabilities.animation && Codec.gif.writer?.accepts.contains(.animation) == true)
        #expect(CodecRegistry.standard.readableFormats.contains(.gif))
    }
}
