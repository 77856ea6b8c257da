import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// The route a plan takes is one value that both decodes and predicts memory: for every codec and route,
/// the predicted peak must cover what the decode really held, and not by more than a stated factor.
///
/// "Really held" is the allocator's high-water mark over the decode, read in a process of its own where glibc
/// is told never to map and never to trim (so its hold from the system only grows and nothing a C codec
/// allocates and frees between two checkpoints escapes): `heapHighWaterBytes` in `shrink thumbnail --json`
/// (the growth from a trimmed start; free chunks left from before, a few tens of KiB, can hide that much).
@Suite struct RoutePredictionTests {
    let cli = CLITests()
    static let tunables = [
        "GLIBC_TUNABLES": "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=0"
    ]
    /// Prediction may exceed the high-water mark by this factor, plus a fixed 512 KiB for small decodes
    /// (library state estimates are rounded up; a few allocator pages).
    static let factor = 4
    static let slack = 512 << 10

    struct Case {
        let name: String
        let bytes: [UInt8]
        let size: Int
        let output: String
        let path: DecodePath
        var options: [String] = []
    }

    static func cases() throws -> [Case] {
        let photo = TestImages.pattern(width: 1600, height: 1200)
        var rgba = PixelConverter.convert(photo, to: .rgba8).bytes
        for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = UInt8((i / 4) % 1600 * 255 / 1599) }
        let alpha = PixelBuffer(format: .rgba8, size: photo.size, bytes: rgba)
        let baseline = try TestImages.jpeg(photo, chroma444: false)
        let panorama = try TestImages.jpeg(TestImages.pattern(width: 6000, height: 1000), chroma444: false)
        let progressive = try TestImages.jpeg(photo, chroma444: false, progressive: true)
        let lossy = try WebPEncoder(options: .init(quality: 80)).encode(photo)
        var palette: [UInt8] = []
        for i in 0..<256 { palette += [UInt8(i), UInt8(255 - i), UInt8(i * 7 & 0xFF)] }
        let indices = TestGIF.pattern(width: 1600, height: 1200, colors: 256)
        let gif = TestGIF.file(
            width: 1600, height: 1200, palette: palette,
            frames: [TestGIF.Frame(width: 1600, height: 1200, indices: indices)], loopCount: 0)
        let interlaced = TestGIF.file(
            width: 1600, height: 1200, palette: palette,
            frames: [TestGIF.Frame(width: 1600, height: 1200, indices: indices, interlaced: true)])
        return [
            Case(name: "GIF rows", bytes: gif, size: 200, output: "jpg", path: .firstFrameRows),
            Case(
                name: "GIF interlaced", bytes: interlaced, size: 200, output: "png", path: DecodePath("interlacedFrame")
            ),
            Case(name: "JPEG rows", bytes: baseline, size: 200, output: "png", path: .dctScaledRows),
            Case(name: "JPEG planes", bytes: baseline, size: 200, output: "jpg", path: .dctScaledPlanes),
            // A narrow crop of a wide image: the planes' rings hold only the columns the crop reads.
            Case(
                name: "JPEG planes, a cover crop of a panorama", bytes: panorama, size: 300, output: "jpg",
                path: .dctScaledPlanes, options: ["--size", "60x300", "--fit", "cover"]),
            Case(name: "JPEG DC-only planes", bytes: baseline, size: 100, output: "jpg", path: .dcOnly),
            Case(name: "JPEG coefficients", bytes: progressive, size: 200, output: "png", path: .coefficientBuffer),
            Case(
                name: "JPEG coefficients to planes", bytes: progressive, size: 200, output: "jpg",
                path: .dctScaledPlanes),
            Case(name: "JPEG DC-first planes", bytes: progressive, size: 100, output: "jpg", path: .dcFirst),
            Case(name: "JPEG DC-first rows", bytes: progressive, size: 100, output: "png", path: .dcFirst),
            Case(name: "PNG rows", bytes: try PNGEncoder().encode(alpha), size: 200, output: "png", path: .rows),
            Case(name: "WebP planes", bytes: lossy, size: 200, output: "jpg", path: .scaledPlanes),
            Case(name: "WebP rows", bytes: lossy, size: 200, output: "png", path: .scaledRows),
            Case(
                name: "WebP rows with alpha", bytes: try WebPEncoder(options: .init(quality: 80)).encode(alpha),
                size: 200,
                output: "png", path: .scaledRows),
            Case(
                name: "WebP lossless", bytes: try WebPEncoder(options: .init(lossless: true, method: 0)).encode(alpha),
                size: 200,
                output: "png", path: .wholeImage),
            // JPEG XL: libjxl decodes the frame whole into one buffer, its own state as the header predicts it
            // (without and with an extra channel).
            Case(
                name: "JPEG XL lossy", bytes: try JXLEncoder(options: .init(quality: 85)).encode(photo), size: 400,
                output: "jpg", path: DecodePath("jxlFrame")),
            Case(
                name: "JPEG XL lossy with alpha", bytes: try JXLEncoder(options: .init(quality: 85)).encode(alpha),
                size: 400, output: "png", path: DecodePath("jxlFrame")),
            Case(
                name: "JPEG XL lossless", bytes: try JXLEncoder(options: .init(lossless: true)).encode(photo),
                size: 400, output: "png", path: DecodePath("jxlFrame")),
        ]
    }

    @Test func predictionCoversWhatEveryRouteHolds() async throws {
        try await check(try Self.cases())
    }

    /// The routes only the corpus has files for: Adam7 PNG, HEIC tiles, a phone JPEG's restart bands, AVIF (single,
    /// grid, deep, alpha), 16-bit results, and derived images through libheif.
    @Test(.needsCorpus) func corpusRoutesPredictWhatTheyHold() async throws {
        func file(_ path: String) throws -> [UInt8] { try #require(Corpus.readBytes(Corpus.path(path)), "\(path)") }
        var all: [Case] = []
        // Adam7: the encoder writes no interlaced PNG, the corpus has them.
        all.append(
            Case(
                name: "PNG interlaced", bytes: try file("png/pngsuite/basi6a16.png"), size: 8,
                output: "png", path: .interlacedPasses))
        // HEIC: an iPhone photo's 48 tiles a row at a time (planes, and rows; at 1/4 for 400 px, at 1/2 for 1000 px,
        // and a cover crop at 1/4 that decodes only some tiles), a single image with alpha.
        let iphone = try file("heic/exif-samples/iphone_13_pro_max.HEIC")
        all.append(
            Case(
                name: "HEIC tile rows at 1/2 to planes", bytes: iphone, size: 1000, output: "jpg",
                path: DecodePath("tileRows")))
        all.append(
            Case(
                name: "HEIC tile rows, a cover crop at 1/4", bytes: iphone, size: 300, output: "jpg",
                path: DecodePath("tileRows"), options: ["--size", "100x300", "--fit", "cover"]))
        all.append(
            Case(
                name: "HEIC tile rows to planes", bytes: iphone, size: 400, output: "jpg", path: DecodePath("tileRows"))
        )
        all.append(
            Case(name: "HEIC tile rows to rows", bytes: iphone, size: 400, output: "png", path: DecodePath("tileRows")))
        all.append(
            Case(
                name: "HEIC with alpha", bytes: try file("heic/libheif/with-alpha-512x512.heic"),
                size: 100, output: "png", path: .wholeImage))
        // A phone's JPEG with a restart marker every row of MCUs (8 MP): in bands on the reader's thread and a helper
        // (two rows of two bands, a decoder each), at 1/4 and at 1/2; on one core, one decoder streams it.
        let phone = try file("exif/exif-samples/phone/iphone_hdr_YES.jpg")
        let banded = ProcessInfo.processInfo.activeProcessorCount > 1 ? DecodePath("restartBands") : .dctScaledPlanes
        all.append(Case(name: "JPEG restart bands at 1/4", bytes: phone, size: 400, output: "jpg", path: banded))
        all.append(Case(name: "JPEG restart bands at 1/2", bytes: phone, size: 1000, output: "jpg", path: banded))
        // AVIF: a single 8-bit image (dav1d's picture is the band), a grid, 10-bit 4:4:4, alpha.
        for (name, path, size, output, route) in [
            ("AVIF single image", "avif/libvips/avif-orientation-6.avif", 400, "jpg", "wholeImage"),
            ("AVIF grid", "avif/av1-avif/Summer_in_Tomsk_720p_5x4_grid.avif", 400, "png", "tileRows"),
            (
                "AVIF 10-bit 4:4:4", "avif/av1-avif/fox.profile1.10bpc.yuv444.odd-width.odd-height.avif", 200, "png",
                "wholeImage"
            ),
            ("AVIF with alpha", "avif/av1-avif/bbb_alpha_inverted.avif", 300, "png", "wholeImage"),
        ] {
            all.append(Case(name: name, bytes: try file(path), size: size, output: output, path: DecodePath(route)))
        }
        // 16-bit samples kept for an rgba16 result: the band and libde265's copy at 2 bytes a sample.
        all.append(
            Case(
                name: "AVIF 10-bit to rgba16",
                bytes: try file("avif/av1-avif/fox.profile1.10bpc.yuv444.odd-width.odd-height.avif"),
                size: 200, output: "png", path: .wholeImage, options: ["--pixel-format", "high"]))
        all.append(
            Case(
                name: "HEIC 10-bit with alpha to rgba16",
                bytes: try file("heic/kingfisher/gradient-10b-srgb-alpha.heic"),
                size: 32, output: "png", path: .wholeImage, options: ["--pixel-format", "high"]))
        // Derived images (iovl, iden) libheif decodes whole, charged at 20 B/px: a 12 MP one turned by irot holds
        // 18.6 B/px at its peak.
        let kodim = try TestHEIF.codedItem(of: try file("avif/libavif/kodim03_yuv420_8bpc.avif"), name: "kodim03")
        all.append(
            Case(
                name: "AVIF overlay through libheif",
                bytes: TestHEIF.overlay(twice: kodim, majorBrand: "avif", gap: 16, fill: [0, 0, 0, 65535]),
                size: 200, output: "jpg", path: DecodePath("libheifWhole")))
        let big = try TestHEIF.codedItem(of: try file("avif/libvips/avif-orientation-6.avif"), name: "big")
        all.append(
            Case(
                name: "AVIF 12 MP iden turned through libheif",
                bytes: TestHEIF.identity(of: big, majorBrand: "avif", quarterTurns: 3),
                size: 400, output: "jpg", path: DecodePath("libheifWhole")))
        all.append(
            Case(
                name: "AVIF iden through libheif",
                bytes: TestHEIF.identity(of: kodim, majorBrand: "avif", quarterTurns: 3),
                size: 200, output: "png", path: DecodePath("libheifWhole")))
        try await check(all)
    }

    /// Thumbnails each case in a process of its own and checks its route, and that its prediction covers what it
    /// held by no more than ``factor`` and ``slack``.
    func check(_ all: [Case]) async throws {
        let dir = NSTemporaryDirectory() + "shrink-routes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (i, c) in all.enumerated() {
            let input = "\(dir)/\(i)"
            try FileOutput.write(c.bytes, to: input)
            let r = try await cli.shrink(
                ["thumbnail", input, "--size", String(c.size), "-o", "\(dir)/\(i).\(c.output)", "--json"] + c.options,
                environment: Self.tunables)
            #expect(r.status == 0, "\(c.name): \(r.err)")
            let line = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any] ?? [:]
            let predicted = line["predictedPeakBytes"] as? Int ?? 0, held = line["heapHighWaterBytes"] as? Int ?? -1
            print("route \(c.name): \(line["path"] ?? "?") predicted \(predicted) held \(held)")
            #expect(line["path"] as? String == c.path.name, "\(c.name) took \(line["path"] ?? "?")")
            #expect(held > 0 && predicted >= held, "\(c.name): predicted \(predicted) B, held \(held) B")
            #expect(
                predicted <= Self.factor * held + Self.slack, "\(c.name): predicted \(predicted) B, held only \(held) B"
            )
        }
    }
}
