import ShrinkCore

/// A rectangle of a WebP frame for libwebp to emit (stored pixels): left and top even, as libwebp snaps them.
struct WebPCrop: Equatable {
    let x: Int, y: Int, width: Int, height: Int

    /// The smallest crop with even left and top that covers `window` (pixels of the frame scaled to `scaled`)
    /// in a frame of `size`, or nil when that is the whole frame.
    init?(covering window: FractionalRect, scaled: PixelSize, of size: PixelSize) {
        let sx = Double(size.width) / Double(scaled.width), sy = Double(size.height) / Double(scaled.height)
        let x0 = max(0, Int((window.x * sx).rounded(.down))) & ~1
        let y0 = max(0, Int((window.y * sy).rounded(.down))) & ~1
        let x1 = min(size.width, Int(((window.x + window.width) * sx).rounded(.up)))
        let y1 = min(size.height, Int(((window.y + window.height) * sy).rounded(.up)))
        guard x1 > x0, y1 > y0, (x0, y0, x1, y1) != (0, 0, size.width, size.height) else { return nil }
        (x, y, width, height) = (x0, y0, x1 - x0, y1 - y0)
    }

    /// The crop as a rectangle.
    var rect: FractionalRect {
        FractionalRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
}
