/// The pixel loops of ``Finishing``: synchronous functions over interleaved 8-bit pixels of `channels` bytes
/// each, every channel (alpha too) treated alike. Edges are extended (the nearest pixel repeats outside).
enum RasterFilters {
    /// A Gaussian blur of deviation `sigma`, in place, approximated by three box blurs across and down whose
    /// widths give the same variance: a fixed cost a pixel whatever `sigma` is. Allocates one scratch image.
    static func gaussianBlur(_ pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize, channels: Int, sigma: Double)
    {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: pixels.count)
        defer { scratch.deallocate() }
        for radius in boxRadii(sigma: sigma) where radius > 0 {
            boxAcross(pixels, into: scratch, size: size, channels: channels, radius: radius)
            boxDown(scratch, into: pixels, size: size, channels: channels, radius: radius)
        }
    }

    /// `pixels` + (`pixels` − blurred `pixels`) at deviation `sigma`, clamped: edges stand out by their own
    /// contrast. Allocates one blurred copy.
    static func unsharpMask(_ pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize, channels: Int, sigma: Double)
    {
        let blurred = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: pixels.count)
        defer { blurred.deallocate() }
        _ = blurred.initialize(from: pixels)
        gaussianBlur(blurred, size: size, channels: channels, sigma: sigma)
        for i in 0..<pixels.count {
            let v = 2 * Int(pixels[i]) - Int(blurred[i])
            pixels[i] = UInt8(clamping: v)
        }
    }

    /// Every `block` × `block` square (from the top left; the last ones cut by the edges) replaced by its
    /// average, in place.
    static func pixelate(_ pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize, channels: Int, block: Int) {
        let w = size.width, h = size.height, stride = w * channels
        var sums = [Int](repeating: 0, count: channels)
        for y0 in Swift.stride(from: 0, to: h, by: block) {
            let y1 = min(h, y0 + block)
            for x0 in Swift.stride(from: 0, to: w, by: block) {
                let x1 = min(w, x0 + block), count = (y1 - y0) * (x1 - x0)
                for c in 0..<channels { sums[c] = 0 }
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        for c in 0..<channels { sums[c] += Int(pixels[y * stride + x * channels + c]) }
                    }
                }
                for c in 0..<channels { sums[c] = (sums[c] + count / 2) / count }
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        for c in 0..<channels { pixels[y * stride + x * channels + c] = UInt8(sums[c]) }
                    }
                }
            }
        }
    }

    /// `source` (`size`) copied into `canvas` at `origin`, every other pixel of the canvas `fill`.
    static func place(
        _ source: UnsafeBufferPointer<UInt8>, size: PixelSize, into canvas: UnsafeMutableBufferPointer<UInt8>,
        canvas canvasSize: PixelSize, at origin: (x: Int, y: Int), channels: Int, fill: [UInt8]
    ) {
        if fill.contains(where: { $0 != 0 }) {
            for i in 0..<canvasSize.pixelCount {
                for c in 0..<channels { canvas[i * channels + c] = fill[c] }
            }
        }
        let row = size.width * channels, canvasRow = canvasSize.width * channels
        for y in 0..<size.height {
            let from = source.baseAddress! + y * row
            let to = canvas.baseAddress! + (origin.y + y) * canvasRow + origin.x * channels
            to.update(from: from, count: row)
        }
    }

    /// `mark` (rgba8, `size`) blended over `canvas` (rgb8 or rgba8, `canvasSize`) with its top left at `origin` (parts
    /// outside the canvas are skipped), its alpha times `opacity`: `c·a + d·(1 − a)`, and over an alpha canvas the
    /// alphas composed.
    static func blend(
        _ mark: UnsafeBufferPointer<UInt8>, size: PixelSize, over canvas: UnsafeMutableBufferPointer<UInt8>,
        canvas canvasSize: PixelSize, at origin: (x: Int, y: Int), channels: Int, opacity: Double
    ) {
        let scale = Int((opacity * 256).rounded())
        let x0 = max(0, origin.x), x1 = min(canvasSize.width, origin.x + size.width)
        let y0 = max(0, origin.y), y1 = min(canvasSize.height, origin.y + size.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let s = ((y - origin.y) * size.width + (x - origin.x)) * 4, d = (y * canvasSize.width + x) * channels
                let a = Int(mark[s + 3]) * scale / 256
                guard a > 0 else { continue }
                if channels == 4 {
                    let da = Int(canvas[d + 3]), outA = a + da * (255 - a) / 255
                    for c in 0..<3 {
                        let v = (Int(mark[s + c]) * a * 255 + Int(canvas[d + c]) * da * (255 - a)) / max(1, outA * 255)
                        canvas[d + c] = UInt8(clamping: v)
                    }
                    canvas[d + 3] = UInt8(clamping: outA)
                } else {
                    for c in 0..<3 {
                        canvas[d + c] = UInt8((Int(mark[s + c]) * a + Int(canvas[d + c]) * (255 - a) + 127) / 255)
                    }
                }
            }
        }
    }

    /// The radii of three box blurs whose variance together is `sigma`² (each box of width 2r + 1 adds
    /// ((2r + 1)² − 1) / 12), the first ones rounded up where the total needs it.
    static func boxRadii(sigma: Double) -> [Int] {
        let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(1, lower)
        let upper = lower + 2
        let m = ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4))
            .rounded()
        return (0..<3).map { i in (Double(i) < m ? lower : upper) / 2 }
    }

    /// A box blur of width 2·`radius` + 1 along each row, from `source` into `target`.
    static func boxAcross(
        _ source: UnsafeMutableBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>, size: PixelSize,
        channels: Int, radius: Int
    ) {
        let w = size.width, width = 2 * radius + 1, half = width / 2
        var sums = [Int](repeating: 0, count: channels)
        for y in 0..<size.height {
            let row = y * w * channels
            func at(_ x: Int, _ c: Int) -> Int { Int(source[row + min(w - 1, max(0, x)) * channels + c]) }
            for c in 0..<channels {
                var s = 0
                for x in -radius...radius { s += at(x, c) }
                sums[c] = s
            }
            for x in 0..<w {
                for c in 0..<channels {
                    target[row + x * channels + c] = UInt8((sums[c] + half) / width)
                    sums[c] += at(x + radius + 1, c) - at(x - radius, c)
                }
            }
        }
    }

    /// A box blur of width 2·`radius` + 1 down each column, from `source` into `target`, a row at a time.
    static func boxDown(
        _ source: UnsafeMutableBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>, size: PixelSize,
        channels: Int, radius: Int
    ) {
        let h = size.height, stride = size.width * channels, width = 2 * radius + 1, half = width / 2
        var sums = [Int](repeating: 0, count: stride)
        func row(_ y: Int) -> Int { min(h - 1, max(0, y)) * stride }
        for y in -radius...radius {
            let r = row(y)
            for i in 0..<stride { sums[i] += Int(source[r + i]) }
        }
        for y in 0..<h {
            let out = y * stride, add = row(y + radius + 1), drop = row(y - radius)
            for i in 0..<stride {
                target[out + i] = UInt8((sums[i] + half) / width)
                sums[i] += Int(source[add + i]) - Int(source[drop + i])
            }
        }
    }
}
