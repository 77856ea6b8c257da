import ShrinkCore

/// The pixel loop of ``Trim``: the bounding box of what is not background in an rgba8 image.
enum TrimFinder {
    /// The rectangle of `image` (rgba8) left once `trim` cuts its background; the whole image when all of it is
    /// background.
    static func content(of image: PixelBuffer, trim: Trim) -> PixelRect {
        precondition(image.format == .rgba8)
        let w = image.size.width, h = image.size.height
        let whole = PixelRect(x: 0, y: 0, width: w, height: h)
        return image.bytes.withUnsafeBufferPointer { p -> PixelRect in
            let corner = trim.corner == .topLeft ? 0 : (w * h - 1) * 4
            let bg: [Int] =
                trim.color.map { [Int($0.red), Int($0.green), Int($0.blue), 255] }
                ?? (0..<4).map { Int(p[corner + $0]) }
            let limit = max(0, trim.threshold)
            func isContent(_ i: Int) -> Bool {
                // Transparent pixels match a transparent background whatever their colour.
                if bg[3] == 0 && p[i + 3] == 0 { return false }
                for c in 0..<4 where abs(Int(p[i + c]) - bg[c]) > limit { return true }
                return false
            }
            var (x0, y0, x1, y1) = (w, h, -1, -1)
            for y in 0..<h {
                for x in 0..<w where isContent((y * w + x) * 4) {
                    x0 = min(x0, x)
                    x1 = max(x1, x)
                    y0 = min(y0, y)
                    y1 = max(y1, y)
                }
            }
            guard x1 >= x0, y1 >= y0 else { return whole }
            var (left, right, top, bottom) = (x0, w - 1 - x1, y0, h - 1 - y1)
            if trim.equalHorizontal { (left, right) = (min(left, right), min(left, right)) }
            if trim.equalVertical { (top, bottom) = (min(top, bottom), min(top, bottom)) }
            return PixelRect(x: left, y: top, width: w - left - right, height: h - top - bottom)
        }
    }
}
