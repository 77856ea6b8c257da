import CShrinkGIF
import ShrinkCore

/// GIF files for tests, written into memory by giflib's encoder (real LZW data), or headers written by hand.
public enum TestGIF {
    /// One frame: its rectangle, its palette indices row by row (top to bottom, whatever `interlaced` says: the
    /// encoder is handed them in pass order), an optional local palette and transparent index.
    public struct Frame {
        public var left = 0, top = 0, width: Int, height: Int
        public var indices: [UInt8]
        public var interlaced = false
        public var transparent: Int?
        public var localPalette: [UInt8]?
        /// Hundredths of a second; with `disposal`, written in a graphics control extension when either is not 0.
        public var delay = 0
        public var disposal = 0

        public init(
            left: Int = 0, top: Int = 0, width: Int, height: Int, indices: [UInt8], interlaced: Bool = false,
            transparent: Int? = nil, localPalette: [UInt8]? = nil, delay: Int = 0, disposal: Int = 0
        ) {
            (self.left, self.top, self.width, self.height) = (left, top, width, height)
            self.indices = indices
            self.interlaced = interlaced
            self.transparent = transparent
            self.localPalette = localPalette
            self.delay = delay
            self.disposal = disposal
        }
    }

    /// Collects what giflib writes.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// A GIF89a file: a `screen`-sized logical screen with `palette` (RGB triples, a power of two of them) as the
    /// global table, `frames` each preceded by a graphics control extension when it has a transparent index, and a
    /// NETSCAPE2.0 extension when `loopCount` is given.
    public static func file(
        width: Int, height: Int, palette: [UInt8], frames: [Frame], loopCount: Int? = nil,
        background: Int = 0
    ) -> [UInt8] {
        let sink = Sink()
        var error: Int32 = 0
        let gif = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { gif, data, count in
                guard let gif, let data, let user = gif.pointee.UserData else { return 0 }
                Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes += UnsafeBufferPointer(
                    start: data, count: Int(count))
                return count
            }, &error)!
        EGifSetGifVersion(gif, true)
        func colorMap(_ rgb: [UInt8]) -> UnsafeMutablePointer<ColorMapObject> {
            let colors = stride(from: 0, to: rgb.count, by: 3).map {
                GifColorType(Red: rgb[$0], Green: rgb[$0 + 1], Blue: rgb[$0 + 2])
            }
            return GifMakeMapObject(Int32(colors.count), colors)!
        }
        let global = colorMap(palette)
        defer { GifFreeMapObject(global) }
        precondition(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, Int32(background), global) == GIF_OK)
        if let loopCount {
            var id = Array("NETSCAPE2.0".utf8), loop: [UInt8] = [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]
            EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE)
            EGifPutExtensionBlock(gif, 11, &id)
            EGifPutExtensionBlock(gif, 3, &loop)
            EGifPutExtensionTrailer(gif)
        }
        for frame in frames {
            if frame.transparent != nil || frame.delay != 0 || frame.disposal != 0 {
                let packed = UInt8(frame.disposal << 2) | (frame.transparent == nil ? 0 : 1)
                var gce: [UInt8] = [
                    packed, UInt8(frame.delay & 0xFF), UInt8(frame.delay >> 8), UInt8(frame.transparent ?? 0),
                ]
                EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &gce)
            }
            let local = frame.localPalette.map(colorMap)
            defer { if let local { GifFreeMapObject(local) } }
            precondition(
                EGifPutImageDesc(
                    gif, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
                    frame.interlaced, local) == GIF_OK)
            let rows = frame.interlaced ? interlacedOrder(frame.height) : Array(0..<frame.height)
            for r in rows {
                var line = Array(frame.indices[r * frame.width..<(r + 1) * frame.width])
                precondition(EGifPutLine(gif, &line, Int32(frame.width)) == GIF_OK)
            }
        }
        EGifCloseFile(gif, &error)
        return sink.bytes
    }

    /// Row numbers in GIF interlace order: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    public static func interlacedOrder(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: height, by: $0.1) }
    }

    /// A header and screen descriptor of `width` × `height` with a 2-entry global table, then `rest` (blocks).
    public static func header(width: Int, height: Int, rest: [UInt8] = []) -> [UInt8] {
        Array("GIF89a".utf8) + [
            UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x80, 0, 0,
        ]
            + [0, 0, 0, 255, 255, 255] + rest
    }

    /// An image descriptor for a `width` × `height` frame at (`left`, `top`) without a local table, followed by
    /// LZW minimum code size `codeSize` and `data` as one sub-block and a terminator.
    public static func image(left: Int = 0, top: Int = 0, width: Int, height: Int, codeSize: UInt8 = 2, data: [UInt8])
        -> [UInt8]
    {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        return [0x2C] + u16(left) + u16(top) + u16(width) + u16(height) + [0, codeSize]
            + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0]
    }

    /// A 16-colour test palette: entry i is (16·i, 255 − 16·i, (37·i) mod 256).
    public static let palette16: [UInt8] = (0..<16).flatMap { (i: Int) -> [UInt8] in
        let r = UInt8(16 * i), g = UInt8(255 - 16 * i), b = UInt8(37 * i % 256)
        return [r, g, b]
    }

    /// Indices of a `width` × `height` pattern over `colors` entries, different in every row and column.
    public static func pattern(width: Int, height: Int, colors: Int = 16) -> [UInt8] {
        (0..<width * height).map { (i: Int) -> UInt8 in
            let x = i % width, y = i / width
            return UInt8((x * 3 + y * 5 + x * y / 7) % colors)
        }
    }
}
