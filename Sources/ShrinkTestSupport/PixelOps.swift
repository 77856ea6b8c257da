#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Shrink

/// Reference pixel operations for tests, written independently of the library's own code: comparisons,
/// and the orientation transforms as Pillow's `exif_transpose` composes them.
public enum PixelOps {
    /// PSNR in dB over all samples (99 when identical). Sizes and formats must match.
    public static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size && a.format == b.format, "psnr of \(a.size) \(a.format) vs \(b.size) \(b.format)")
        var sum = 0.0
        for i in 0..<a.bytes.count {
            let d = Double(a.bytes[i]) - Double(b.bytes[i])
            sum += d * d
        }
        let mse = sum / Double(max(a.bytes.count, 1))
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// Largest absolute sample difference.
    public static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.size == b.size && a.format == b.format)
        return zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Smallest sample in row `y` or column `x` (to find black edges).
    public static func minimum(ofRow y: Int, in image: PixelBuffer) -> UInt8 {
        image.bytes[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)].min() ?? 0
    }

    public static func minimum(ofColumn x: Int, in image: PixelBuffer) -> UInt8 {
        (0..<image.size.height).map { image.pixel(x: x, y: $0).min() ?? 0 }.min() ?? 0
    }

    /// The image mirrored left–right.
    public static func flipLeftRight(_ p: PixelBuffer) -> PixelBuffer {
        remap(p, to: p.size) { x, y in (p.size.width - 1 - x, y) }
    }

    /// The image mirrored top–bottom.
    public static func flipTopBottom(_ p: PixelBuffer) -> PixelBuffer {
        remap(p, to: p.size) { x, y in (x, p.size.height - 1 - y) }
    }

    /// Rows become columns.
    public static func transpose(_ p: PixelBuffer) -> PixelBuffer {
        remap(p, to: p.size.transposed) { x, y in (y, x) }
    }

    /// Rotated 90° counter-clockwise (Pillow's ROTATE_90).
    public static func rotateCounterClockwise(_ p: PixelBuffer) -> PixelBuffer {
        // Output (x, y) shows source (W-1-y, x).
        remap(p, to: p.size.transposed) { x, y in (p.size.width - 1 - y, x) }
    }

    /// The displayed image for EXIF orientation `n` of stored pixels `p`, composed as Pillow does:
    /// 2 mirror, 3 rotate 180, 4 flip, 5 transpose, 6 rotate 270 (CCW), 7 transverse, 8 rotate 90 (CCW).
    public static func exifTranspose(_ p: PixelBuffer, orientation n: Int) -> PixelBuffer {
        let r90 = rotateCounterClockwise
        switch n {
        case 2: return flipLeftRight(p)
        case 3: return r90(r90(p))
        case 4: return flipTopBottom(p)
        case 5: return transpose(p)
        case 6: return r90(r90(r90(p)))
        case 7: return r90(r90(transpose(p)))
        case 8: return r90(p)
        default: return p
        }
    }

    /// The gray image as RGB (each sample repeated).
    public static func rgb(fromGray p: PixelBuffer) -> PixelBuffer {
        PixelBuffer(format: .rgb8, size: p.size, bytes: p.bytes.flatMap { [$0, $0, $0] })
    }

    /// An image of `size` whose pixel (x, y) is source pixel `source(x, y)`.
    private static func remap(_ p: PixelBuffer, to size: PixelSize, _ source: (Int, Int) -> (Int, Int)) -> PixelBuffer {
        let c = p.format.channels
        var out = [UInt8](repeating: 0, count: size.width * size.height * c)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let (sx, sy) = source(x, y)
                for k in 0..<c { out[(y * size.width + x) * c + k] = p.bytes[(sy * p.size.width + sx) * c + k] }
            }
        }
        return PixelBuffer(format: p.format, size: size, bytes: out)
    }
}

extension RowDecoding {
    /// Every remaining row, tightly packed, read in strips of `strip` rows (tests only).
    public func readAll(strip: Int = 7) throws(ImageError) -> [UInt8] {
        let stride = format.byteCount(for: PixelSize(width: size.width, height: 1))
        var out = [UInt8](repeating: 0, count: stride * size.height)
        var failure: ImageError?
        out.withUnsafeMutableBytes { raw in
            do throws(ImageError) {
                while nextRow < size.height {
                    _ = try readRows(
                        startingAt: nextRow, into: raw.baseAddress! + nextRow * stride, bytesPerRow: stride,
                        maxRows: strip)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return out
    }
}
