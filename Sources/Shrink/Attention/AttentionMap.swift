// The C library's pow, exp and log, not Foundation's: one `import Foundation` links all of it, CoreFoundation's
// start-up included, into every binary (BENCHMARKS.md, "Start-up").
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore
import ShrinkResample

/// Where a window cut from an image keeps what draws the eye, by libvips' "attention" strategy (`vips_smartcrop`, as
/// libvips 8.14 has it): the image resampled to a 32 × 32 grid; on it, the Laplacian of Y (CIE XYZ) times 5 as edge
/// energy, a skin score (100 less 100 × the distance of the colour's unit XYZ vector from a skin direction) and CIELAB
/// a as a saturation score, both where Y passes 5; their sum blurred by a Gaussian of a tenth of the window's diagonal
/// in grid cells (at least one), and the window centred on the maximum, clamped inside the image.
///
/// It runs on the image already reduced to cover the window's box (as libvips runs it inside `vipsthumbnail`): one
/// resampling pass over the reduced pixels to 32 × 32, then arithmetic on 1,024 cells.
enum AttentionMap {
    /// The grid the image is resampled to, a side.
    static let grid = 32

    /// The origin of the `window`-sized rectangle of `image` (rgb8) libvips' attention strategy keeps.
    static func windowOrigin(_ image: PixelBuffer, window: PixelSize) -> (x: Int, y: Int) {
        precondition(image.format == .rgb8)
        let w = image.size.width, h = image.size.height
        let cells = PixelSize(width: grid, height: grid)
        var small = [UInt8](repeating: 0, count: grid * grid * 3)
        let resampler = StreamingResampler(inputSize: image.size, format: .rgb8, outputSize: cells)
        image.bytes.withUnsafeBytes { rows in
            resampler.consume(rows.baseAddress!, bytesPerRow: w * 3, count: h) { y, row in
                for i in 0..<row.count { small[y * grid * 3 + i] = row[i] }
            }
        }
        var energy = small.withUnsafeBufferPointer { score($0) }
        let hscale = Double(grid) / Double(w), vscale = Double(grid) / Double(h)
        let dx = Double(window.width) * hscale, dy = Double(window.height) * vscale
        energy = blurred(energy, sigma: max((dx * dx + dy * dy).squareRoot() / 10, 1))
        var best = 0
        for i in 1..<energy.count where energy[i] > energy[best] { best = i }
        let ax = Int(Double(best % grid) / hscale), ay = Int(Double(best / grid) / vscale)
        return (
            max(0, min(w - window.width, ax - window.width / 2)),
            max(0, min(h - window.height, ay - window.height / 2))
        )
    }

    /// The grid's energy: |5 × Laplacian of Y| (edges repeated outside), plus the skin and the saturation scores.
    static func score(_ rgb: UnsafeBufferPointer<UInt8>) -> [Double] {
        let n = grid * grid
        var xyz = [Double](repeating: 0, count: 3 * n)
        let linear = (0..<256).map { i -> Double in
            let c = Double(i) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        for i in 0..<n {
            let r = linear[Int(rgb[3 * i])], g = linear[Int(rgb[3 * i + 1])], b = linear[Int(rgb[3 * i + 2])]
            xyz[3 * i] = 100 * (0.4124 * r + 0.3576 * g + 0.1805 * b)
            xyz[3 * i + 1] = 100 * (0.2126 * r + 0.7152 * g + 0.0722 * b)
            xyz[3 * i + 2] = 100 * (0.0193 * r + 0.1192 * g + 0.9505 * b)
        }
        func y(_ x: Int, _ row: Int) -> Double {
            xyz[3 * (min(grid - 1, max(0, row)) * grid + min(grid - 1, max(0, x))) + 1]
        }
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        var energy = [Double](repeating: 0, count: n)
        for row in 0..<grid {
            for x in 0..<grid {
                let i = row * grid + x
                let (cx, cy, cz) = (xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2])
                let laplacian = 4 * cy - y(x - 1, row) - y(x + 1, row) - y(x, row - 1) - y(x, row + 1)
                var e = abs(5 * laplacian)
                if cy > 5 {
                    let norm = (cx * cx + cy * cy + cz * cz).squareRoot()
                    let sx = cx / norm - 0.78, sy = cy / norm - 0.57, sz = cz / norm - 0.44
                    e += 100 - 100 * (sx * sx + sy * sy + sz * sz).squareRoot()
                    e += 500 * (f(cx / 95.047) - f(cy / 100)) // CIELAB a
                }
                energy[i] = e
            }
        }
        return energy
    }

    /// `cells` blurred by a Gaussian of `sigma` cells across and down (cut where it falls below 0.2 of its peak,
    /// as libvips' `gaussblur`; edges repeated).
    static func blurred(_ cells: [Double], sigma: Double) -> [Double] {
        let radius = max(1, Int(sigma * (-2 * log(0.2)).squareRoot()))
        let kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        func pass(_ input: [Double], across: Bool) -> [Double] {
            var out = [Double](repeating: 0, count: input.count)
            for y in 0..<grid {
                for x in 0..<grid {
                    var s = 0.0
                    for (k, weight) in kernel.enumerated() {
                        let d = k - radius
                        let xx = across ? min(grid - 1, max(0, x + d)) : x
                        let yy = across ? y : min(grid - 1, max(0, y + d))
                        s += weight * input[yy * grid + xx]
                    }
                    out[y * grid + x] = s / total
                }
            }
            return out
        }
        return pass(pass(cells, across: true), across: false)
    }
}
