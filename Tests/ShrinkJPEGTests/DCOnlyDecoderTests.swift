import Foundation
import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

/// The DC-only route (Shrink's own entropy decode of a sequential JPEG at 1/8, AC codes skipped) against
/// libjpeg's planar 1/8 decode of the same bytes: the same planes, byte for byte, and the same outcome for
/// damaged files.
@Suite struct DCOnlyDecoderTests {
    /// What one decode gave: the planes, or the error's code; and its warnings.
    struct Outcome: Equatable {
        var planes: [[UInt8]] = []
        var error: ImageError.Code?
        var warnings: [String] = []
    }

    static func decode(_ start: () throws -> any PlaneDecoding) -> Outcome {
        do {
            let decoder = try start()
            let planes = try DCFirstDecoderTests.planes(decoder)
            return Outcome(planes: planes, warnings: decoder.warnings)
        } catch {
            return Outcome(error: (error as? ImageError)?.code ?? .io)
        }
    }

    /// Ours and libjpeg's, for `bytes`; nil when the file does not take the DC-only route.
    static func both(_ bytes: [UInt8], strict: Bool = false) throws -> (ours: Outcome, libjpeg: Outcome)? {
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "test")
        let route = decoder.route(RouteRequest(scaleDenominator: 8, wantsPlanes: true))
        guard route.path == .dcOnly else { return nil }
        let options = DecodeOptions(strict: strict)
        let ours = decode {
            guard case .planes(let p) = try route.start(options: options) else {
                throw ImageError(.invalidArgument, "rows")
            }
            return p
        }
        return (ours, decode { try decoder.startPlanes(scaleDenominator: 8, options: options) })
    }

    @Test(arguments: [
        (false, 333, 251, 92), (true, 333, 251, 92), (false, 17, 9, 75), (false, 1000, 8, 100),
        (true, 64, 64, 100), (false, 1601, 1203, 98), (false, 640, 480, 30),
    ])
    func planesAreLibjpegs(_ chroma444: Bool, _ width: Int, _ height: Int, _ quality: Int) throws {
        let bytes = try TestImages.jpeg(
            TestImages.pattern(width: width, height: height), quality: quality, chroma444: chroma444)
        let result = try #require(
            try Self.both(bytes), "a baseline YCbCr JPEG takes the DC-only route at 1/8 with planes")
        #expect(result.ours.error == nil && result.ours.warnings.isEmpty)
        #expect(
            result.ours.planes.map(\.count) == [
                (width + 7) / 8 * ((height + 7) / 8),
                chroma444 ? (width + 7) / 8 * ((height + 7) / 8) : (width + 15) / 16 * ((height + 15) / 16),
                chroma444 ? (width + 7) / 8 * ((height + 7) / 8) : (width + 15) / 16 * ((height + 15) / 16),
            ])
        #expect(result.ours == result.libjpeg, "\(width)x\(height) q\(quality) \(chroma444 ? "4:4:4" : "4:2:0")")
    }

    @Test func otherRequestsAndFilesKeepTheirRoutes() throws {
        let photo = TestImages.pattern(width: 320, height: 240)
        let baseline = try JPEGDecoder(bytes: ImageBytes(try TestImages.jpeg(photo)), path: "baseline")
        #expect(baseline.route(RouteRequest(scaleDenominator: 8, wantsPlanes: false)).path == .dctScaledRows)
        #expect(baseline.route(RouteRequest(scaleDenominator: 4, wantsPlanes: true)).path == .dctScaledPlanes)
        let progressive = try JPEGDecoder(
            bytes: ImageBytes(try TestImages.jpeg(photo, progressive: true)), path: "progressive")
        #expect(progressive.route(RouteRequest(scaleDenominator: 8, wantsPlanes: true)).path == .dcFirst)
        let gray = try JPEGDecoder(
            bytes: ImageBytes(try TestImages.jpeg(TestImages.grayRamp(width: 200, height: 120))), path: "gray")
        #expect(gray.route(RouteRequest(scaleDenominator: 8, wantsPlanes: true)).path != .dcOnly)
    }

    /// Cut files and flipped bytes: never a crash; a cut file is `.truncated` as libjpeg has it; flipped bytes
    /// decode (with warnings) whenever libjpeg decodes them, and strict decoding refuses them as corrupt or cut.
    @Test func damageGetsLibjpegsOutcome() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 480, height: 320), quality: 90, chroma444: false)
        var cuts = 0
        for cut in stride(from: 700, to: bytes.count, by: 211) + [bytes.count - 2, bytes.count - 1] {
            guard let r = try? Self.both(Array(bytes[0..<cut])) else { continue }
            // libjpeg reads past the last row for the EOI, so even a file that lost only its EOI is truncated.
            #expect(
                r.ours.error == .truncated && r.libjpeg.error == .truncated,
                "cut at \(cut) of \(bytes.count): ours \(String(describing: r.ours.error)), libjpeg \(String(describing: r.libjpeg.error))"
            )
            cuts += 1
        }
        #expect(cuts > 20, "\(cuts) cuts took the route")
        var damage = SeededDamage()
        var damaged = (decoded: 0, strictRefused: 0)
        for _ in 0..<200 {
            let data = damage.next(bytes, flips: 3, from: 700)
            guard let lenient = try Self.both(data), let strict = try Self.both(data, strict: true) else { continue }
            if lenient.libjpeg.error == nil {
                #expect(
                    lenient.ours.error == nil,
                    "libjpeg decoded a damaged file ours refused: \(String(describing: lenient.ours.error))")
                #expect(lenient.ours.planes.map(\.count) == lenient.libjpeg.planes.map(\.count))
                damaged.decoded += 1
            }
            if let code = strict.ours.error {
                #expect(code == .corruptData || code == .truncated, "\(code)")
                damaged.strictRefused += 1
            }
        }
        #expect(damaged.decoded > 100 && damaged.strictRefused > 50, "\(damaged)")
    }

    /// A baseline file with a restart marker every MCU row (`jpegtran -restart 1`), clean and with its markers
    /// damaged in each way libjpeg resynchronises (jdmarker.c): the same planes as libjpeg's, and a warning
    /// from both for every damaged one.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jpegtran"),
            "needs jpegtran (libjpeg-turbo-progs)"))
    func restartMarkersAndTheirDamage() async throws {
        let plain = try TestImages.jpeg(TestImages.pattern(width: 480, height: 320), quality: 90, chroma444: false)
        let input = NSTemporaryDirectory() + "shrink-rst-\(UUID().uuidString).jpg"
        try Data(plain).write(to: URL(fileURLWithPath: input))
        defer { try? FileManager.default.removeItem(atPath: input) }
        let bytes = try await ChildProcess.bytes("/usr/bin/jpegtran", ["-restart", "1", input])
        let clean = try #require(try Self.both(bytes))
        #expect(clean.ours == clean.libjpeg && clean.ours.error == nil && clean.ours.warnings.isEmpty)
        // The RSTn markers inside the scan, and what each damage does to the one at `at`.
        let start = try #require((2..<bytes.count).first { bytes[$0 - 2] == 0xFF && bytes[$0 - 1] == 0xDA })
        let markers = (start..<bytes.count - 1).filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
        #expect(markers.count == 320 / 16 - 1)
        // Each damage to the marker at `at`, the one before it at `before`.
        let damages: [(String, ([UInt8], Int, Int) -> [UInt8])] = [
            (
                "another marker (0xF7) instead",
                { b, at, _ in
                    var d = b; d[at + 1] = 0xF7; return d
                }
            ),
            (
                "the next restart number",
                { b, at, _ in
                    var d = b; d[at + 1] = 0xD0 + (d[at + 1] - 0xD0 + 1) & 7; return d
                }
            ),
            (
                "an earlier restart number",
                { b, at, _ in
                    var d = b; d[at + 1] = 0xD0 + (d[at + 1] - 0xD0 + 7) & 7; return d
                }
            ),
            (
                "a number four away",
                { b, at, _ in
                    var d = b; d[at + 1] = 0xD0 + (d[at + 1] - 0xD0 + 4) & 7; return d
                }
            ),
            ("stray bytes before it", { b, at, _ in Array(b[..<at]) + [0x12, 0x34, 0x56] + Array(b[at...]) }),
            ("fill bytes before it", { b, at, _ in Array(b[..<at]) + [0xFF, 0xFF] + Array(b[at...]) }),
            ("the marker removed", { b, at, _ in Array(b[..<at]) + Array(b[(at + 2)...]) }),
            // The interval before it runs out of data halfway: its remaining blocks are grey, its predictions untouched.
            (
                "another marker halfway through the interval before it",
                { b, at, before in
                    let cut = (before + at) / 2
                    return Array(b[..<cut]) + [0xFF, 0xF7] + Array(b[cut...])
                }
            ),
        ]
        for (name, damage) in damages {
            for i in [3, markers.count / 2] {
                let at = markers[i]
                let r = try #require(try Self.both(damage(bytes, at, markers[i - 1])), "\(name)")
                #expect(
                    r.ours.error == nil && r.libjpeg.error == nil,
                    "\(name) at \(at): \(String(describing: r.ours.error)) \(String(describing: r.libjpeg.error))")
                #expect(r.ours.planes == r.libjpeg.planes, "\(name) at \(at): planes differ from libjpeg's")
                // Fill bytes are allowed before a marker (libjpeg says nothing); everything else is damage.
                let damaged = name != "fill bytes before it"
                #expect(
                    r.ours.warnings.isEmpty != damaged && r.libjpeg.warnings.isEmpty != damaged,
                    "\(name) at \(at): ours \(r.ours.warnings), libjpeg \(r.libjpeg.warnings)")
            }
        }
    }

    /// Every corpus JPEG that takes the route: libjpeg's planes exactly when libjpeg decodes it cleanly, and never
    /// a refusal of a file libjpeg decodes.
    @Test(.needsCorpus) func corpusFilesGiveLibjpegsPlanes() throws {
        var counts = (files: 0, identical: 0, damaged: 0)
        for entry in Corpus.entries where entry.format == "jpeg" {
            guard let bytes = Corpus.readBytes(Corpus.path(entry.path)), let r = try? Self.both(bytes) else { continue }
            counts.files += 1
            if r.libjpeg.error == nil && r.libjpeg.warnings.isEmpty {
                #expect(r.ours == r.libjpeg, "\(entry.path): \(String(describing: r.ours.error)) \(r.ours.warnings)")
                if r.ours == r.libjpeg { counts.identical += 1 }
            } else {
                counts.damaged += 1
                if r.libjpeg.error == nil {
                    #expect(
                        r.ours.error == nil,
                        "\(entry.path): libjpeg decoded it with \(r.libjpeg.warnings), ours: \(String(describing: r.ours.error))"
                    )
                }
            }
        }
        print("DC-only corpus: \(counts)")
        // 188 files took the route and 160 of them libjpeg decodes cleanly (recorded once).
        #expect(counts.files >= 150 && counts.identical >= 130, "\(counts)")
    }
}
