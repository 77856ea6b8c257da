import Shrink
import ShrinkCore
import ShrinkTestSupport
import Testing

@testable import ShrinkHEIF

/// AVIF written through libavif's aom encoder, read back through Shrink's own AVIF decoder (dav1d): what goes in as
/// YUV planes, RGB, RGBA, gray and 16-bit pixels comes back as the same picture, lossless comes back exactly, and the
/// quality scale, metadata and settings behave as documented.
@Suite struct AVIFEncodeTests {
    static let size = PixelSize(width: 301, height: 199)

    static func decoded(_ bytes: [UInt8], as format: PixelFormat) throws -> (ImageSource, PixelBuffer) {
        let source = try ImageSource(bytes: bytes, name: "written.avif")
        #expect(source.info.format == .avif && source.info.size == size)
        return (source, try source.image(options: ThumbnailOptions(pixelFormat: .exactly(format))).pixels)
    }

    @Test func yuvPlanesGoInAsTheyAre() throws {
        let rgb = TestImages.pattern(width: Self.size.width, height: Self.size.height)
        let planes = PixelConverter.convert(rgb, to: .yuv420)
        let bytes = try AVIFEncoder().encode(planes)
        let (source, back) = try Self.decoded(bytes, as: .rgb8)
        #expect(source.info.chromaSubsampling == .s420 && source.info.bitsPerComponent == 8)
        #expect(PixelOps.psnr(back, PixelConverter.convert(planes, to: .rgb8)) > 38)
        // Planes out of Shrink's decoder are the planes that went in (BT.601, full range), not a re-derived RGB.
        let (_, yuv) = try Self.decoded(bytes, as: .yuv420)
        #expect(PixelOps.psnr(yuv, planes) > 38)
    }

    @Test func losslessComesBackExactly() throws {
        let rgb = TestImages.pattern(width: Self.size.width, height: Self.size.height)
        var lossless = AVIFEncoder.Options()
        lossless.lossless = true
        let (_, back) = try Self.decoded(try AVIFEncoder(options: lossless).encode(rgb), as: .rgb8)
        #expect(PixelOps.maxDifference(back, rgb) == 0)
        let gray = TestImages.grayRamp(width: Self.size.width, height: Self.size.height)
        let (graySource, grayBack) = try Self.decoded(try AVIFEncoder(options: lossless).encode(gray), as: .gray8)
        #expect(graySource.info.colorModel == .gray && PixelOps.maxDifference(grayBack, gray) == 0)
    }

    @Test func alphaIsKept() throws {
        let rgb = TestImages.pattern(width: Self.size.width, height: Self.size.height)
        var rgba = PixelConverter.convert(rgb, to: .rgba8)
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width { rgba.bytes[(y * Self.size.width + x) * 4 + 3] = UInt8(x * 255 / 300) }
        }
        let (source, back) = try Self.decoded(try AVIFEncoder().encode(rgba), as: .rgba8)
        #expect(source.info.hasAlpha)
        var worst = 0
        for i in stride(from: 3, to: back.bytes.count, by: 4) {
            worst = max(worst, abs(Int(back.bytes[i]) - Int(rgba.bytes[i])))
        }
        #expect(worst <= 8, "alpha off by \(worst)")
    }

    @Test func sixteenBitPixelsAreWrittenWithTenBits() throws {
        let rgb = TestImages.pattern(width: Self.size.width, height: Self.size.height)
        let deep = PixelConverter.convert(rgb, to: .rgba16)
        let (source, back) = try Self.decoded(try AVIFEncoder().encode(deep), as: .rgba16)
        #expect(source.info.bitsPerComponent == 10)
        #expect(PixelOps.psnr(PixelConverter.convert(back, to: .rgb8), rgb) > 36)
    }

    @Test func qualityScaleAndSettings() throws {
        #expect(AVIFEncoder.quantizer(forQuality: 100) == 0 && AVIFEncoder.quantizer(forQuality: 1) == 63)
        #expect(AVIFEncoder.quantizer(forQuality: 80) == 21 && AVIFEncoder.quantizer(forQuality: 90) == 14)
        let steps = (1...100).map(AVIFEncoder.quantizer(forQuality:))
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 >= $1 }, "a higher quality never quantizes more")
        let planes = PixelConverter.convert(TestImages.pattern(width: 301, height: 199), to: .yuv420)
        let sizes = try [30, 80, 95].map { try AVIFEncoder(options: .init(quality: $0)).encode(planes).count }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "\(sizes)")
        for options in [
            AVIFEncoder.Options(quality: 0), AVIFEncoder.Options(quality: 101), AVIFEncoder.Options(speed: 10),
        ] {
            #expect(throws: ImageError.self) { try AVIFEncoder(options: options).encode(planes) }
        }
        #expect(try AVIFEncoder.library().hasPrefix("libavif 0.") || AVIFEncoder.library().hasPrefix("libavif 1."))
        #expect(try AVIFEncoder.library().contains("aom "))
    }

    @Test func iccAndExifAreKeptOnRequest() throws {
        let planes = PixelConverter.convert(TestImages.pattern(width: 301, height: 199), to: .yuv420)
        // Kept as bytes: the encoder and the container carry the profile without reading it.
        let icc = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let exif = Array(TestImages.exifSegment(orientation: 1, thumbnail: nil).dropFirst(10))
        let metadata = ImageMetadata(iccProfile: icc, exif: exif)
        var keep = AVIFEncoder.Options()
        keep.keepEXIF = true
        let kept = try ImageSource(
            bytes: try AVIFEncoder(options: keep).encode(planes, metadata: metadata), name: "k.avif")
        #expect(try kept.decoder.metadata().iccProfile == icc)
        #expect(kept.info.exifBytes > 0)
        var strip = AVIFEncoder.Options()
        strip.keepICCProfile = false
        let stripped = try ImageSource(
            bytes: try AVIFEncoder(options: strip).encode(planes, metadata: metadata), name: "s.avif")
        #expect(try stripped.decoder.metadata().iccProfile == nil && stripped.info.exifBytes == 0)
    }

    @Test func theRegistryWritesAVIF() throws {
        let registry = CodecRegistry.standard
        #expect(registry.writableFormats.contains(.avif))
        let writer = try #require(registry.writer(for: .avif))
        #expect(writer.reads.isSuperset(of: [.quality, .lossless]) && writer.accepts.contains(.yuvPlanes))
        var settings = OutputSettings(format: .avif, quality: 60)
        settings.formatOptions["speed"] = "9"
        let encoder = try #require(writer.encoder(for: settings) as? AVIFEncoder)
        #expect(encoder.options.speed == 9 && encoder.options.quality == 60)
        #expect(writer.predictedBytes(for: Self.size, settings: settings) > Self.size.pixelCount * 4)
    }
}
