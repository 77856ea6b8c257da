import ShrinkCore

/// Turns one stored BMP row into a row of the decode's pixel format (gray8, rgb8 or rgba8): palette indices looked
/// up, 16- and 32-bit pixels split by their masks, BGR reordered, and an icon's AND mask applied as alpha.
struct BMPRowUnpacker {
    let header: BMPHeader
    let format: PixelFormat
    /// An icon's AND mask makes pixels transparent (an icon without alpha bytes of its own).
    let appliesMask: Bool

    /// Unpacks `source` (a stored row: packed pixels, or one palette index a byte when `indices`) into `out`.
    func unpack(_ source: UnsafeRawPointer, indices: Bool, into out: UnsafeMutablePointer<UInt8>) {
        let width = header.size.width
        let channels = format.channels
        if header.bitCount <= 8 {
            header.palette.withUnsafeBufferPointer { palette in
                for x in 0..<width {
                    let index: Int
                    if indices {
                        index = Int(source.load(fromByteOffset: x, as: UInt8.self))
                    } else {
                        let bits = header.bitCount
                        let byte = source.load(fromByteOffset: x * bits / 8, as: UInt8.self)
                        let shift = 8 - bits - (x * bits) % 8
                        index = Int(byte >> UInt8(shift)) & (1 << bits - 1)
                    }
                    let o = out + x * channels
                    o[0] = palette[3 * index]
                    if channels >= 3 {
                        o[1] = palette[3 * index + 1]
                        o[2] = palette[3 * index + 2]
                    }
                    if channels == 4 { o[3] = 255 }
                }
            }
            return
        }
        switch header.bitCount {
        case 24:
            for x in 0..<width {
                let s = source + 3 * x, o = out + x * channels
                o[0] = s.load(fromByteOffset: 2, as: UInt8.self)
                o[1] = s.load(fromByteOffset: 1, as: UInt8.self)
                o[2] = s.load(as: UInt8.self)
                if channels == 4 { o[3] = 255 }
            }
        default:
            let (r, g, b, a) = (header.red, header.green, header.blue, header.alpha)
            let wide = header.bitCount == 32
            for x in 0..<width {
                let pixel =
                    wide
                    ? UInt32(littleEndian: source.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
                    : UInt32(UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)))
                let o = out + x * channels
                o[0] = r.value(pixel)
                o[1] = g.value(pixel)
                o[2] = b.value(pixel)
                if channels == 4 { o[3] = a.isPresent && !appliesMask ? a.value(pixel) : 255 }
            }
        }
    }

    /// Clears the alpha of the pixels an icon's AND mask row `mask` marks (bit set: transparent).
    func applyMask(_ mask: UnsafeRawPointer, to out: UnsafeMutablePointer<UInt8>) {
        for x in 0..<header.size.width
        where mask.load(fromByteOffset: x / 8, as: UInt8.self) & (0x80 >> UInt8(x % 8)) != 0 {
            out[4 * x + 3] = 0
        }
    }
}
