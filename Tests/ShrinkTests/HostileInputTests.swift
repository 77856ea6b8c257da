import Testing
import Shrink
import ShrinkTestSupport

/// Damaged and hostile inputs give typed errors (or, where the damage is harmless, an image), never a crash.
@Suite struct HostileInputTests {
    static let good = try! TestImages.jpeg(TestImages.pattern(width: 120, height: 80), chroma444: false, orientation: 6)

    @Test func everyTruncationFailsCleanlyWhenStrict() {
        var errors = 0
        for cut in stride(from: 0, to: Self.good.count - 2, by: 7) {
            do {
                _ = try ImageSource(bytes: Array(Self.good[0..<cut]), name: "cut.jpg")
                    .thumbnail(maxPixelSize: 40, options: ThumbnailOptions(strict: true))
                Issue.record("truncated at \(cut) of \(Self.good.count) decoded")
            } catch {
                #expect([.truncated, .corruptData, .unsupportedFormat].contains(error.code), "\(cut): \(error)")
                #expect(error.description.hasPrefix("cut.jpg"))
                errors += 1
            }
        }
        #expect(errors > 50)
    }

    /// Lenient decoding still refuses a file cut before its EOI marker, even one that lacks only the marker
    /// (Pillow and libvips refuse both): a truncated file is `.truncated`, never a grey-filled image.
    @Test func truncationsAreRefusedByDefaultToo() throws {
        for cut in Array(stride(from: 0, to: Self.good.count - 2, by: 7)) + [Self.good.count - 2, Self.good.count - 1] {
            do {
                _ = try ImageSource(bytes: Array(Self.good[0..<cut]), name: "cut.jpg").thumbnail(maxPixelSize: 40)
                Issue.record("truncated at \(cut) of \(Self.good.count) decoded")
            } catch {
                #expect([.truncated, .corruptData, .unsupportedFormat].contains(error.code), "\(cut): \(error)")
            }
        }
        do {
            _ = try ImageSource(bytes: Array(Self.good.dropLast(2)), name: "no-eoi.jpg").thumbnail(maxPixelSize: 40)
            Issue.record("a file without its EOI marker decoded")
        } catch {
            #expect(error.code == .truncated && error.description.contains("no-eoi.jpg"), "\(error)")
        }
    }

    /// Damage inside the entropy-coded data (a corrupted byte) decodes with a warning by default and is an
    /// error when strict; the clean file has no warning.
    @Test func corruptEntropyDataIsAWarningByDefault() throws {
        let clean = try ImageSource(bytes: Self.good, name: "good.jpg").thumbnail(maxPixelSize: 40)
        #expect(clean.warnings.isEmpty)
        var bytes = Self.good
        // Stray bytes before the EOI marker: libjpeg's "extraneous bytes before marker 0xd9". Sixteen of them:
        // libjpeg's bit reader fetches a few bytes past the last block's bits and takes what it fetched as
        // padding, so three stray bytes pass unnoticed after some encodings (djpeg is silent on those too).
        bytes.insert(contentsOf: (0..<16).map { UInt8(0x12 + $0) }, at: bytes.count - 2)
        let damaged = try ImageSource(bytes: bytes, name: "stray.jpg").thumbnail(maxPixelSize: 40)
        #expect(damaged.size == clean.size)
        #expect(damaged.warnings.count == 1 && damaged.warnings[0].contains("extraneous bytes"), "\(damaged.warnings)")
        do {
            _ = try ImageSource(bytes: bytes, name: "stray.jpg").thumbnail(
                maxPixelSize: 40, options: ThumbnailOptions(strict: true))
            Issue.record("strict decoding accepted stray bytes")
        } catch {
            #expect(error.code == .corruptData && error.description.contains("stray.jpg"), "\(error)")
        }
    }

    @Test func flippedBytesNeverCrash() {
        var rng = SplitMix(seed: 42)
        var decoded = 0, failed = 0
        for _ in 0..<300 {
            var bytes = Self.good
            for _ in 0..<Int(rng.next() % 4 + 1) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            }
            do {
                let image = try ImageSource(bytes: bytes, name: "flip.jpg").thumbnail(maxPixelSize: 40)
                #expect(image.size.width >= 1 && image.size.height >= 1)
                decoded += 1
            } catch {
                failed += 1
            }
        }
        #expect(decoded + failed == 300)
    }

    @Test func headerBombIsRefusedFromTheHeader() throws {
        // Patch the SOF0 frame size to 60000×60000 (3.6 G pixels); the entropy data stays 120×80's.
        var bytes = Self.good
        let sof = try #require((0..<bytes.count - 9).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xEA; bytes[sof + 6] = 0x60; bytes[sof + 7] = 0xEA; bytes[sof + 8] = 0x60
        let source = try ImageSource(bytes: bytes, name: "bomb.jpg")
        #expect(source.info.size == PixelSize(width: 60000, height: 60000))
        for target in [ThumbnailTarget.maxPixelSize(100), .original] {
            do {
                _ = try source.image(target)
                Issue.record("\(target) of a 3.6 G pixel header")
            } catch {
                #expect(error.code == .limitExceeded)
                #expect(error.description.contains("bomb.jpg"))
            }
        }
    }
}

/// A small deterministic generator (tests must be repeatable).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
