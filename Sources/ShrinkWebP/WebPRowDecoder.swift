import ShrinkCore

/// Rows of a decoded WebP frame placed on its canvas: inside the frame's rectangle the frame's pixels,
/// outside it transparent black (an animation's first frame smaller than the canvas, as WebP's animation
/// decoder composes it). A YUVA frame is converted to RGBA row by row (VP8's BT.601 limited range, chroma
/// shared by 2×2 pixels). Costs the frame (``WebPFrame``), released by ``finish()``.
final class WebPRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    private var frame: WebPFrame?
    private let frameOrigin: (x: Int, y: Int)
    private let path: String

    /// Rows of `size` (rgb8 for an RGB frame, rgba8 otherwise), the frame's top-left at `origin`.
    init(frame: WebPFrame, canvas size: PixelSize, at origin: (x: Int, y: Int), path: String) {
        self.frame = frame
        self.size = size
        self.frameOrigin = origin
        self.path = path
        format = frame.mode == .rgb ? .rgb8 : .rgba8
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: frame != nil, path: path)
        guard let frame else { return 0 }
        let channels = format.bytesPerPixel
        for i in 0..<count {
            let destination = buffer + i * bytesPerRow
            let fy = row + i - frameOrigin.y
            let inside = fy >= 0 && fy < frame.size.height
            if !(inside && frameOrigin.x == 0 && frame.size.width == size.width) {
                destination.initializeMemory(as: UInt8.self, repeating: 0, count: size.width * channels)
            }
            guard inside else { continue }
            let target = (destination + frameOrigin.x * channels).assumingMemoryBound(to: UInt8.self)
            if frame.mode == .yuva {
                Self.convertYUVA(frame, row: fy, into: target)
            } else {
                let rowBytes = frame.size.width * channels
                target.update(from: (frame.buffer + fy * rowBytes).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        nextRow += count
        return count
    }

    func finish() throws(ImageError) { frame = nil }

    /// Row `y` of a YUVA frame as RGBA: R = 1.164(Y−16) + 1.596(V−128), G = 1.164(Y−16) − 0.813(V−128)
    /// − 0.391(U−128), B = 1.164(Y−16) + 2.018(U−128), in 14-bit fixed point (libwebp's own coefficients).
    static func convertYUVA(_ frame: WebPFrame, row y: Int, into out: UnsafeMutablePointer<UInt8>) {
        let w = frame.size.width
        let (lumaBytes, chroma) = WebPFrame.planeLayout(frame.size)
        let base = UnsafePointer(frame.buffer.assumingMemoryBound(to: UInt8.self))
        let yRow = base + y * w
        let uRow = base + lumaBytes + (y / 2) * chroma.width
        let vRow = uRow + chroma.pixelCount
        let aRow = base + lumaBytes + 2 * chroma.pixelCount + y * w
        @inline(__always) func clamp(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: min(max(v >> 14, 0), 255)) }
        for x in 0..<w {
            let l = 19077 * (Int(yRow[x]) - 16) + 8192
            let u = Int(uRow[x >> 1]) - 128, v = Int(vRow[x >> 1]) - 128
            out[4 * x] = clamp(l + 26149 * v)
            out[4 * x + 1] = clamp(l - 6419 * u - 13320 * v)
            out[4 * x + 2] = clamp(l + 33050 * u)
            out[4 * x + 3] = aRow[x]
        }
    }
}
