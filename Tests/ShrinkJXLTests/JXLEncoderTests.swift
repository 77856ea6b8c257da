import Shrink
import ShrinkTestSupport
import Testing

/// JPEG XL written by Shrink and read back by Shrink: lossless exactly (8-bit, alpha, gray, 16-bit), lossy close to
/// the source, the ICC profile kept, settings out of range refused.
@Suite struct JXLEncoderTests {
    static func decoded(_ bytes: [UInt8], _ format: PixelFormatRequest = .native) throws(ImageError) -> DecodedImage {
        try ImageSource(bytes: bytes, name: "t.jxl").image(options: ThumbnailOptions(pixelFormat: format))
    }

    @Test func losslessComesBackExactly() throws {
        let lossless = JXLEncoder(options: JXLEncoder.Options(lossless: true))
        for pixels in [
            JXLDecoderTests.gradient(width: 9, height: 7), JXLDecoderTests.gradient(width: 8, height: 3, alpha: true),
            TestImages.grayRamp(width: 16, height: 4),
        ] {
            let bytes = try lossless.encode(pixels)
            #expect(try ImageSource(bytes: bytes, name: "t.jxl").info.format == .jxl)
            let back = try Self.decoded(bytes)
            #expect(back.pixels.format == pixels.format)
            #expect(back.pixels.bytes == pixels.bytes)
        }
    }

    @Test func sixteenBitsStaySixteen() throws {
        var samples: [UInt8] = []
        for i in 0..<(6 * 4) {
            let v = UInt16(i * 2731), a = UInt16(65535 - i * 100)
            for s in [v, v &+ 1, 65535 - v, a] { samples += [UInt8(s & 0xFF), UInt8(s >> 8)] }
        }
        let pixels = PixelBuffer(format: .rgba16, size: PixelSize(width: 6, height: 4), bytes: samples)
        let bytes = try JXLEncoder(options: JXLEncoder.Options(lossless: true)).encode(pixels)
        let back = try Self.decoded(bytes, .exactly(.rgba16))
        #expect(back.pixels.bytes == pixels.bytes)
    }

    @Test func lossyIsCloseAndSmallerThanLossless() throws {
        let pattern = TestImages.pattern(width: 256, height: 128)
        let lossy = try JXLEncoder().encode(pattern)
        let lossless = try JXLEncoder(options: JXLEncoder.Options(lossless: true)).encode(pattern)
        #expect(lossy.count < lossless.count)
        let back = try Self.decoded(lossy, .exactly(.rgb8))
        let difference = zip(back.pixels.bytes, pattern.bytes).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(difference) / Double(pattern.bytes.count) < 4)
    }

    @Test func theQualityScaleIsCjxls() {
        #expect(JXLEncoder.distance(forQuality: 90) == 1.0)
        #expect(abs(JXLEncoder.distance(forQuality: 100) - 0.1) < 1e-6)
        #expect(abs(JXLEncoder.distance(forQuality: 30) - 6.4) < 1e-5)
        #expect(JXLEncoder.distance(forQuality: 1) == 25)
        #expect(JXLEncoder.distance(forQuality: 50) > JXLEncoder.distance(forQuality: 80))
    }

    @Test func settingsOutOfRangeAreRefused() {
        let pixels = TestImages.grayRamp(width: 4, height: 4)
        for options in [JXLEncoder.Options(quality: 0), JXLEncoder.Options(effort: 10)] {
            #expect(throws: ImageError.self) { try JXLEncoder(options: options).encode(pixels) }
        }
    }

    @Test func theICCProfileIsKept() throws {
        // A real profile (Shrink's Display P3), kept through a lossy encode and read back as the image's.
        var metadata = ImageMetadata()
        metadata.iccProfile = ColorProfile.displayP3.bytes
        let bytes = try JXLEncoder().encode(TestImages.pattern(width: 32, height: 32), metadata: metadata)
        let source = try ImageSource(bytes: bytes, name: "p3.jxl")
        #expect(source.info.iccProfileBytes > 0)
    }
}
