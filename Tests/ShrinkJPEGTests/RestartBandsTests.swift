import Foundation
import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

/// The restart-band route (a baseline JPEG cut at its restart markers into bands, each decoded by a libjpeg decoder of
/// its own, on helper threads beside the reader) against one libjpeg decoder's planes of the same bytes: the same
/// samples, byte for byte, for clean files; damage found and reported the same way (a warning, or an error when
/// strict), whichever thread's band it falls in.
@Suite struct RestartBandsTests {
    typealias Outcome = DCOnlyDecoderTests.Outcome

    /// A photo-like RGB image: gradients under deterministic noise, so its entropy-coded data has stuffed 0xFF bytes
    /// throughout, as a camera's does.
    static func detailed(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt32 = 0x9E37_79B9
        for i in 0..<width * height {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let x = i % width, y = i / width
            let noise = Int(state & 63)
            bytes[i * 3] = UInt8((x * 200 / width + noise) & 255)
            bytes[i * 3 + 1] = UInt8((y * 200 / height + noise / 2) & 255)
            bytes[i * 3 + 2] = UInt8(((x + y) % 97 + noise) & 255)
        }
        return PixelBuffer(format: .rgb8, size: PixelSize(width: width, height: height), bytes: bytes)
    }

    /// `pixels` as a baseline JPEG with restart markers every `restart` (`jpegtran -restart`: rows of MCUs, or MCUs
    /// with a `B` suffix).
    static func withRestarts(_ pixels: PixelBuffer, chroma444: Bool, restart: String) async throws -> [UInt8] {
        let plain = try TestImages.jpeg(pixels, quality: 90, chroma444: chroma444)
        let input = NSTemporaryDirectory() + "shrink-bands-\(UUID().uuidString).jpg"
        try Data(plain).write(to: URL(fileURLWithPath: input))
        defer { try? FileManager.default.removeItem(atPath: input) }
        return try await ChildProcess.bytes("/usr/bin/jpegtran", ["-restart", restart, input])
    }

    /// The bands' outcome (at 1/`d`, lent up to `helpers` threads) and one libjpeg decoder's; nil when the file does
    /// not take the restart-band route.
    static func both(_ bytes: [UInt8], d: Int, helpers: Int, strict: Bool = false) throws -> (
        bands: Outcome, libjpeg: Outcome, lent: Int
    )? {
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "test")
        let route = decoder.route(RouteRequest(scaleDenominator: d, wantsPlanes: true, helped: true))
        guard route.path == .restartBands else { return nil }
        let threads = TestHelperThreads(limit: helpers)
        var options = DecodeOptions(strict: strict)
        options.helpers = helpers > 0 ? threads : nil
        let bands = DCOnlyDecoderTests.decode {
            guard case .planes(let p) = try route.start(options: options) else {
                throw ImageError(.invalidArgument, "rows")
            }
            return p
        }
        let one = DCOnlyDecoderTests.decode {
            try decoder.startPlanes(scaleDenominator: d, options: DecodeOptions(strict: strict))
        }
        return (bands, one, threads.lent.load(ordering: .relaxed))
    }

    @Test(arguments: [
        // width, height, 4:4:4, restart interval, scale, helpers
        (2880, 1792, false, "1", 4, 1), (2880, 1792, false, "1", 2, 0), (2801, 1821, false, "3", 1, 1),
        (2801, 1821, true, "1", 2, 1), (2880, 1800, true, "5B", 4, 2), (2882, 1810, false, "64B", 4, 1),
    ])
    func bandsAreOneDecodersPlanes(
        _ width: Int, _ height: Int, _ chroma444: Bool, _ restart: String, _ d: Int, _ helpers: Int
    ) async throws {
        let bytes = try await Self.withRestarts(
            Self.detailed(width: width, height: height), chroma444: chroma444, restart: restart)
        let r = try #require(try Self.both(bytes, d: d, helpers: helpers), "restart markers every \(restart)")
        #expect(r.bands.error == nil && r.bands.warnings.isEmpty, "\(r.bands.warnings)")
        let same = !r.bands.planes.isEmpty && r.bands == r.libjpeg
        #expect(same, "\(width)x\(height) every \(restart) at 1/\(d): not one decoder's samples")
        #expect(r.lent == helpers, "every helper offered is lent: two rows of two bands are open")
    }

    /// The route is taken only where it can run: helped, planes wanted, restart markers that end on rows of MCUs, an
    /// image above the threshold; libjpeg's single decoder otherwise.
    @Test func routeNeedsHelpersMarkersAndSize() async throws {
        let pixels = Self.detailed(width: 2880, height: 1792)
        let banded = try await Self.withRestarts(pixels, chroma444: false, restart: "1")
        let decoder = try JPEGDecoder(bytes: ImageBytes(banded), path: "test")
        #expect(decoder.route(RouteRequest(scaleDenominator: 4, wantsPlanes: true, helped: true)).path == .restartBands)
        #expect(decoder.route(RouteRequest(scaleDenominator: 4, wantsPlanes: true)).path == .dctScaledPlanes)
        #expect(decoder.route(RouteRequest(scaleDenominator: 4, helped: true)).path == .dctScaledRows)
        #expect(decoder.route(RouteRequest(scaleDenominator: 8, wantsPlanes: true, helped: true)).path == .dcOnly)
        let plain = try TestImages.jpeg(pixels, quality: 90, chroma444: false)
        #expect(
            try JPEGDecoder(bytes: ImageBytes(plain), path: "test")
                .route(RouteRequest(scaleDenominator: 4, wantsPlanes: true, helped: true)).path == .dctScaledPlanes)
        // 127 MCUs an interval against 180 a row: an interval ends on a row every 127 rows, past the image's 112.
        let odd = try await Self.withRestarts(pixels, chroma444: false, restart: "127B")
        #expect(
            try JPEGDecoder(bytes: ImageBytes(odd), path: "test")
                .route(RouteRequest(scaleDenominator: 4, wantsPlanes: true, helped: true)).path == .dctScaledPlanes)
        let small = try await Self.withRestarts(
            Self.detailed(width: 2500, height: 1900), chroma444: false, restart: "1")
        #expect(
            try JPEGDecoder(bytes: ImageBytes(small), path: "test")
                .route(RouteRequest(scaleDenominator: 4, wantsPlanes: true, helped: true)).path == .dctScaledPlanes)
    }

    /// Restart markers damaged inside a band and at a band's edge (where no band's decoder reads the marker: the look
    /// for band starts does), each way libjpeg resynchronises: decoded with a warning, refused when strict. Inside a
    /// band, and where a marker is missing or has stray bytes before it, the samples are one decoder's.
    @Test func damagedMarkersWarnOrFailWhenStrict() async throws {
        let bytes = try await Self.withRestarts(
            Self.detailed(width: 2880, height: 1792), chroma444: false, restart: "1")
        let start = try #require((2..<bytes.count).first { bytes[$0 - 2] == 0xFF && bytes[$0 - 1] == 0xDA })
        let markers = (start..<bytes.count - 1).filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
        #expect(markers.count == 1792 / 16 - 1)
        // Each damage to marker i (its offset markers[i]), and the markers it is tried at.
        func renumbered(_ by: UInt8) -> (Int) -> [UInt8] {
            { i in
                var d = bytes
                d[markers[i] + 1] = 0xD0 + (d[markers[i] + 1] - 0xD0 + by) & 7
                return d
            }
        }
        let damages: [(String, (Int) -> [UInt8], markers: [Int])] = [
            (
                "the marker removed", { i in Array(bytes[..<markers[i]]) + Array(bytes[(markers[i] + 2)...]) },
                [7, 12, 39]
            ),
            (
                "stray bytes before it",
                { i in Array(bytes[..<markers[i]]) + [0x12, 0x34, 0x56] + Array(bytes[markers[i]...]) }, [7, 12, 39]
            ),
            ("the next restart number", renumbered(1), [7, 12, 39]),
            ("two restart numbers on", renumbered(2), [6, 12, 38]),
            ("an earlier restart number", renumbered(7), [7, 12, 39]),
            ("a number four away", renumbered(4), [7, 12, 39]),
            (
                "another marker (0xF7) instead",
                { i in
                    var d = bytes
                    d[markers[i] + 1] = 0xF7
                    return d
                }, [7, 12, 39]
            ),
            (
                "EOI after it",
                { i in Array(bytes[..<(markers[i] + 2)]) + [0xFF, 0xD9] + Array(bytes[(markers[i] + 2)...]) }, [7, 12]
            ),
            (
                "it and the interval before it removed",
                { i in Array(bytes[..<markers[i - 1]]) + Array(bytes[(markers[i] + 2)...]) }, [7, 39]
            ),
        ]
        // Bands are 8 rows of MCUs: the marker after row 7 ends the first band, the one after row 12 is inside one.
        // At 1/4 a block decoded from no data and a grey one can give the same samples; at 1/2 they do not.
        for (name, damage, at) in damages {
            for i in at {
                let damaged = damage(i)
                for d in [4, 2] {
                    let r = try #require(try Self.both(damaged, d: d, helpers: 1), "\(name)")
                    #expect(
                        (r.bands.error == nil) == (r.libjpeg.error == nil),
                        "\(name) at marker \(i), 1/\(d): \(String(describing: r.bands.error))")
                    #expect(!r.bands.warnings.isEmpty || r.bands.error != nil, "\(name) at marker \(i): no warning")
                    let same = r.bands.planes == r.libjpeg.planes
                    #expect(same, "\(name) at marker \(i), 1/\(d): not one decoder's samples")
                }
                let strict = try #require(try Self.both(damaged, d: 4, helpers: 1, strict: true))
                #expect(
                    strict.bands.error == .corruptData || strict.bands.error == .truncated,
                    "\(name) at marker \(i), strict: \(String(describing: strict.bands.error))")
            }
        }
        // Intervals of 3 rows: bands of 9 rows, 3 intervals each, so band 1's markers are numbered from RST3. One inside
        // it numbered as if the band counted from RST0 is damage all the same.
        let threes = try await Self.withRestarts(
            Self.detailed(width: 2880, height: 1792), chroma444: false, restart: "3")
        let scan = try #require((2..<threes.count).first { threes[$0 - 2] == 0xFF && threes[$0 - 1] == 0xDA })
        let inside = try #require(
            (scan..<threes.count - 1).filter { threes[$0] == 0xFF && (0xD0...0xD7).contains(threes[$0 + 1]) }
                .dropFirst(3).first)
        #expect(threes[inside + 1] == 0xD3)
        for number: UInt8 in [0xD0, 0xD1] {
            var damaged = threes
            damaged[inside + 1] = number
            let r = try #require(try Self.both(damaged, d: 4, helpers: 1), "RST3 as \(number)")
            let same = r.bands.planes == r.libjpeg.planes
            #expect(r.bands.error == nil && !r.bands.warnings.isEmpty && same, "RST3 numbered \(number)")
            let strict = try #require(try Self.both(damaged, d: 4, helpers: 1, strict: true))
            #expect(strict.bands.error == .corruptData, "RST3 numbered \(number), strict")
        }
        // Cut short: truncated, from the band that runs out whichever thread decodes it.
        for cut in [bytes.count / 3, bytes.count - 2] {
            let r = try #require(try Self.both(Array(bytes[..<cut]), d: 2, helpers: 1))
            #expect(r.bands.error == .truncated && r.libjpeg.error == .truncated, "cut at \(cut)")
        }
    }

    /// Every corpus JPEG that takes the route (phone photos among them): libjpeg's planes exactly when libjpeg decodes
    /// it cleanly, warnings where it warns, and an error where it fails.
    @Test(.needsCorpus) func corpusFilesGiveLibjpegsPlanes() throws {
        var counts = (files: 0, identical: 0, damaged: 0)
        for entry in Corpus.entries where entry.format == "jpeg" {
            guard let bytes = Corpus.readBytes(Corpus.path(entry.path)),
                let r = try? Self.both(bytes, d: 4, helpers: 1)
            else { continue }
            counts.files += 1
            if r.libjpeg.error == nil && r.libjpeg.warnings.isEmpty {
                let same = r.bands == r.libjpeg
                #expect(same, "\(entry.path): \(String(describing: r.bands.error)) \(r.bands.warnings)")
                if same { counts.identical += 1 }
            } else {
                counts.damaged += 1
                #expect(
                    (r.bands.error == nil) == (r.libjpeg.error == nil)
                        && !(r.bands.warnings.isEmpty && r.bands.error == nil),
                    "\(entry.path): libjpeg \(String(describing: r.libjpeg.error)) \(r.libjpeg.warnings), bands \(String(describing: r.bands.error)) \(r.bands.warnings)"
                )
            }
        }
        print("restart-band corpus: \(counts)")
        #expect(counts.files >= 3 && counts.identical >= 2, "\(counts)")
    }

    /// The bands' look for their starts: markers counted as libjpeg counts them, by number.
    @Test func bandStartsFollowMarkerNumbers() {
        // From interval 6: RST6 and RST7 (after a fill byte) end two intervals; an 0xFF 0x12 is passed over; RST1
        // comes where RST0 should, so RST0 went missing: it ends interval 8 too.
        let data: [UInt8] = [
            1, 0xFF, 0x00, 2, 0xFF, 0xD6, 3, 0xFF, 0xFF, 0xD7, 4, 0xFF, 0x12, 5, 0xFF, 0xD1, 6, 0xFF, 0xD9,
        ]
        data.withUnsafeBytes { raw in
            func start(_ intervals: Int) -> (offset: Int, atMarker: Bool) {
                JPEGRestartIndex.start(after: raw, from: 0, firstInterval: 6, intervals: intervals)
            }
            #expect(start(2) == (10, false))
            #expect(start(4) == (16, false), "RST1 ends intervals 8 and 9")
            #expect(start(3) == (14, true), "interval 9 is empty: the band after three intervals starts at RST1")
            #expect(start(9) == (17, true), "the data ends at EOI")
        }
    }
}
