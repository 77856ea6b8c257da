import Foundation
import Testing
import Shrink
import ShrinkJPEG
import ShrinkTestSupport

/// End-to-end tests of the `shrink` executable: forms, JSON keys, exit codes.
@Suite struct CLITests {
    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    static let binary: String =
        ProcessInfo.processInfo.environment["SHRINK_BIN"] ?? Corpus.projectRoot + "/.build/debug/shrink"

    func shrink(_ args: String...) async throws -> Result { try await shrink(args) }

    /// Runs the CLI without blocking a thread of Swift's cooperative pool while it runs (``ChildProcess``).
    func shrink(_ args: [String], environment: [String: String] = [:]) async throws -> Result {
        let r = try await ChildProcess.run(Self.binary, args, environment: environment)
        return Result(status: r.status, out: r.out, err: r.err)
    }

    func workspace() throws -> (dir: String, photo: String, bad: String) {
        let dir = NSTemporaryDirectory() + "shrink-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let photo = dir + "/photo.jpg"
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 300, height: 200), chroma444: false, orientation: 6),
            to: photo)
        let bad = dir + "/bad.jpg"
        try FileOutput.write(Array("this is not a jpeg".utf8), to: bad)
        return (dir, photo, bad)
    }

    @Test func formatsListsTheRegistry() async throws {
        let json = try await shrink("formats", "--json")
        #expect(json.status == 0)
        let formats = json.out.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let names = formats.compactMap { $0["name"] as? String }
        #expect(names == CodecRegistry.standard.readableFormats.map(\.name))
        let written = formats.filter { $0["writes"] as? Bool == true }.compactMap { $0["name"] as? String }
        #expect(written == CodecRegistry.standard.writableFormats.map(\.name))
        let gif = try #require(formats.first { $0["name"] as? String == "gif" })
        #expect(gif["thumbnailFormat"] as? String == "gif" && gif["animation"] as? Bool == true)
        let table = try await shrink("formats")
        #expect(table.status == 0 && table.out.split(separator: "\n").count == names.count + 1)
        #expect(table.out.contains("image/jpeg") && table.out.hasPrefix("FORMAT"))
    }

    @Test func versionAndHelp() async throws {
        let v = try await shrink("--version")
        #expect(v.status == 0 && v.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        for args in [
            ["--help"], ["info", "--help"], ["thumbnail", "--help"], ["crop", "--help"], ["orient", "--help"],
            ["bench", "--help"],
        ] {
            let r = try await shrink(args)
            #expect(r.status == 0)
            #expect(r.out.contains("Examples:"), "\(args)")
        }
    }

    @Test func infoJSONHasTheDocumentedKeysInOrder() async throws {
        let w = try workspace()
        let r = try await shrink("info", "--json", w.photo)
        #expect(r.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        let keys = [
            "path", "format", "width", "height", "orientation", "orientedWidth", "orientedHeight", "colorModel",
            "bitsPerComponent", "hasAlpha", "progressive", "chromaSubsampling", "iccProfileBytes", "iccProfile",
            "codedColor", "exifBytes",
            "embeddedThumbnail", "features", "frames", "frameDurations", "loopCount", "warnings", "fileBytes",
            "decodedBytes",
        ]
        #expect(Set(object?.keys.map { $0 } ?? []) == Set(keys))
        #expect(r.out.hasPrefix("{\"path\":"))
        #expect(object?["width"] as? Int == 300 && object?["orientedWidth"] as? Int == 200)
        #expect(object?["orientation"] as? Int == 6)
        #expect(object?["chromaSubsampling"] as? String == "4:2:0")
        let costs = object?["decodedBytes"] as? [String: Int]
        #expect(costs?["rgba8"] == 240_000 && costs?["yuv420"] == 90_000 && costs?["gray8"] == 60_000)
    }

    @Test func thumbnailWritesTheFileAndReportsJSON() async throws {
        let w = try workspace()
        let out = w.dir + "/thumb.png"
        let r = try await shrink("thumbnail", w.photo, "--size", "100", "-o", out, "--json")
        #expect(r.status == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(object?["output"] as? String == out)
        #expect(object?["sourceWidth"] as? Int == 300 && object?["orientation"] as? Int == 6)
        #expect(object?["width"] as? Int == 67 && object?["height"] as? Int == 100)
        #expect(object?["prescale"] as? String == "1/1")
        // auto: a lossless PNG output takes the decoder's own RGB pixels...
        #expect(object?["pixelFormat"] as? String == "rgb8")
        #expect(object?["bufferBytes"] as? Int == 67 * 100 * 3)
        #expect(object?["milliseconds"] is Int)
        #expect((object?["predictedPeakBytes"] as? Int ?? 0) >= 67 * 100 * 3)
        let written = try ImageSourceProbe.pngSize(out)
        #expect(written == PixelSize(width: 67, height: 100))
        // ...a 4:2:0 JPEG output takes YUV planes, and explicit formats cost exactly w·h·bpp.
        for (args, format, bytes) in [
            ([] as [String], "yuv420", 67 * 100 + 2 * 34 * 50), (["--pixel-format", "rgba8"], "rgba8", 4 * 67 * 100),
            (["--pixel-format", "gray8"], "gray8", 67 * 100), (["--pixel-format", "yuv420"], "yuv420", 10100),
        ] {
            let j = try await shrink(
                (["thumbnail", w.photo, "--size", "100", "-o", w.dir + "/t.jpg", "--json"] + args))
            let o = try JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any]
            #expect(o?["pixelFormat"] as? String == format && o?["bufferBytes"] as? Int == bytes, "\(args)")
        }
    }

    @Test func optimizeCodingWritesASmallerJPEGOfTheSamePixels() async throws {
        let w = try workspace()
        let plain = w.dir + "/plain.jpg", optimised = w.dir + "/optimised.jpg"
        #expect(try await shrink("thumbnail", w.photo, "--size", "150", "-o", plain).status == 0)
        #expect(
            try await shrink("thumbnail", w.photo, "--size", "150", "-o", optimised, "--optimize-coding").status == 0)
        let plainBytes = try #require(Corpus.readBytes(plain)),
            optimisedBytes = try #require(Corpus.readBytes(optimised))
        #expect(optimisedBytes.count < plainBytes.count)
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let a = try ImageSource(bytes: plainBytes).image(options: rgb),
            b = try ImageSource(bytes: optimisedBytes).image(options: rgb)
        #expect(a.pixels.size == PixelSize(width: 100, height: 150) && a.pixels.bytes == b.pixels.bytes)
        // crop and orient re-encode the same way; with --lossless there is nothing to re-encode.
        for command in [["crop", w.photo, "--rect", "10,20,120,90"], ["orient", w.photo]] {
            let plain = w.dir + "/\(command[0]).jpg", optimised = w.dir + "/\(command[0])-optimised.jpg"
            #expect(try await shrink(command + ["-o", plain]).status == 0)
            #expect(try await shrink(command + ["-o", optimised, "--optimize-coding"]).status == 0)
            let p = try #require(Corpus.readBytes(plain)), o = try #require(Corpus.readBytes(optimised))
            #expect(o.count < p.count, "\(command[0])")
            #expect(
                try ImageSource(bytes: p).image(options: rgb).pixels.bytes
                    == ImageSource(bytes: o).image(options: rgb).pixels.bytes)
            let lossless = try await shrink(command + ["-o", w.dir + "/l.jpg", "--lossless", "--optimize-coding"])
            #expect(lossless.status == 2 && lossless.err.contains("drop --lossless"), "\(lossless.err)")
        }
    }

    @Test func batchContinuesPastABadFileAndExitsOne() async throws {
        let w = try workspace()
        let outDir = w.dir + "/thumbs/nested"
        let r = try await shrink(
            "thumbnail", w.bad, w.photo, "--size", "64x64", "--fit", "cover", "-o", outDir, "--json", "--jobs", "2")
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("\"error\"") && $0.contains("bad.jpg") })
        #expect(FileManager.default.fileExists(atPath: outDir + "/photo.jpg"))
        let plain = try await shrink("thumbnail", w.bad, "-o", w.dir + "/x.jpg")
        #expect(plain.status == 1)
        #expect(plain.err.split(separator: "\n").count == 1 && plain.err.contains("bad.jpg"))
    }

    @Test func directoriesTakeEveryImageByExtensionOrContent() async throws {
        // A WebP, a GIF, a JPEG without an extension and a text file: the three images are thumbnailed (the
        // extension-less one recognised by its bytes), the text file is not an input; outputs can be WebP.
        let dir = NSTemporaryDirectory() + "shrink-dir-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        let photo = TestImages.pattern(width: 120, height: 80)
        try FileOutput.write(try WebPEncoder().encode(photo), to: dir + "/in/a.webp")
        try FileOutput.write(
            TestGIF.file(
                width: 60, height: 40, palette: TestGIF.palette16,
                frames: [TestGIF.Frame(width: 60, height: 40, indices: TestGIF.pattern(width: 60, height: 40))]),
            to: dir + "/in/b.gif")
        try FileOutput.write(try TestImages.jpeg(photo), to: dir + "/in/c")
        try FileOutput.write(Array("notes, not an image".utf8), to: dir + "/in/notes.txt")
        let r = try await shrink(
            "thumbnail", dir + "/in", "--size", "32", "-o", dir + "/out", "--format", "webp", "--json")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.split(separator: "\n").count == 3)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").sorted()
        #expect(names == ["a.webp", "b.webp", "c.webp"])
        for name in names {
            let source = try ImageSource(path: dir + "/out/" + name)
            #expect(
                source.info.format == .webp && max(source.info.size.width, source.info.size.height) == 32, "\(name)")
        }
        let info = try await shrink("info", "--json", dir + "/in/b.gif")
        #expect(info.out.contains("\"format\":\"gif\"") && info.out.contains("\"frames\":1"))
    }

    /// An animated GIF written as WebP stays animated (every frame, its duration, the loop count); `--frames first`
    /// and formats without animation take the first frame.
    @Test func animationsAreKeptWhenTheOutputHoldsThem() async throws {
        let w = try workspace()
        let palette = TestGIF.palette16
        let frames = (0..<4).map { k in
            TestGIF.Frame(
                width: 40, height: 30, indices: (0..<1200).map { UInt8(($0 / 40 + k * 3) % 16) }, delay: k == 2 ? 0 : 7)
        }
        let gif = w.dir + "/anim.gif"
        try FileOutput.write(
            TestGIF.file(width: 40, height: 30, palette: palette, frames: frames, loopCount: 3), to: gif)
        let r = try await shrink("thumbnail", gif, "--size", "20", "-o", w.dir + "/a.webp", "--json")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\"frames\":4") && r.out.contains("\"durations\":[70,70,0,70]"), "\(r.out)")
        let webp = try ImageSource(path: w.dir + "/a.webp")
        #expect(webp.info.frameCount == 4 && webp.info.loopCount == 3)
        #expect(webp.info.size == PixelSize(width: 20, height: 15))
        #expect(webp.decoder.frameDurations(limit: 10) == [70, 70, 0, 70])
        let first = try await shrink("thumbnail", gif, "--size", "20", "-o", w.dir + "/f.webp", "--frames", "first")
        #expect(first.status == 0)
        #expect(try ImageSource(path: w.dir + "/f.webp").info.frameCount == 1)
        let png = try await shrink("thumbnail", gif, "--size", "20", "-o", w.dir + "/f.png")
        #expect(png.status == 0)
        #expect(try ImageSource(path: w.dir + "/f.png").info.frameCount == 1)
        let info = try await shrink("info", gif)
        #expect(info.out.contains("4 frames, loop count 3, 210 ms: 70 70 0 70 ms each"), "\(info.out)")
    }

    @Test func outputsNoEncoderWritesAreUsageErrors() async throws {
        let w = try workspace()
        // A format Shrink reads but does not write is not taken for a directory name.
        let heic = try await shrink("thumbnail", w.photo, "--size", "32", "-o", w.dir + "/x.heic")
        #expect(heic.status == 2 && heic.err.contains("HEIF output is not supported"), "\(heic.err)")
        #expect(!FileManager.default.fileExists(atPath: w.dir + "/x.heic"))
        // crop's and orient's --lossless is a lossless transform's: formats whose codec has them (JPEG).
        for command in [["crop", w.photo, "--rect", "0,0,16,16"], ["orient", w.photo]] {
            let r = try await shrink(command + ["-o", w.dir + "/t.png", "--lossless"])
            #expect(r.status == 2 && r.err.contains("--lossless writes JPEG: use a .jpg output"), "\(r.err)")
        }
        // --lossless is WebP's, AVIF's and JPEG XL's: the usage error names the formats whose writer reads it, from
        // the registry.
        let refused = try await shrink("thumbnail", w.photo, "--size", "32", "-o", w.dir + "/l.jpg", "--lossless")
        #expect(
            refused.status == 2
                && refused.err.contains(
                    "--lossless applies to WebP, AVIF and JXL output (-o x.webp or --format webp; -o x.avif or --format avif; -o x.jxl or --format jxl)"
                ),
            "\(refused.err)")
        #expect(
            try await shrink("thumbnail", w.photo, "--size", "32", "-o", w.dir + "/l.webp", "--lossless").status == 0)
        #expect(try ImageSource(path: w.dir + "/l.webp").info.features.contains("VP8L"))
        // crop honours --quality for WebP.
        let low = try await shrink(
            "crop", w.photo, "--rect", "0,0,150,100", "-o", w.dir + "/q10.webp", "--quality", "10")
        let high = try await shrink(
            "crop", w.photo, "--rect", "0,0,150,100", "-o", w.dir + "/q95.webp", "--quality", "95")
        #expect(low.status == 0 && high.status == 0)
        let sizes = try [w.dir + "/q10.webp", w.dir + "/q95.webp"].map {
            try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0
        }
        #expect(sizes[0] < sizes[1])
    }

    @Test func sameNamesFromDifferentFoldersDoNotOverwrite() async throws {
        let w = try workspace()
        try FileManager.default.createDirectory(atPath: w.dir + "/other", withIntermediateDirectories: true)
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 90, height: 30)), to: w.dir + "/other/photo.jpg")
        let out = w.dir + "/thumbs"
        let r = try await shrink(
            "thumbnail", w.photo, w.dir + "/other/photo.jpg", "--size", "32", "-o", out, "--format", "png", "--json")
        #expect(r.status == 0, "\(r.err)")
        // 300×200, orientation 6
        #expect(try ImageSourceProbe.pngSize(out + "/photo.png") == PixelSize(width: 21, height: 32))
        #expect(try ImageSourceProbe.pngSize(out + "/photo-2.png") == PixelSize(width: 32, height: 11))
    }

    @Test func cropTakesDisplayedCoordinates() async throws {
        let w = try workspace() // photo.jpg: 300×200 stored, orientation 6 → 200×300
        let r = try await shrink("crop", w.photo, "--rect", "150,250,50,50", "-o", w.dir + "/c.png", "--json")
        #expect(r.status == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(
            object?["width"] as? Int == 50 && object?["height"] as? Int == 50
                && object?["rect"] as? String == "150,250,50,50")
        #expect(try ImageSourceProbe.pngSize(w.dir + "/c.png") == PixelSize(width: 50, height: 50))
        let outside = try await shrink("crop", w.photo, "--rect", "150,250,60,50", "-o", w.dir + "/d.png")
        #expect(outside.status == 1 && outside.err.contains("outside") && outside.err.split(separator: "\n").count == 1)
        #expect(try await shrink("crop", w.photo, "--rect", "1,2,3").status == 2)
    }

    /// DQT segments of a JPEG, in order (the quantisation tables).
    func quantTables(_ path: String) -> [[UInt8]] {
        guard let b = Corpus.readBytes(path) else { return [] }
        var out: [[UInt8]] = [], i = 2
        while i + 4 <= b.count, b[i] == 0xFF, b[i + 1] != 0xDA {
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if b[i + 1] == 0xDB { out.append(Array(b[(i + 4)..<min(b.count, i + 2 + length)])) }
            i += 2 + length
        }
        return out
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jpegtran"),
            "needs jpegtran (libjpeg-turbo-progs)"))
    func losslessOrientMatchesJpegtran() async throws {
        let w = try workspace()
        for (orientation, args) in [
            (6, ["-rotate", "90"]), (8, ["-rotate", "270"]), (3, ["-rotate", "180"]), (5, ["-transpose"]),
            (2, ["-flip", "horizontal"]), (7, ["-transverse"]), (4, ["-flip", "vertical"]),
        ] {
            // 64×48 4:2:0: whole iMCUs, so every transform is perfect.
            let input = w.dir + "/o\(orientation).jpg"
            try FileOutput.write(
                try TestImages.jpeg(
                    TestImages.pattern(width: 64, height: 48), quality: 90, chroma444: false,
                    orientation: orientation), to: input)
            let ours = w.dir + "/ours\(orientation).jpg", theirs = w.dir + "/theirs\(orientation).jpg"
            #expect(try await shrink("orient", input, "-o", ours, "--lossless").status == 0)
            let jpegtran = try await ChildProcess.run(
                "/usr/bin/jpegtran", args + ["-perfect", "-copy", "all", "-outfile", theirs, input])
            #expect(jpegtran.status == 0)
            let a = try ImageSource(path: ours), b = try ImageSource(path: theirs)
            #expect(a.info.orientation == .up, "orientation \(orientation)")
            let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
            // jpegtran keeps the tag as it was; read both without orientation to compare the stored pixels.
            #expect(
                try await a.image(options: rgb).pixels.bytes
                    == ImageSource(bytes: JPEGTransform.settingOrientationUp(Corpus.readBytes(theirs)!))
                    .image(options: rgb).pixels.bytes, "orientation \(orientation)")
            // Not re-quantised: the tables are jpegtran's, which are the input's (transposed for the transposing
            // operations, 5–8).
            #expect(quantTables(ours) == quantTables(theirs))
            if orientation <= 4 { #expect(quantTables(ours) == quantTables(input)) }
            #expect(b.info.size == a.info.size)
        }
        // An image whose edge blocks cannot move exactly: an error, or trimmed on request.
        let odd = w.dir + "/odd.jpg"
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 70, height: 50), chroma444: false, orientation: 6), to: odd)
        let refused = try await shrink("orient", odd, "-o", w.dir + "/x.jpg", "--lossless")
        #expect(refused.status == 1 && refused.err.contains("perfect"))
        #expect(try await shrink("orient", odd, "-o", w.dir + "/t.jpg", "--lossless", "--trim").status == 0)
        _ = try await ChildProcess.run(
            "/usr/bin/jpegtran", ["-rotate", "90", "-trim", "-outfile", w.dir + "/jt.jpg", odd])
        let trimmed = try ImageSource(path: w.dir + "/t.jpg").info.size
        #expect(trimmed == (try ImageSource(path: w.dir + "/jt.jpg").info.size) && trimmed.width < 50)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jpegtran"),
            "needs jpegtran (libjpeg-turbo-progs)"))
    func losslessCropMatchesJpegtran() async throws {
        let w = try workspace()
        let input = w.dir + "/c.jpg"
        try FileOutput.write(
            try TestImages.jpeg(TestImages.pattern(width: 160, height: 96), chroma444: false), to: input)
        let r = try await shrink(
            "crop", input, "--rect", "20,20,50,40", "--lossless", "-o", w.dir + "/ours.jpg", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(object?["rect"] as? String == "16,16,54,44") // origin down to 16, far edge kept
        _ = try await ChildProcess.run(
            "/usr/bin/jpegtran", ["-crop", "54x44+16+16", "-outfile", w.dir + "/theirs.jpg", input])
        let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        #expect(
            try await ImageSource(path: w.dir + "/ours.jpg").image(options: rgb).pixels.bytes
                == ImageSource(path: w.dir + "/theirs.jpg").image(options: rgb).pixels.bytes)
        #expect(quantTables(w.dir + "/ours.jpg") == quantTables(input))
    }

    @Test func usageErrorsExitTwo() async throws {
        let w = try workspace()
        for args in [
            ["thumbnail", w.photo, "--size", "0"], ["thumbnail", w.photo, "--quality", "101"], ["thumbnail"],
            ["thumbnail", w.photo, "--fit", "squash"], ["info"], ["thumbnail", w.photo, "--gravity", "up"],
            ["thumbnail", w.photo, w.photo, "-o", w.dir + "/one.jpg"],
        ] {
            #expect(try await shrink(args).status == 2, "\(args)")
        }
    }
}

/// Reads a PNG's IHDR size (the CLI writes PNGs; Shrink does not decode PNG yet).
enum ImageSourceProbe {
    static func pngSize(_ path: String) throws -> PixelSize? {
        guard let b = Corpus.readBytes(path), b.count >= 24, b[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return PixelSize(width: u32(16), height: u32(20))
    }
}
