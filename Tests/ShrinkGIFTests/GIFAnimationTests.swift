import Shrink
import ShrinkCore
import ShrinkTestSupport
import Testing

@testable import ShrinkGIF

/// GIF animations decoded frame by frame: disposal and blending as browsers do them, durations as stored (0 kept),
/// the canvas palette widening when the canvas shows more colours than fit, the limits, and the frames going through
/// ImageSource at the size shown.
@Suite struct GIFAnimationTests {
    /// Black, red, green, blue, then grays.
    static let palette: [UInt8] = {
        let primaries: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        let grays: [UInt8] = (4..<16).flatMap { (i: Int) -> [UInt8] in [UInt8(i * 16), UInt8(i * 16), UInt8(i * 16)] }
        return primaries + grays
    }()
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    /// Four frames on a 4×4 canvas: red everywhere (kept); a green 2×2 in the middle, cleared after it shows; a blue
    /// corner, restored after it shows; a transparent pixel, which changes nothing.
    static let disposals = TestGIF.file(
        width: 4, height: 4, palette: palette,
        frames: [
            TestGIF.Frame(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16), delay: 10, disposal: 1),
            TestGIF.Frame(left: 1, top: 1, width: 2, height: 2, indices: [2, 2, 2, 2], delay: 0, disposal: 2),
            TestGIF.Frame(width: 1, height: 1, indices: [3], delay: 5, disposal: 3),
            TestGIF.Frame(left: 3, top: 3, width: 1, height: 1, indices: [5], transparent: 5, delay: 2),
        ], loopCount: 0)

    static func frames(_ bytes: [UInt8]) throws -> (frames: [[UInt8]], durations: [Int], loop: Int) {
        let decoder = try GIFDecoder(bytes: ImageBytes(bytes), path: "t.gif")
        let animation = try #require(try decoder.animation(options: DecodeOptions(), monitor: nil))
        var frames: [[UInt8]] = [], durations: [Int] = []
        let w = animation.canvasSize.width, h = animation.canvasSize.height
        while let duration = try animation.advance() {
            var canvas = [UInt8](repeating: 0, count: w * h * 4)
            canvas.withUnsafeMutableBufferPointer { p in
                for y in 0..<h { animation.readRow(y, into: p.baseAddress! + y * w * 4) }
            }
            frames.append(canvas)
            durations.append(duration)
        }
        return (frames, durations, animation.loopCount)
    }

    /// The 4×4 canvas from `pixel(x, y)`.
    static func canvas(_ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        (0..<16).flatMap { pixel($0 % 4, $0 / 4) }
    }

    @Test func disposalAndBlendingAsBrowsersDoThem() throws {
        let (frames, durations, loop) = try Self.frames(Self.disposals)
        #expect(durations == [100, 0, 50, 20] && loop == 0)
        let middle = { (x: Int, y: Int) in (1...2).contains(x) && (1...2).contains(y) }
        #expect(frames.count == 4)
        #expect(frames[0] == Self.canvas { _, _ in Self.red })
        #expect(frames[1] == Self.canvas { x, y in middle(x, y) ? Self.green : Self.red })
        // Frame 1 is cleared to transparent (as browsers do; Pillow would paint the background colour).
        #expect(
            frames[2] == Self.canvas { x, y in x == 0 && y == 0 ? Self.blue : middle(x, y) ? Self.clear : Self.red })
        // Frame 2's corner is restored; frame 3's only pixel is transparent: nothing else changes.
        #expect(frames[3] == Self.canvas { x, y in middle(x, y) ? Self.clear : Self.red })
    }

    @Test func theCanvasStartsAsTheStillImageShowsIt() throws {
        // A first frame smaller than the screen: outside it, colour 0 (black), as the still image and Pillow show it.
        let bytes = TestGIF.file(
            width: 4, height: 4, palette: Self.palette,
            frames: [
                TestGIF.Frame(width: 2, height: 2, indices: [1, 1, 1, 1], delay: 1),
                TestGIF.Frame(left: 2, top: 2, width: 2, height: 2, indices: [3, 3, 3, 3], delay: 1),
            ])
        let (frames, _, loop) = try Self.frames(bytes)
        #expect(loop == 1, "no NETSCAPE2.0 extension: played once")
        let black: [UInt8] = [0, 0, 0, 255]
        #expect(frames[0] == Self.canvas { x, y in x < 2 && y < 2 ? Self.red : black })
        let still = try ImageSource(bytes: bytes, name: "t.gif").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(still.pixels.bytes == frames[0])
        #expect(frames[1] == Self.canvas { x, y in x < 2 && y < 2 ? Self.red : x >= 2 && y >= 2 ? Self.blue : black })
    }

    @Test func aCanvasOfMoreThan255ColoursWidensAndStaysExact() throws {
        // Two 16×16 frames, each half the canvas in 256 colours of its own: 512 colours shown at once.
        func palette(_ k: Int) -> [UInt8] {
            (0..<256).flatMap { (i: Int) -> [UInt8] in [UInt8(i), UInt8(k * 100), UInt8(255 - i)] }
        }
        let left = TestGIF.Frame(
            width: 16, height: 32, indices: (0..<512).map { UInt8($0 % 256) }, localPalette: palette(0), delay: 1)
        let right = TestGIF.Frame(
            left: 16, width: 16, height: 32, indices: (0..<512).map { UInt8(($0 * 7) % 256) }, localPalette: palette(2),
            delay: 1)
        let bytes = TestGIF.file(width: 32, height: 32, palette: Self.palette, frames: [left, right])
        let (frames, _, _) = try Self.frames(bytes)
        let last = frames[1]
        for y in 0..<32 {
            for x in 0..<32 {
                let i = y * 16 + (x % 16)
                let v = x < 16 ? i % 256 : (i * 7) % 256
                let expected: [UInt8] = [UInt8(v), x < 16 ? 0 : 200, UInt8(255 - v), 255]
                #expect(Array(last[(y * 32 + x) * 4..<(y * 32 + x) * 4 + 4]) == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func framesAtTheSizeShownAndTheLimits() throws {
        let bytes = Self.disposals
        let source = try ImageSource(bytes: bytes, name: "t.gif")
        let animation = try #require(try source.animation(.original))
        #expect(
            animation.frameCount == 4 && animation.loopCount == 0 && animation.size == PixelSize(width: 4, height: 4))
        var durations: [Int] = []
        while let frame = try animation.next() {
            #expect(frame.pixels.format == .rgba8 && frame.index == durations.count)
            durations.append(frame.durationMilliseconds)
        }
        #expect(durations == [100, 0, 50, 20] && animation.keepsPalettePixels)
        // Over either limit: no animation, and the warning says why.
        for limits in [ImageLimits(maxAnimationFrames: 3), ImageLimits(maxAnimationPixels: 63)] {
            let limited = try ImageSource(bytes: bytes, name: "t.gif", limits: limits)
            #expect(try limited.animation(.original) == nil)
            #expect(limited.animationLimitWarning?.contains("first frame only") == true)
        }
        #expect(source.animationLimitWarning == nil)
        // A single frame has no animation.
        let still = TestGIF.file(width: 4, height: 4, palette: Self.palette, frames: [Self.frameOf(1)])
        #expect(try ImageSource(bytes: still, name: "s.gif").animation(.original) == nil)
    }

    @Test func durationsAndLoopSurviveAnimatedWebP() throws {
        let source = try ImageSource(bytes: Self.disposals, name: "t.gif")
        let webp = try #require(try source.animation(.original)).encoded(
            with: WebPEncoder(options: .init(lossless: true)))
        let back = try ImageSource(bytes: webp, name: "t.webp")
        #expect(back.info.frameCount == 4 && back.info.loopCount == 0)
        let frames = try #require(try back.animation(.original))
        var durations: [Int] = []
        var pixels: [[UInt8]] = []
        while let frame = try frames.next() {
            durations.append(frame.durationMilliseconds)
            pixels.append(frame.pixels.bytes)
        }
        #expect(durations == [100, 0, 50, 20], "0 ms stays 0")
        let expected = try Self.frames(Self.disposals).frames.map { (frame: [UInt8]) -> [UInt8] in
            // Transparent pixels come back as 0, 0, 0, 0 from WebP (libwebp may change the colour under alpha 0).
            stride(from: 0, to: frame.count, by: 4).flatMap { (i: Int) -> [UInt8] in
                frame[i + 3] == 0 ? Self.clear : Array(frame[i..<i + 4])
            }
        }
        #expect(pixels == expected)
    }

    static func frameOf(_ index: UInt8) -> TestGIF.Frame {
        TestGIF.Frame(width: 4, height: 4, indices: [UInt8](repeating: index, count: 16))
    }
}
