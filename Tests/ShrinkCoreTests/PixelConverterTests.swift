import Testing
import ShrinkCore
import ShrinkTestSupport

@Suite struct PixelConverterTests {
    @Test func planesAreLaidOutExactly() {
        let s = PixelSize(width: 5, height: 3)
        #expect(PixelFormat.yuv420.planes(for: s).map(\.offset) == [0, 15, 21])
        #expect(PixelFormat.yuv420.planes(for: s).map(\.byteCount) == [15, 6, 6])
        #expect(PixelFormat.nv12.planes(for: s).map(\.byteCount) == [15, 12])
        #expect(PixelFormat.nv12.byteCount(for: s) == PixelFormat.yuv420.byteCount(for: s))
        #expect(PixelFormat.rgba16.byteCount(for: s) == 120 && PixelFormat.grayAlpha8.byteCount(for: s) == 30)
    }

    @Test(arguments: [PixelConverter.Matrix.bt601, .bt709])
    func knownColorsSurviveYUV(_ matrix: PixelConverter.Matrix) {
        // Flat colours (no chroma blending across blocks) come back within rounding.
        let colors: [[UInt8]] = [
            [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [128, 64, 200],
        ]
        for c in colors {
            let rgb = PixelBuffer(
                format: .rgb8, size: PixelSize(width: 4, height: 4),
                bytes: Array([[UInt8]](repeating: c, count: 16).joined()))
            for planar in [PixelFormat.yuv420, .nv12] {
                let yuv = PixelConverter.convert(rgb, to: planar, matrix: matrix)
                #expect(yuv.byteCount == 16 + 2 * 4)
                let back = PixelConverter.convert(yuv, to: .rgb8, matrix: matrix)
                #expect(
                    PixelOps.maxDifference(back, rgb) <= 2,
                    "\(c) via \(planar) \(matrix): \(Array(back.bytes.prefix(3)))")
            }
        }
        // JPEG's full-range BT.601: white is Y 255, Cb = Cr = 128; red is Y 76, Cr 255.
        let red = PixelConverter.convert(
            PixelBuffer(
                format: .rgb8, size: PixelSize(width: 2, height: 2),
                bytes: [UInt8](repeating: 0, count: 12).enumerated().map { $0.offset % 3 == 0 ? 255 : 0 }),
            to: .yuv420)
        if matrix == .bt601 { #expect(red.bytes == [76, 76, 76, 76, 85, 255]) }
    }

    @Test func photoRoundTripsThroughYUVAndNV12() {
        let image = TestImages.pattern(width: 63, height: 41) // odd sizes: partial chroma blocks
        let i420 = PixelConverter.convert(image, to: .yuv420)
        let nv12 = PixelConverter.convert(image, to: .nv12)
        #expect(PixelConverter.convert(i420, to: .rgba8).bytes == PixelConverter.convert(nv12, to: .rgba8).bytes)
        let back = PixelConverter.convert(i420, to: .rgb8)
        #expect(PixelOps.psnr(back, image) > 30)
        // The vectorised RGBA path and the scalar RGB path compute the same colours.
        let rgba = PixelConverter.convert(i420, to: .rgba8)
        #expect(PixelConverter.convert(rgba, to: .rgb8).bytes == back.bytes)
        #expect(stride(from: 3, to: rgba.byteCount, by: 4).allSatisfy { rgba.bytes[$0] == 255 })
        // Luma of the colour image equals gray8's conversion of the same pixels.
        #expect(Array(i420.bytes[0..<(63 * 41)]) == PixelConverter.convert(image, to: .gray8).bytes)
    }

    @Test func interleavedConversions() {
        let rgba = PixelBuffer(
            format: .rgba8, size: PixelSize(width: 2, height: 1), bytes: [200, 100, 50, 128, 10, 20, 30, 0])
        #expect(PixelConverter.convert(rgba, to: .bgra8).bytes == [50, 100, 200, 128, 30, 20, 10, 0])
        #expect(PixelConverter.convert(rgba, to: .rgba8Premultiplied).bytes == [100, 50, 25, 128, 0, 0, 0, 0])
        #expect(PixelConverter.convert(rgba, to: .bgra8Premultiplied).bytes == [25, 50, 100, 128, 0, 0, 0, 0])
        #expect(PixelConverter.convert(rgba, to: .alpha8).bytes == [128, 0])
        #expect(PixelConverter.convert(rgba, to: .rgb8).bytes == [200, 100, 50, 10, 20, 30])
        let wide = PixelConverter.convert(rgba, to: .rgba16)
        #expect(wide.byteCount == 16)
        #expect(PixelConverter.convert(wide, to: .rgba8).bytes == rgba.bytes)
        let premultiplied = PixelConverter.convert(rgba, to: .rgba8Premultiplied)
        // Back to straight: the half-transparent pixel within rounding; the transparent one has no colour left.
        // 200·128/255 → 100 → 199
        #expect(PixelConverter.convert(premultiplied, to: .rgba8).bytes == [199, 100, 50, 128, 0, 0, 0, 0])
        let gray = PixelBuffer(format: .gray8, size: PixelSize(width: 2, height: 1), bytes: [7, 250])
        #expect(PixelConverter.convert(gray, to: .rgba8).bytes == [7, 7, 7, 255, 250, 250, 250, 255])
        #expect(PixelConverter.convert(gray, to: .grayAlpha8).bytes == [7, 255, 250, 255])
    }
}

/// CMYK ink without a profile: (1 − ink)(1 − black), the stored values read inverted only when asked.
@Suite struct NaiveInkTests {
    static func rgb(_ cmyk: [UInt8], inverted: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 3)
        cmyk.withUnsafeBufferPointer { ink in
            out.withUnsafeMutableBufferPointer {
                NaiveInk().convert(ink.baseAddress!, inverted: inverted, into: $0.baseAddress!, count: 1)
            }
        }
        return out
    }

    @Test func plainAndInvertedInk() {
        #expect(Self.rgb([0, 0, 0, 0], inverted: false) == [255, 255, 255]) // no ink: paper
        #expect(Self.rgb([0, 0, 0, 0], inverted: true) == [0, 0, 0]) // Adobe's 0 is full ink
        #expect(Self.rgb([255, 0, 0, 0], inverted: false) == [0, 255, 255]) // full cyan
        #expect(Self.rgb([0, 255, 255, 255], inverted: true) == [0, 255, 255]) // the same, stored inverted
        // Ink 128 under black 128: 127 × 127 / 255 = 63.25 of the light, 63; the other channels 127 × 255 / 255.
        #expect(Self.rgb([128, 0, 0, 128], inverted: false) == [63, 127, 127])
    }
}
