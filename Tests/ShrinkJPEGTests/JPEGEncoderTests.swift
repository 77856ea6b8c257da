import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

@Suite struct JPEGEncoderTests {
    @Test func huffmanOptimisationIsAutomaticForSmallImagesOnly() throws {
        // Optimised tables buffer every coefficient: on for a thumbnail, off when that buffer passes 8 MiB.
        let small = TestImages.pattern(width: 300, height: 200)
        let auto = try JPEGEncoder(options: .init(quality: 80)).encode(small)
        #expect(auto == (try JPEGEncoder(options: .init(quality: 80, optimizeHuffmanTables: true)).encode(small)))
        #expect(auto.count < (try JPEGEncoder(options: .init(quality: 80, optimizeHuffmanTables: false)).encode(small)).count)

        let large = TestImages.pattern(width: 2000, height: 1500)        // 4:2:0: 9 MB of coefficients
        let autoLarge = try JPEGEncoder(options: .init(quality: 80)).encode(large)
        #expect(autoLarge == (try JPEGEncoder(options: .init(quality: 80, optimizeHuffmanTables: false)).encode(large)))
    }

    @Test func encoderRejectsBadSettings() {
        let p = TestImages.pattern(width: 4, height: 4)
        #expect(throws: ImageError.self) { _ = try JPEGEncoder(options: .init(quality: 0)).encode(p) }
        let rgba = PixelBuffer(format: .rgba8, size: Size(width: 1, height: 1), bytes: [1, 2, 3, 4])
        #expect(throws: ImageError.self) { _ = try JPEGEncoder().encode(rgba) }
    }

    @Test func decodesBackCloseToTheInput() throws {
        let image = TestImages.pattern(width: 64, height: 40)
        for (chroma444, progressive) in [(false, false), (true, false), (true, true)] {
            let bytes = try JPEGEncoder(options: .init(quality: 95, chroma444: chroma444, progressive: progressive)).encode(image)
            let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "x.jpg")
            #expect(decoder.info.chromaSubsampling == (chroma444 ? .s444 : .s420))
            #expect(decoder.info.isProgressive == progressive)
            let rows = try decoder.startRows(scaleDenominator: 1)
            var out = [UInt8](repeating: 0, count: 64 * 40 * 3)
            try out.withUnsafeMutableBytes { raw in
                while rows.nextRow < 40 {
                    _ = try rows.readRows(startingAt: rows.nextRow, into: raw.baseAddress! + rows.nextRow * 192,
                                          bytesPerRow: 192, maxRows: 40)
                }
            }
            try rows.finish()
            let psnr = PixelOps.psnr(PixelBuffer(format: .rgb8, size: image.size, bytes: out), image)
            #expect(psnr > (chroma444 ? 38 : 30), "444 \(chroma444) progressive \(progressive): \(psnr)")
        }
    }
}
