import Testing
import Shrink
import ShrinkTestSupport
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ImageSourceTests {
    func temporaryFile(_ bytes: [UInt8], suffix: String = ".jpg") throws -> String {
        var template = Array("/tmp/shrink-test-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        close(fd)
        let base = String(cString: template)
        unlink(base)
        let path = base + suffix
        try FileOutput.write(bytes, to: path)
        return path
    }

    @Test func pathAndBytesGiveTheSamePixels() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 300, height: 200), orientation: 8)
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        let a = try ImageSource(path: path).thumbnail(maxPixelSize: 77)
        let b = try ImageSource(bytes: bytes).thumbnail(maxPixelSize: 77)
        #expect(a.pixels.bytes == b.pixels.bytes)
        #expect(a.size == PixelSize(width: 51, height: 77))
        #expect(try ImageSource(path: path).fileBytes == bytes.count)
    }

    @Test func infoCostsAreForTheDisplayedImage() throws {
        let source = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.pattern(width: 30, height: 20), orientation: 6))
        #expect(source.info.displayedSize == PixelSize(width: 20, height: 30))
        #expect(source.info.decodedBytes(as: .rgba8) == 2400)
        #expect(source.info.decodedBytes(as: .yuv420) == 600 + 2 * 10 * 15)
    }

    @Test func missingEmptyAndForeignFilesAreTypedErrors() throws {
        do {
            _ = try ImageSource(path: "/nonexistent/photo.jpg")
            Issue.record("missing file")
        } catch {
            #expect(error.code == .fileNotFound)
            #expect(error.description.contains("/nonexistent/photo.jpg"))
        }
        let empty = try temporaryFile([])
        defer { unlink(empty) }
        do {
            _ = try ImageSource(path: empty)
            Issue.record("empty file")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
        do {
            _ = try ImageSource(bytes: Array("not an image at all".utf8), name: "notes.txt")
            Issue.record("text")
        } catch {
            #expect(error.code == .unsupportedFormat)
            #expect(error.description.hasPrefix("notes.txt"))
        }
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 200, height: 100))
        let source = try ImageSource(bytes: bytes)
        do {
            _ = try ImageSource(bytes: bytes, limits: ImageLimits(maxPixels: 19_999)).thumbnail(maxPixelSize: 10)
            Issue.record("limit")
        } catch {
            #expect(error.code == .limitExceeded)
        }
        #expect(
            try ImageSource(bytes: bytes, limits: ImageLimits(maxPixels: 20_000)).thumbnail(maxPixelSize: 10).size.width
                == 10)
        do {
            _ = try ImageSource(bytes: bytes, name: "big.jpg", limits: ImageLimits(maxInputBytes: bytes.count - 1))
            Issue.record("input limit")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.description.hasPrefix("big.jpg"))
        }
        // An upscaled output is bounded too, before anything is allocated.
        do {
            _ = try source.thumbnail(maxPixelSize: 100_000, options: .init(allowUpscaling: true))
            Issue.record("output limit")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func progressiveBudgetIsEnforcedBeforeDecoding() throws {
        let source = try ImageSource(
            bytes: try TestImages.jpeg(TestImages.pattern(width: 400, height: 300), progressive: true),
            name: "prog.jpg")
        #expect(source.decoderWorkingBytes == 50 * 38 * 3 * 128)
        do {
            _ = try ImageSource(
                bytes: source.bytes, name: source.name,
                limits: ImageLimits(maxWorkingBytes: source.decoderWorkingBytes - 1)
            )
            .thumbnail(maxPixelSize: 50)
            Issue.record("budget")
        } catch {
            #expect(error.code == .memoryBudgetExceeded)
            #expect(
                error.description.contains("prog.jpg") && error.description.contains("ImageLimits.maxWorkingBytes"),
                "\(error)")
        }
        let ok = try ImageSource(
            bytes: source.bytes, name: source.name,
            limits: ImageLimits(maxWorkingBytes: source.decoderWorkingBytes + 200_000)
        )
        .thumbnail(maxPixelSize: 50)
        #expect(ok.size == PixelSize(width: 50, height: 38))
    }

    @Test func encodersRoundTrip() throws {
        let original = TestImages.pattern(width: 64, height: 48)
        let source = try ImageSource(bytes: try TestImages.jpeg(original, quality: 100))
        let decoded = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(decoded.pixels, original) > 40)
        let jpeg = try decoded.encoded(as: .jpeg(.init(quality: 90, chroma444: true)))
        let again = try ImageSource(bytes: jpeg).image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(again.pixels, original) > 35)
        let png = try decoded.encoded(as: .png(.init()))
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width 64, height 48, depth 8, colour type 2 (RGB).
        #expect(Array(png[16..<26]) == [0, 0, 0, 64, 0, 0, 0, 48, 8, 2])
        let progressive = try decoded.encoded(as: .jpeg(.init(progressive: true)))
        #expect(try ImageSource(bytes: progressive).info.isProgressive)
    }

    @Test(.needsCorpus)
    func corpusCMYKConvertsToRGB() throws {
        var checked = 0
        for entry in Corpus.entries
        where entry.format == "jpeg" && entry.expected.hasPrefix("decodes")
            && entry.features.contains(" 4ch ") && !entry.path.hasPrefix("corrupt/")
        { // CMYK or YCCK
            let source = try ImageSource(path: Corpus.path(entry.path))
            #expect([.cmyk, .ycck].contains(source.info.colorModel), "\(entry.path)")
            let image = try source.thumbnail(maxPixelSize: 64)
            #expect(image.pixels.format == .yuv420) // CMYK decodes through RGB, then to the policy's format
            checked += 1
        }
        #expect(checked >= 7)
    }

    @Test(.needsCorpus)
    func everyDecodableCorpusJPEGThumbnails() throws {
        var count = 0
        for entry in Corpus.entries where entry.format == "jpeg" && !entry.path.hasPrefix("corrupt/") {
            guard let sizes = entry.decodedSizes else { continue }
            let image = try ImageSource(path: Corpus.path(entry.path)).thumbnail(maxPixelSize: 48)
            // The documented rule on the displayed size: no upscaling; else 48 on the long side and the short
            // side scaled, rounded half away from zero, at least 1.
            let (w, h) = sizes.displayed
            func scaled(_ side: Int, _ long: Int) -> Int { max(1, Int((Double(side) * 48 / Double(long)).rounded())) }
            let expected =
                max(w, h) <= 48
                ? PixelSize(width: w, height: h)
                : w >= h ? PixelSize(width: 48, height: scaled(h, w)) : PixelSize(width: scaled(w, h), height: 48)
            #expect(image.size == expected, "\(entry.path): displayed \(w)x\(h)")
            count += 1
        }
        #expect(count > 200)
    }
}
