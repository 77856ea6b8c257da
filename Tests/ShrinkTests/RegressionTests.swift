import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// The inputs that crashed, hung or exhausted memory in Shrink (copies in `Tests/Regressions/`, from
/// `../shared/regressions/`), and the argument values that trapped: each must give a typed error.
@Suite struct RegressionTests {
    static let directory = Corpus.projectRoot + "/Tests/Regressions"

    static func path(_ name: String) -> String { directory + "/" + name }

    /// The 50,000-scan file, unpacked once into a temporary file (it is stored gzipped).
    static let scanBomb: String = {
        let out = NSTemporaryDirectory() + "shrink-scan-bomb-\(getpid()).jpg"
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc '\(path("progressive-50000-scans.jpg.gz"))' > '\(out)'"]
        try? gunzip.run()
        gunzip.waitUntilExit()
        return out
    }()

    /// Runs `body` and checks it fails with `code`, naming `file`.
    static func expectError(_ code: ImageError.Code, naming file: String, _ what: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("\(what): no error")
        } catch let error as ImageError {
            #expect(error.code == code, "\(what): \(error)")
            #expect(error.description.contains(file), "\(what): \(error)")
        } catch {
            Issue.record("\(what): not an ImageError: \(error)")
        }
    }

    /// A double free (found this session, on a corrupt corpus file under check-agreement): a WebP frame whose
    /// decode failed freed its buffer in init and again in deinit. Now a typed error on every route.
    @Test func aFailedWebPFrameIsFreedOnce() {
        let file = Self.path("webp-failed-frame-double-free.webp")
        for format in [PixelFormatRequest.memoryOptimized, .exactly(.rgba8), .native] {
            Self.expectError(.corruptData, naming: "webp-failed-frame-double-free.webp", "\(format)") {
                _ = try ImageSource(path: file).thumbnail(
                    maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: format))
            }
        }
    }

    /// Heap overflow in the DC-first Huffman table: rejected as corrupt on every route, header included.
    @Test(arguments: ["huffman-oversubscribed-min.jpg", "huffman-oversubscribed-progressive.jpg"])
    func oversubscribedHuffmanTablesAreCorrupt(name: String) {
        let file = Self.path(name)
        var routes = 0
        for target in [ThumbnailTarget.prescale(8), .maxPixelSize(16), .original] {
            do {
                let source = try ImageSource(path: file)
                // reads the scan script (the DC-first tables)
                _ = source.decoder.route(RouteRequest(scaleDenominator: 8))
                _ = try source.image(target)
                Issue.record("\(name) \(target) decoded")
            } catch {
                #expect(error.code == .corruptData || error.code == .truncated, "\(name) \(target): \(error)")
                #expect(error.description.contains(name))
                routes += 1
            }
        }
        #expect(routes == 3)
    }

    /// A 190-byte file declaring 20000×20000: lossless transforms are refused from the header, by the
    /// default pixel limit, by a caller's limit, and by the memory budget when the pixel limit allows it.
    @Test func losslessTransformsCheckTheLimitsFirst() throws {
        let name = "lossless-20000x20000-orientation6.jpg"
        for limits in [ImageLimits(), ImageLimits(maxPixels: 50_000_000)] {
            let source = try ImageSource(path: Self.path(name), limits: limits)
            Self.expectError(.limitExceeded, naming: name, "upright") { _ = try source.losslesslyUpright() }
            Self.expectError(.limitExceeded, naming: name, "crop") {
                _ = try source.losslessCrop(PixelRect(x: 0, y: 0, width: 16, height: 16))
            }
        }
        let roomy = try ImageSource(
            path: Self.path(name), limits: ImageLimits(maxPixels: 500_000_000, maxWorkingBytes: 64 << 20))
        Self.expectError(.memoryBudgetExceeded, naming: name, "upright, roomy limits") {
            _ = try roomy.losslesslyUpright()
        }
        Self.expectError(.memoryBudgetExceeded, naming: name, "crop, roomy limits") {
            _ = try roomy.losslessCrop(PixelRect(x: 0, y: 0, width: 16, height: 16))
        }
    }

    /// 50,000 tiny scans: refused by the scan limit on the libjpeg route, the DC-first route and before a
    /// lossless transform; a caller may raise the limit.
    @Test func scanBombsAreRefusedByTheScanLimit() throws {
        let source = try ImageSource(path: Self.scanBomb)
        #expect(source.info.isProgressive)
        for target in [ThumbnailTarget.prescale(8), .maxPixelSize(64), .maxPixelSize(1500)] {
            Self.expectError(.limitExceeded, naming: Self.scanBomb, "\(target)") { _ = try source.image(target) }
        }
        Self.expectError(.limitExceeded, naming: Self.scanBomb, "lossless crop") {
            _ = try source.losslessCrop(PixelRect(x: 0, y: 0, width: 16, height: 16))
        }
        do {
            _ = try source.image(.maxPixelSize(64))
            Issue.record("the scan bomb decoded")
        } catch {
            #expect(error.description.contains("500 scans"), "\(error)")
        }
    }

    /// Arguments that trapped (SIGILL) in Double → Int conversions and overflowing arithmetic.
    @Test func hostileArgumentsAreInvalidArguments() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 64, height: 48), chroma444: false)
        let source = try ImageSource(bytes: bytes, name: "args.jpg")
        let rects = [
            PixelRect(x: -1, y: 0, width: 8, height: 8), PixelRect(x: 0, y: 0, width: Int.max, height: 8),
            PixelRect(x: Int.max, y: 0, width: 8, height: 8),
            PixelRect(x: Int.min, y: Int.min, width: Int.max, height: 1),
            PixelRect(x: 0, y: 0, width: 0, height: 8), PixelRect(x: 60, y: 0, width: 5, height: 8),
            PixelRect(x: 1, y: 1, width: Int.max, height: Int.max),
        ]
        for rect in rects {
            Self.expectError(.invalidArgument, naming: "args.jpg", "region \(rect)") {
                _ = try source.image(.maxPixelSize(16), region: rect)
            }
            Self.expectError(.invalidArgument, naming: "args.jpg", "lossless crop \(rect)") {
                _ = try source.losslessCrop(rect)
            }
        }
        let upscaling = ThumbnailOptions(allowUpscaling: true)
        for target in [
            ThumbnailTarget.maxPixelSize(Int.max), .box(PixelSize(width: Int.max, height: 1), fit: .cover),
            .box(PixelSize(width: 1, height: Int.max), fit: .inside), .maxPixelSize(Int.min), .prescale(Int.max),
        ] {
            do {
                _ = try source.image(target, options: upscaling)
                Issue.record("\(target) decoded")
            } catch {
                #expect([.invalidArgument, .unsupportedFeature].contains(error.code), "\(target): \(error)")
            }
        }
        // Large but representable targets with upscaling are bounded by the pixel limit, not a trap.
        Self.expectError(.limitExceeded, naming: "args.jpg", "1<<30 upscaled") {
            _ = try source.image(.maxPixelSize(1 << 30), options: upscaling)
        }
    }
}
