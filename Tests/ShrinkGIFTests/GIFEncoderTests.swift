import Shrink
import ShrinkCore
import ShrinkTestSupport
import Testing

@testable import ShrinkGIF

/// GIF written with cgif and Shrink's quantiser, read back by Shrink's GIF decoder (which composites as browsers do):
/// few colours kept exactly, many quantised close, GIF's one-bit alpha, frames, durations and the loop count kept,
/// and the errors.
@Suite struct GIFEncoderTests {
    /// An rgba8 image of `size` from `pixel(x, y)`.
    static func image(_ size: PixelSize, _ pixel: (Int, Int) -> [UInt8]) -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size.pixelCount * 4)
        for y in 0..<size.height {
            for x in 0..<size.width { bytes += pixel(x, y) }
        }
        return PixelBuffer(format: .rgba8, size: size, bytes: bytes)
    }

    /// 200 distinct colours: the table holds them all, so the pixels come back exactly.
    @Test func fewColoursAreKeptExactly() throws {
        let size = PixelSize(width: 20, height: 10)
        let original = Self.image(size) { x, y in [UInt8(y * 20 + x), UInt8(255 - (y * 20 + x)), UInt8(x * 12), 255] }
        let bytes = try GIFEncoder().encode(original)
        let decoded = try ImageSource(bytes: ImageBytes(bytes), name: "t.gif").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(decoded.pixels.bytes == original.bytes)
    }

    /// A smooth gradient of 4,096 colours: quantised to 255, dithered or not, within 30 dB of the original.
    @Test func manyColoursAreQuantisedClose() throws {
        let size = PixelSize(width: 64, height: 64)
        let original = Self.image(size) { x, y in [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] }
        for dithering in GIFEncoder.Options.Dithering.allCases {
            let bytes = try GIFEncoder(options: .init(dithering: dithering)).encode(original)
            let source = try ImageSource(bytes: ImageBytes(bytes), name: "t.gif")
            let decoded = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
            let psnr = PixelOps.psnr(decoded.pixels, original)
            #expect(psnr >= 30 && psnr.isFinite, "\(dithering): \(psnr) dB")
            #expect(source.info.frameCount == 1)
        }
    }

    /// GIF's alpha is one bit: alpha under 128 is not shown, the rest is opaque with its colour.
    @Test func alphaBecomesShownOrNot() throws {
        let alphas: [UInt8] = [0, 100, 127, 128, 200, 255]
        let original = Self.image(PixelSize(width: 6, height: 1)) { (x: Int, _: Int) -> [UInt8] in
            [UInt8(40 * x), 80, 160, alphas[x]]
        }
        let bytes = try GIFEncoder().encode(original)
        let decoded = try ImageSource(bytes: ImageBytes(bytes), name: "t.gif").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        let p = decoded.pixels.bytes
        let shownAlpha: [UInt8] = (0..<6).map { p[4 * $0 + 3] }
        #expect(shownAlpha == [0, 0, 0, 255, 255, 255])
        for x in 3..<6 {
            let shown: [UInt8] = Array(p[4 * x..<4 * x + 3])
            #expect(shown == [UInt8(40 * x), 80, 160])
        }
    }

    /// Frames, durations (hundredths: 1234 ms becomes 1230, 0 stays 0) and the loop count come back; a frame that
    /// clears what the one before showed comes back transparent there.
    @Test func animationsKeepFramesDurationsAndLoop() throws {
        let size = PixelSize(width: 8, height: 8)
        let frames = [
            Self.image(size) { _, _ in [255, 0, 0, 255] },
            Self.image(size) { x, _ in x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255] },
            Self.image(size) { x, _ in x < 4 ? [0, 0, 0, 0] : [0, 0, 255, 255] },
            Self.image(size) { x, y in [UInt8(x * 30), UInt8(y * 30), 9, 255] },
        ]
        for loop in [0, 1, 3] {
            let writer = try GIFEncoder().startAnimation(
                size: size, frames: 4, loopCount: loop, metadata: ImageMetadata())
            for (frame, ms) in zip(frames, [0, 40, 1234, 100]) { try writer.add(frame, durationMilliseconds: ms) }
            let bytes = try writer.finish()
            let read = try GIFAnimationTests.frames(bytes)
            #expect(read.frames == frames.map(\.bytes), "loop \(loop)")
            #expect(read.durations == [0, 40, 1230, 100] && read.loop == (loop == 1 ? 1 : loop))
            let info = try ImageSource(bytes: ImageBytes(bytes), name: "t.gif").info
            #expect(info.frameCount == 4 && info.loopCount == (loop == 1 ? nil : loop))
        }
    }

    /// A frame whose pixels are the frame before's is merged into it, the durations summed.
    @Test func identicalFramesAreMerged() throws {
        let size = PixelSize(width: 4, height: 4)
        let a = Self.image(size) { x, _ in [UInt8(x * 60), 0, 0, 255] }
        let b = Self.image(size) { _, y in [0, UInt8(y * 60), 0, 255] }
        let writer = try GIFEncoder().startAnimation(size: size, frames: 5, loopCount: 0, metadata: ImageMetadata())
        for (frame, ms) in [(a, 10), (a, 20), (b, 30), (b, 0), (a, 40)] {
            try writer.add(frame, durationMilliseconds: ms)
        }
        let read = try GIFAnimationTests.frames(try writer.finish())
        #expect(read.frames == [a.bytes, b.bytes, a.bytes] && read.durations == [30, 30, 40])
    }

    @Test func refusals() throws {
        let size = PixelSize(width: 4, height: 4)
        let writer = try GIFEncoder().startAnimation(size: size, frames: 2, loopCount: 0, metadata: ImageMetadata())
        #expect(throws: ImageError.self) { try writer.finish() }
        #expect(throws: ImageError.self) {
            try writer.add(
                Self.image(PixelSize(width: 2, height: 2)) { _, _ in [1, 2, 3, 255] }, durationMilliseconds: 1)
        }
        #expect(throws: ImageError.self) {
            try GIFEncoder().startAnimation(
                size: PixelSize(width: 70_000, height: 1), frames: 2, loopCount: 0, metadata: ImageMetadata())
        }
    }
}
