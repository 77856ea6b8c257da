import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

@Suite struct JPEGEncoderTests {
    @Test func optimisedHuffmanTablesAreOptInAndKeepThePixels() throws {
        // Off by default (as libvips writes): optimised tables cost a second pass over every coefficient.
        let image = TestImages.pattern(width: 300, height: 200)
        for input in [image, PixelConverter.convert(image, to: .yuv420)] {
            let plain = try JPEGEncoder(options: .init(quality: 80)).encode(input)
            #expect(plain == (try JPEGEncoder(options: .init(quality: 80, optimizeHuffmanTables: false)).encode(input)))
            let optimised = try JPEGEncoder(options: .init(quality: 80, optimizeHuffmanTables: true)).encode(input)
            #expect(optimised.count < plain.count)
            // Huffman coding is lossless: both files decode to the same pixels.
            func decoded(_ file: [UInt8]) throws -> [UInt8] {
                try JPEGDecoder(bytes: ImageBytes(file), path: "encoded").startRows(scaleDenominator: 1).readAll()
            }
            #expect(try decoded(plain) == (try decoded(optimised)))
        }
    }

    @Test func encoderRejectsBadSettings() {
        let p = TestImages.pattern(width: 4, height: 4)
        #expect(throws: ImageError.self) { _ = try JPEGEncoder(options: .init(quality: 0)).encode(p) }
        #expect(throws: ImageError.self) {
            _ = try JPEGEncoder(options: .init(quality: 101)).encode(PixelConverter.convert(p, to: .yuv420))
        }
    }

    @Test func alphaIsFlattenedOntoTheBackground() throws {
        // Left half transparent, right half opaque red: on white the left decodes white, the right red.
        var bytes = [UInt8](repeating: 0, count: 32 * 16 * 4)
        for y in 0..<16 { for x in 16..<32 { let i = (y * 32 + x) * 4; bytes[i] = 255; bytes[i + 3] = 255 } }
        let jpeg = try JPEGEncoder(options: .init(quality: 95, chroma444: true))
            .encode(PixelBuffer(format: .rgba8, size: PixelSize(width: 32, height: 16), bytes: bytes))
        let out = try JPEGDecoder(bytes: ImageBytes(jpeg), path: "a.jpg").startRows(scaleDenominator: 1).readAll()
        #expect(out[8 * 96 + 4 * 3] > 245 && out[8 * 96 + 4 * 3 + 1] > 245) // white
        #expect(out[8 * 96 + 28 * 3] > 240 && out[8 * 96 + 28 * 3 + 1] < 15) // red
    }

    @Test func decodesBackCloseToTheInput() throws {
        let image = TestImages.pattern(width: 64, height: 40)
        for (chroma444, progressive) in [(false, false), (true, false), (true, true)] {
            let bytes = try JPEGEncoder(options: .init(quality: 95, chroma444: chroma444, progressive: progressive))
                .encode(image)
            let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "x.jpg")
            #expect(decoder.info.chromaSubsampling == (chroma444 ? .s444 : .s420))
            #expect(decoder.info.isProgressive == progressive)
            let rows = try decoder.startRows(scaleDenominator: 1)
            let out = try rows.readAll()
            try rows.finish()
            let psnr = PixelOps.psnr(PixelBuffer(format: .rgb8, size: image.size, bytes: out), image)
            #expect(psnr > (chroma444 ? 38 : 30), "444 \(chroma444) progressive \(progressive): \(psnr)")
        }
    }
}
