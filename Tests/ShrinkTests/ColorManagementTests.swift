import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// Colour management after the reduction: a tagged image's colours converted to sRGB (checked against the
/// matrices of the colour spaces, computed here without lcms2), kept with their profile, or converted to
/// Display P3; untagged and sRGB images left alone; unreadable profiles a warning.
@Suite struct ColorManagementTests {
    /// sRGB's transfer curve (IEC 61966-2.1), both ways, on 0…1.
    static func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encoded(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    /// `rgb` (8-bit, sRGB curve) through a 3×3 matrix on linear light, back to 8 bits.
    static func map(_ rgb: [Int], _ m: [[Double]]) -> [Int] {
        let l = rgb.map { linear(Double($0) / 255) }
        return m.map { row in Int((encoded(min(max(zip(row, l).map(*).reduce(0, +), 0), 1)) * 255).rounded()) }
    }

    /// Display P3 to sRGB and back, on linear light (both D65).
    static let p3ToSRGB = [
        [1.2249401, -0.2249404, 0], [-0.0420569, 1.0420571, 0], [-0.0196376, -0.0786361, 1.0982735],
    ]
    static let sRGBToP3 = [[0.8224621, 0.1775380, 0], [0.0331941, 0.9668058, 0], [0.0170827, 0.0723974, 0.9105199]]

    /// A 64×48 PNG of one colour, tagged with `profile`.
    static func flat(_ rgb: [Int], profile: [UInt8]?) throws -> [UInt8] {
        let pixels = PixelBuffer(
            format: .rgb8, size: PixelSize(width: 64, height: 48),
            bytes: Array((0..<64 * 48).map { _ in rgb.map(UInt8.init) }.joined()))
        return try PNGEncoder().encode(pixels, metadata: ImageMetadata(iccProfile: profile))
    }

    /// The largest difference between every pixel of `image` (converted to rgb8) and `rgb`.
    static func distance(_ image: PixelBuffer, from rgb: [Int]) -> Int {
        let p = image.format == .rgb8 ? image : PixelConverter.convert(image, to: .rgb8)
        return stride(from: 0, to: p.bytes.count, by: 3).map { i in
            (0..<3).map { abs(Int(p.bytes[i + $0]) - rgb[$0]) }.max()!
        }.max() ?? 0
    }

    @Test func aDisplayP3ImageIsConvertedToSRGBAfterReducing() throws {
        let color = [200, 100, 50]
        let source = try ImageSource(
            bytes: try Self.flat(color, profile: ColorProfile.displayP3.bytes), name: "p3.png")
        let expected = Self.map(color, Self.p3ToSRGB) // about (216, 94, 39): redder in sRGB numbers
        for format in [
            PixelFormatRequest.exactly(.rgb8), .exactly(.rgba8), .exactly(.yuv420), .exactly(.nv12), .highPrecision,
            .displayReady,
        ] {
            let image = try source.thumbnail(maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: format))
            #expect(
                image.colorConversion?.converted == true && image.colorConversion?.from == "Display P3", "\(format)")
            #expect(image.metadata.iccProfile == nil, "\(format): sRGB output embeds no profile")
            let planar = format == .exactly(.yuv420) || format == .exactly(.nv12) // YUV rounds once more
            #expect(Self.distance(image.pixels, from: expected) <= (planar ? 3 : 2), "\(format): \(expected)")
            #expect(image.predictedPeakBytes >= image.pixels.byteCount)
        }
        // keep: the pixels as stored, the profile with them.
        let kept = try source.thumbnail(
            maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep))
        #expect(
            Self.distance(kept.pixels, from: color) == 0 && kept.metadata.iccProfile == ColorProfile.displayP3.bytes)
        #expect(kept.colorConversion == nil)
        // Back to Display P3: the stored numbers again, and the P3 profile embedded (and read back by name).
        let p3 = try source.thumbnail(
            maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .displayP3))
        #expect(Self.distance(p3.pixels, from: color) <= 1 && p3.metadata.iccProfile == ColorProfile.displayP3.bytes)
        let embedded = try #require(p3.metadata.iccProfile)
        #expect(ColorProfile(embedded)?.name == "Display P3")
    }

    @Test func untaggedAndSRGBImagesAreLeftAloneUnlessDisplayP3IsAsked() throws {
        let color = [200, 100, 50]
        for profile in [nil, ColorProfile.sRGB.bytes] {
            let source = try ImageSource(bytes: try Self.flat(color, profile: profile), name: "srgb.png")
            let image = try source.thumbnail(maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
            #expect(image.colorConversion?.converted == false && Self.distance(image.pixels, from: color) == 0)
            #expect(image.metadata.iccProfile == nil)
            let p3 = try source.thumbnail(
                maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .displayP3))
            #expect(p3.colorConversion?.converted == true && p3.metadata.iccProfile == ColorProfile.displayP3.bytes)
            #expect(Self.distance(p3.pixels, from: Self.map(color, Self.sRGBToP3)) <= 2)
        }
    }

    @Test func brokenProfilesAndProfilesForOtherDataAreWarnings() throws {
        let color = [200, 100, 50]
        let broken = try ImageSource(
            bytes: try Self.flat(color, profile: Array(repeating: 7, count: 400)), name: "broken.png")
        let image = try broken.thumbnail(
            maxPixelSize: 32, options: ThumbnailOptions(strict: true, pixelFormat: .exactly(.rgb8)))
        #expect(Self.distance(image.pixels, from: color) == 0 && image.metadata.iccProfile == nil)
        let warned = image.warnings.contains { $0.contains("cannot be read") }
        #expect(warned, "\(image.warnings)")
        // A gray profile on colour pixels: not applied, said so.
        let gray = try ImageSource(
            bytes: try Self.flat(color, profile: ColorProfile.sGray.bytes), name: "gray-profile.png")
        let mismatched = try gray.thumbnail(maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        let notApplied = mismatched.warnings.contains { $0.contains("not applied") }
        #expect(Self.distance(mismatched.pixels, from: color) == 0 && notApplied)
    }

    @Test(.needsCorpus) func steepProfilesAreConvertedBeforeTheResampler() throws {
        // sdwebimage's test profile turns each dark level into 15: converting after averaging would be wrong, so
        // the decoded rows are converted (rows, not planes, even for a YUV result).
        let source = try ImageSource(path: Corpus.path("exif/sdwebimage/TestICCProfile.jpg"))
        let planar = try source.thumbnail(maxPixelSize: 64)
        #expect(
            planar.decodePath == .dctScaledRows && planar.pixels.format == .yuv420
                && planar.colorConversion?.converted == true)
        let rgb = try source.thumbnail(maxPixelSize: 64, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(PixelConverter.convert(planar.pixels, to: .rgb8), rgb.pixels) > 35)
        #expect(source.decodePlan(planar.plan, options: ThumbnailOptions()).route.path == .dctScaledRows)
        // A P3 photo keeps the planes route: its transform runs after the reduction.
        let p3 = try ImageSource(path: Corpus.path("exif/nuke/image-p3.jpg")).thumbnail(maxPixelSize: 64)
        #expect(p3.decodePath == .dctScaledPlanes && p3.colorConversion?.converted == true)
    }

    @Test(.needsCorpus) func corpusPhotosInDisplayP3AreConverted() throws {
        let source = try ImageSource(path: Corpus.path("exif/nuke/image-p3.jpg"))
        let bytes = try #require(try source.decoder.metadata().iccProfile)
        let profile = try #require(ColorProfile(bytes))
        #expect(profile.space == .rgb && profile.isMatrixShaper && profile.name.contains("P3"), "\(profile.summary)")
        let converted = try source.thumbnail(maxPixelSize: 200)
        let kept = try source.thumbnail(maxPixelSize: 200, options: ThumbnailOptions(color: .keep))
        #expect(converted.colorConversion?.converted == true && converted.pixels.bytes != kept.pixels.bytes)
        #expect(converted.predictedPeakBytes >= kept.predictedPeakBytes)
    }
}

/// CMYK and YCCK JPEGs: ink becomes RGB through the embedded CMYK profile, else the fallback, before the
/// resampler; never inverted.
@Suite struct CMYKColorTests {
    /// The mean difference per channel between two rgb8 images of one size, the second optionally inverted.
    static func distance(_ a: PixelBuffer, _ b: PixelBuffer, invertingSecond: Bool = false) -> Double {
        precondition(a.size == b.size && a.format == .rgb8 && b.format == .rgb8)
        let total = zip(a.bytes, b.bytes).reduce(0) {
            $0 + abs(Int($1.0) - (invertingSecond ? 255 - Int($1.1) : Int($1.1)))
        }
        return Double(total) / Double(a.bytes.count)
    }

    /// The file decoded at full size through the codec's route with no ink converter (``NaiveInk``), as rgb8.
    static func naive(_ path: String) throws -> PixelBuffer {
        let source = try ImageSource(path: path)
        guard
            case .rows(let rows) = try source.decoder.route(RouteRequest(scaleDenominator: 1)).start(
                options: DecodeOptions())
        else {
            throw ImageError(.unsupportedFeature, "\(path): expected rows")
        }
        #expect(rows.format == .rgb8)
        let stride = rows.size.width * 3
        let raw = UnsafeMutableRawPointer.allocate(byteCount: rows.size.pixelCount * 3, alignment: 16)
        defer { raw.deallocate() }
        while rows.nextRow < rows.size.height {
            _ = try rows.readRows(
                startingAt: rows.nextRow, into: raw + rows.nextRow * stride, bytesPerRow: stride, maxRows: 16)
        }
        try rows.finish()
        return PixelBuffer(
            format: .rgb8, size: rows.size,
            bytes: Array(UnsafeRawBufferPointer(start: raw, count: rows.size.pixelCount * 3)))
    }

    @Test(.needsCorpus) func taggedYCCKIsConvertedWithItsProfile() throws {
        let path = Corpus.path("jpeg/jpeg-decoder-reftest/ycck.jpg")
        let source = try ImageSource(path: path)
        #expect(source.info.colorModel == .ycck)
        let image = try source.thumbnail(maxPixelSize: 500, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(image.size == PixelSize(width: 500, height: 333))
        #expect(image.colorConversion?.from == "U.S. Web Coated (SWOP) v2" && image.colorConversion?.to == "sRGB")
        #expect(image.colorConversion?.converted == true && image.metadata.iccProfile == nil && image.warnings.isEmpty)
        // Not inverted: pixel by pixel, the profile's rendering is near the profile-less one and far from its
        // negative; and not the same (the profile ran).
        let naive = try Self.naive(path)
        let near = Self.distance(image.pixels, naive), far = Self.distance(image.pixels, naive, invertingSecond: true)
        #expect(
            near > 2 && near < 40 && far > 3 * near,
            "mean difference \(near) from the naive decode, \(far) from its negative")
        #expect(image.predictedPeakBytes >= image.pixels.byteCount + InkConversion.stateBytes)
    }

    @Test(.needsCorpus) func untaggedCMYKUsesTheFallbackProfile() throws {
        let fallback = try #require(
            ColorProfile.fallbackCMYK, "scripts/install-deps installs libgs-common's CMYK profile")
        #expect(fallback.space == .cmyk && !fallback.isMatrixShaper)
        let path = Corpus.path("jpeg/zune/cymk.jpg")
        let source = try ImageSource(path: path)
        let image = try source.thumbnail(maxPixelSize: 600, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(
            image.colorConversion?.from == "\(fallback.name) (fallback)" && image.colorConversion?.converted == true)
        let naive = try Self.naive(path)
        let near = Self.distance(image.pixels, naive), far = Self.distance(image.pixels, naive, invertingSecond: true)
        #expect(
            near > 2 && near < 40 && far > 3 * near,
            "mean difference \(near) from the naive decode, \(far) from its negative")
        // Display P3: converted there, its profile embedded; keep: a CMYK profile cannot ride on RGB, so sRGB and a warning.
        let p3 = try source.thumbnail(
            maxPixelSize: 600, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .displayP3))
        #expect(p3.colorConversion?.to == "Display P3" && p3.metadata.iccProfile == ColorProfile.displayP3.bytes)
        #expect(p3.pixels.bytes != image.pixels.bytes)
        let kept = try source.thumbnail(
            maxPixelSize: 600, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep))
        #expect(kept.pixels.bytes == image.pixels.bytes && kept.metadata.iccProfile == nil)
        let warned = kept.warnings.contains { $0.contains("cannot be kept on RGB pixels") }
        #expect(warned, "\(kept.warnings)")
    }
}

/// Colour a file codes without an ICC profile: PNG gAMA/cHRM and cICP, HEIF nclx (HDR through 16-bit rows);
/// and damaged multi-segment JPEG ICC profiles reported as warnings.
@Suite struct CodedColorTests {
    static func srgbEncoded(_ v: Double) -> Double { v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    @Test(.needsCorpus) func pngGammaIsApplied() throws {
        // PngSuite's g10n2c08: RGB stored as linear light (gAMA 1.0): each value v becomes sRGB's encoding of v/255.
        let source = try ImageSource(path: Corpus.path("png/pngsuite/g10n2c08.png"))
        #expect(source.info.codedColor == .gammaAndChromaticities(gamma: 1.0, chromaticities: nil))
        let options = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        let kept = try source.image(.original, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep))
        let converted = try source.image(.original, options: options)
        #expect(converted.colorConversion?.converted == true && converted.colorConversion?.from == "PNG gamma 1.0")
        let worst =
            zip(kept.pixels.bytes, converted.pixels.bytes).map { stored, shown in
                abs(Int(shown) - Int((Self.srgbEncoded(Double(stored) / 255) * 255).rounded()))
            }.max() ?? 99
        #expect(worst <= 1, "largest difference from sRGB's encoding of linear light: \(worst)")
        // A gamma of 1/2.2 is what sRGB files say: nothing to convert (libpng's sRGB heuristic).
        let srgbLike = try ImageSource(path: Corpus.path("jpeg/jpeg-decoder-reftest/rgb.png"))
        #expect(try srgbLike.thumbnail(maxPixelSize: 32).colorConversion?.converted == false)
    }

    /// `png` with a cICP chunk (primaries, transfer, matrix 0, full range) inserted after IHDR.
    static func withCICP(_ png: [UInt8], primaries: UInt8, transfer: UInt8) -> [UInt8] {
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        let body: [UInt8] = Array("cICP".utf8) + [primaries, transfer, 0, 1]
        var crc: UInt32 = 0xFFFF_FFFF
        for b in body { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        crc ^= 0xFFFF_FFFF
        let chunk: [UInt8] =
            [0, 0, 0, 4] + body + [
                UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF),
            ]
        return Array(png[0..<33]) + chunk + Array(png[33...]) // signature (8) + IHDR (25)
    }

    @Test func pngCICPIsAppliedLikeTheProfileItNames() throws {
        let color = [200, 100, 50]
        let png = Self.withCICP(try ColorManagementTests.flat(color, profile: nil), primaries: 12, transfer: 13)
        let source = try ImageSource(bytes: png, name: "p3-cicp.png")
        #expect(
            source.info.codedColor == .codePoints(primaries: 12, transfer: 13) && source.info.features.contains("cICP"))
        let image = try source.thumbnail(maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(image.colorConversion?.from == "Display P3 sRGB curve (coded 12/13)")
        #expect(
            ColorManagementTests.distance(
                image.pixels, from: ColorManagementTests.map(color, ColorManagementTests.p3ToSRGB)) <= 2)
        // keep: the pixels as stored, with the equivalent profile embedded so the colours keep their meaning.
        let kept = try source.thumbnail(
            maxPixelSize: 32, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8), color: .keep))
        #expect(ColorManagementTests.distance(kept.pixels, from: color) == 0)
        let embedded = try #require(kept.metadata.iccProfile.flatMap(ColorProfile.init))
        #expect(embedded.space == .rgb && embedded.name == "Display P3 sRGB curve (coded 12/13)")
        // sRGB code points: nothing to do.
        let srgb = try ImageSource(
            bytes: Self.withCICP(try ColorManagementTests.flat(color, profile: nil), primaries: 1, transfer: 13),
            name: "srgb-cicp.png")
        #expect(try srgb.thumbnail(maxPixelSize: 32).colorConversion?.converted == false)
    }

    @Test(.needsCorpus) func hdrHEIFIsConvertedFromSixteenBitRows() throws {
        let source = try ImageSource(path: Corpus.path("heic/sdwebimage/TestHDR.heic"))
        #expect(source.info.codedColor == .codePoints(primaries: 9, transfer: 16) && source.info.bitsPerComponent == 10)
        let plan = try source.plan(.maxPixelSize(256))
        #expect(source.route(for: plan, format: .yuv420).output == .rows(.rgba16)) // not 8-bit planes
        #expect(source.route(for: plan, format: .yuv420, color: .keep).output == .rows(.rgb8)) // kept: 8 bits serve
        let image = try source.image(plan)
        #expect(image.colorConversion?.converted == true && image.colorConversion?.from == "BT.2020 PQ (coded 9/16)")
        #expect(image.predictedPeakBytes >= image.pixels.byteCount)
        let kept = try source.image(plan, options: ThumbnailOptions(color: .keep))
        #expect(PixelOps.psnr(image.pixels, kept.pixels) < 30) // PQ → sRGB changes the picture
    }

    @Test(.needsCorpus) func damagedMultiSegmentICCProfilesAreWarnings() throws {
        let expected = [
            "icc_chunk_double_seq_no.jpeg": "chunk number 100 repeated", "icc_chunk_seq_no_0.jpeg": "numbered 0",
            "icc_missing_chunk.jpeg": "chunk 100 of 254 missing",
            "icc_chunk_count_mismatch.jpeg": "beyond the declared count of 250",
        ]
        for (file, warning) in expected {
            let source = try ImageSource(path: Corpus.path("jpeg/jpeg-decoder-icc/\(file)"))
            #expect(source.info.warnings.contains { $0.contains(warning) }, "\(file): \(source.info.warnings)")
            #expect(try source.thumbnail(maxPixelSize: 8).size == PixelSize(width: 1, height: 1))
        }
        // Chunks out of order are no damage; a well-formed multi-segment profile neither.
        #expect(try ImageSource(path: Corpus.path("jpeg/jpeg-decoder-icc/icc_chunk_order.jpeg")).info.warnings.isEmpty)
        let multiple = try ImageSource(path: Corpus.path("exif/metadata-extractor/Multiple_ICC_segments.jpg"))
        let profile = try #require(try multiple.decoder.metadata().iccProfile)
        #expect(multiple.info.warnings.isEmpty && ColorProfile(profile) != nil)
    }
}

@Suite struct BuiltProfileTests {
    @Test func builtProfilesAreTheSameBytesEveryRun() throws {
        // lcms2 stamps a profile with the time it was made; Shrink fixes the date so outputs are reproducible.
        #expect(Array(ColorProfile.displayP3.bytes[24..<36]) == [0x07, 0xE8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
        let coded = try #require(CodedColorProfiles.profile(for: .codePoints(primaries: 9, transfer: 16), gray: false))
        #expect(
            Array(coded.bytes[24..<36]) == [0x07, 0xE8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]
                && coded.name == "BT.2020 PQ (coded 9/16)")
    }
}
