/// Converts one row of pixels between the interleaved formats (gray8, rgb8, rgba8, rgba16 in; gray8,
/// rgb8, rgba8 out, or rgba16 unchanged): 16-bit samples round to 8 bits, alpha is dropped or added (opaque), gray is
/// replicated, and a gray image carried as RGBA keeps its first channel.
package enum RowConverter {
    /// The 8-bit format with the same channels as `format` (rgba16 → rgba8).
    package static func eightBit(_ format: PixelFormat) -> PixelFormat {
        format == .rgba16 ? .rgba8 : format
    }

    /// Converts `width` pixels at `source` in `from` to `destination` in `to`.
    package static func convert(
        _ source: UnsafeRawPointer, from: PixelFormat, to destination: UnsafeMutablePointer<UInt8>,
        as to: PixelFormat, width: Int
    ) {
        let cs = from.channels, cd = to.channels
        if from == to {
            destination.update(from: source.assumingMemoryBound(to: UInt8.self), count: width * to.bytesPerPixel)
            return
        }
        if from == .rgba16 {
            let p = source.assumingMemoryBound(to: UInt16.self)
            for x in 0..<width {
                for k in 0..<cd { destination[x * cd + k] = narrow(p[x * 4 + pick(k, cs, cd)]) }
            }
            return
        }
        let p = source.assumingMemoryBound(to: UInt8.self)
        for x in 0..<width {
            for k in 0..<cd {
                destination[x * cd + k] = (k == 3 && cs < 4) ? 255 : p[x * cs + pick(k, cs, cd)]
            }
        }
    }

    /// Which source channel feeds destination channel `k`.
    @inline(__always)
    private static func pick(_ k: Int, _ cs: Int, _ cd: Int) -> Int {
        if cs == 1 { return 0 } // gray replicated
        if cd == 1 { return 0 } // gray carried as RGB(A): the first channel
        return min(k, cs - 1)
    }

    /// 16 → 8 bits, rounded: `v × 255 / 65535`.
    @inline(__always)
    private static func narrow(_ v: UInt16) -> UInt8 {
        UInt8((UInt32(v) * 255 + 32767) / 65535)
    }
}
