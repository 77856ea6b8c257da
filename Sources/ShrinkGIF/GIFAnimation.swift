import ShrinkCore

/// A GIF animation decoded frame by frame onto a ``GIFCanvas``: ``GIFFrameWalker`` finds each frame after the first,
/// its LZW data is decoded one row at a time (``GIFLZWLines``: Shrink's LZW decoder, straight from the file, a
/// mapped file's pages released behind the read position), and each row is drawn onto the canvas as it comes. The
/// canvas starts as the still image shows outside its first frame; then the browsers' rules: disposal 2 clears to
/// transparent, disposal 3 restores, a 0 delay stays 0.
///
/// Memory: the canvas (``GIFCanvas``), the LZW decoder's state and one line of the frame's width; nothing grows with
/// the number of frames.
final class GIFAnimation: AnimationDecoding {
    let canvasSize: PixelSize
    let loopCount: Int
    private(set) var framesRead = 0
    private(set) var warnings: [String] = []

    private let bytes: ImageBytes
    private let path: String
    private let canvas: GIFCanvas
    private var walker: GIFFrameWalker
    private var pending: GIFFrame?
    private var previous: GIFFrame?
    private let monitor: DecodeMonitor?
    private var line: [UInt8]

    /// The animation of `decoder`'s file, starting before its first frame.
    init(decoder: GIFDecoder, monitor: DecodeMonitor?) {
        let s = decoder.structure
        bytes = decoder.bytes
        path = decoder.path
        canvasSize = s.canvas
        // NETSCAPE2.0 says how many times to repeat after the first play; 0 is forever. Without it, once.
        loopCount = s.loopCount ?? 1
        // Outside the first frame: its transparent index, else its colour 0 (the still image's fill).
        let first = GIFColorTable(bytes: decoder.bytes, frame: s.firstFrame).rgba
        let fill = (s.firstFrame.transparentIndex ?? 0) * 4
        canvas = GIFCanvas(
            size: s.canvas,
            fill: s.firstFrame.transparentIndex != nil
                ? 0 : UInt32(first[fill]) | UInt32(first[fill + 1]) << 8 | UInt32(first[fill + 2]) << 16 | 0xFF00_0000)
        walker = GIFFrameWalker(bytes: decoder.bytes, globalPalette: s.globalPalette, from: s.afterFirstFrame)
        pending = s.firstFrame
        self.monitor = monitor
        line = [UInt8](repeating: 0, count: max(1, s.canvas.width))
    }

    func advance() throws(ImageError) -> Int? {
        guard let frame = pending ?? walker.next() else {
            if let reason = walker.stopped { warnings.append("\(reason) after frame \(framesRead)") }
            canvas.release()
            return nil
        }
        pending = nil
        if let previous {
            switch previous.disposal {
            case 2: canvas.clear((previous.left, previous.top, previous.size.width, previous.size.height))
            case 3: canvas.restore()
            default: break
            }
        }
        if frame.disposal == 3 { canvas.save((frame.left, frame.top, frame.size.width, frame.size.height)) }
        do throws(ImageError) {
            try draw(frame)
        } catch  where framesRead > 0 && error.code != .cancelled {
            warnings.append(
                "frame \(framesRead + 1) could not be decoded (\(error.reason)): the animation ends before it")
            canvas.release()
            return nil
        }
        previous = frame
        framesRead += 1
        return frame.delay * 10
    }

    func readRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>) { canvas.readRow(y, into: row) }

    /// Decodes `frame`'s rows onto the canvas (interlaced rows in their passes' order).
    private func draw(_ frame: GIFFrame) throws(ImageError) {
        guard frame.size.width > 0, frame.size.height > 0 else { return }
        try monitor?.checkpoint(row: 0)
        canvas.beginFrame(colors: GIFColorTable(bytes: bytes, frame: frame).rgba)
        let visible = canvas.clip((frame.left, frame.top, frame.size.width, frame.size.height))
        let skip = visible.x - frame.left
        guard frame.lzwMinimumCodeSize != 0 else {
            // No code fits: every pixel is index 0 (see GIFRowDecoder).
            line.withUnsafeMutableBufferPointer { l in
                l.update(repeating: 0)
                for y in visible.y..<visible.y + visible.height {
                    canvas.draw(
                        l.baseAddress!, count: visible.width, x: visible.x, y: y, transparent: frame.transparentIndex)
                }
            }
            return
        }
        // Named as the still image's decode names them: "the first frame", then "frame N".
        let name = framesRead == 0 ? "the first frame" : "frame \(framesRead + 1)"
        let lines = try GIFLZWLines(bytes: bytes, frame: frame, path: path, name: name)
        if line.count < frame.size.width { line = [UInt8](repeating: 0, count: frame.size.width) }
        let passes = frame.isInterlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        try line.withUnsafeMutableBufferPointer { l throws(ImageError) in
            var decoded = 0
            for (start, step) in passes {
                var r = start
                while r < frame.size.height {
                    try lines.read(into: l.baseAddress!, count: frame.size.width, row: "row \(r) of \(name)")
                    let y = frame.top + r
                    if y >= visible.y && y < visible.y + visible.height && visible.width > 0 {
                        canvas.draw(
                            l.baseAddress! + skip, count: visible.width, x: visible.x, y: y,
                            transparent: frame.transparentIndex)
                    }
                    decoded += 1
                    if decoded & 63 == 0 { try monitor?.checkpoint(row: decoded) }
                    r += step
                }
            }
        }
    }
}
