import CShrinkSPNG
import Testing
import ShrinkCore
import ShrinkPNG
import ShrinkTestSupport

@Suite struct PNGEncoderTests {
    /// Decodes `png` with libspng to 8-bit samples of the encoded colour type (an independent reader).
    func decode(_ png: [UInt8]) throws -> (ihdr: spng_ihdr, pixels: [UInt8]) {
        let ctx = try #require(spng_ctx_new(0))
        defer { spng_ctx_free(ctx) }
        var ihdr = spng_ihdr()
        var out: [UInt8] = []
        try png.withUnsafeBytes { raw in
            #expect(spng_set_png_buffer(ctx, raw.baseAddress, raw.count) == 0)
            #expect(spng_get_ihdr(ctx, &ihdr) == 0)
            let channels = ihdr.color_type == 0 ? 1 : ihdr.color_type == 2 ? 3 : 4
            out = [UInt8](repeating: 0, count: Int(ihdr.width) * Int(ihdr.height) * channels)
            let fmt = Int32(SPNG_FMT_PNG.rawValue)
            var size = 0
            #expect(spng_decoded_image_size(ctx, fmt, &size) == 0)
            try #require(size == out.count)
            #expect(out.withUnsafeMutableBytes { spng_decode_image(ctx, $0.baseAddress, $0.count, fmt, 0) } == 0)
        }
        return (ihdr, out)
    }

    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8])
    func roundTripsExactly(_ format: PixelFormat) throws {
        let size = PixelSize(width: 37, height: 11)
        let bytes: [UInt8] = (0..<format.byteCount(for: size)).map { (i: Int) -> UInt8 in
            UInt8(truncatingIfNeeded: i &* 7 &+ i / 13)
        }
        let image = PixelBuffer(format: format, size: size, bytes: bytes)
        for level in [0, 6, 9] {
            let png = try PNGEncoder(options: .init(compressionLevel: level)).encode(image)
            let (ihdr, pixels) = try decode(png)
            #expect(ihdr.width == 37 && ihdr.height == 11 && ihdr.bit_depth == 8)
            #expect(pixels == bytes, "\(format) level \(level)")
        }
    }

    @Test func rejectsBadSettings() {
        let image = TestImages.pattern(width: 2, height: 2)
        #expect(throws: ImageError.self) { _ = try PNGEncoder(options: .init(compressionLevel: 10)).encode(image) }
        #expect(throws: ImageError.self) { _ = try PNGEncoder(options: .init(bitDepth: 12)).encode(image) }
    }
}
