import Testing
import ShrinkCore

@Suite struct PixelFormatTests {
    @Test func byteCountsAreExact() {
        let odd = PixelSize(width: 7, height: 5)
        #expect(PixelFormat.gray8.byteCount(for: odd) == 35)
        #expect(PixelFormat.rgb8.byteCount(for: odd) == 105)
        #expect(PixelFormat.rgba8.byteCount(for: odd) == 140)
        #expect(PixelFormat.rgba16.byteCount(for: odd) == 280)
        #expect(PixelFormat.yuv420.byteCount(for: odd) == 35 + 2 * 4 * 3)
        #expect(PixelFormat.yuv420.byteCount(for: PixelSize(width: 1718, height: 2048)) == 1718 * 2048 * 3 / 2)
        // The README's example: a 1718×2048 image is 13.4 MiB... as RGBA8 it is 14 073 856 bytes.
        #expect(PixelFormat.rgba8.byteCount(for: PixelSize(width: 1718, height: 2048)) == 14_073_856)
    }

    @Test func pixelBufferAllocatesExactly() throws {
        let buffer = try PixelBuffer(format: .rgb8, size: PixelSize(width: 3, height: 2)) {
            (b: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
            for i in 0..<b.count { b[i] = UInt8(i) }
        }
        #expect(buffer.byteCount == 18)
        #expect(Array(buffer.pixel(x: 1, y: 1)) == [12, 13, 14])
    }

    @Test func failedFillThrows() {
        #expect(throws: ImageError.self) {
            _ = try PixelBuffer(format: .gray8, size: PixelSize(width: 2, height: 2)) {
                (_: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
                throw ImageError(.corruptData, "x")
            }
        }
    }

    @Test func chromaSubsamplingFromFactors() {
        #expect(ChromaSubsampling(horizontal: [2, 1, 1], vertical: [2, 1, 1]) == .s420)
        #expect(ChromaSubsampling(horizontal: [1, 1, 1], vertical: [1, 1, 1]) == .s444)
        #expect(ChromaSubsampling(horizontal: [2, 1, 1], vertical: [1, 1, 1]) == .s422)
        #expect(ChromaSubsampling(horizontal: [1, 1, 1], vertical: [2, 1, 1]) == .s440)
        #expect(ChromaSubsampling(horizontal: [4, 1, 1], vertical: [1, 1, 1]) == .s411)
        #expect(ChromaSubsampling(horizontal: [2, 1, 2], vertical: [2, 1, 1]) == .nonStandard)
        #expect(ChromaSubsampling(horizontal: [1], vertical: [1]) == nil)
    }
}
