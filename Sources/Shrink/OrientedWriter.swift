import ShrinkCore

/// Places rows of a stored-orientation image into a displayed-orientation buffer, so orientation costs no
/// second image buffer: each row is written once, straight to where it is displayed.
struct OrientedWriter {
    let destination: UnsafeMutablePointer<UInt8>
    /// Size of the image being written, before orientation.
    let storedSize: PixelSize
    let channels: Int
    let orientation: ImageOrientation

    /// Writes stored row `y` (`storedSize.width × channels` bytes).
    func write(row: UnsafePointer<UInt8>, y: Int) {
        let c = channels, w = storedSize.width
        let displayed = orientation.displayedSize(of: storedSize)
        let dstRowBytes = displayed.width * c
        if orientation == .up {
            (destination + y * dstRowBytes).update(from: row, count: w * c)
            return
        }
        // Where stored (0, y) lands, and the step to stored (1, y): every orientation is a unit step.
        let (x0, y0) = orientation.displayedPosition(x: 0, y: y, in: storedSize)
        let (x1, y1) = w > 1 ? orientation.displayedPosition(x: 1, y: y, in: storedSize) : (x0, y0)
        let step = (y1 - y0) * dstRowBytes + (x1 - x0) * c
        var p = destination + y0 * dstRowBytes + x0 * c
        switch c {
        case 1:
            for x in 0..<w {
                p[0] = row[x]
                p += step
            }
        case 3:
            for x in 0..<w {
                p[0] = row[x * 3]
                p[1] = row[x * 3 + 1]
                p[2] = row[x * 3 + 2]
                p += step
            }
        default:
            for x in 0..<w {
                for k in 0..<c { p[k] = row[x * c + k] }
                p += step
            }
        }
    }
}
