import ShrinkCore

/// What a BMP's headers say, read and checked before any pixel: the DIB header (Windows' 40-byte BITMAPINFOHEADER
/// and its 52/56/108/124-byte successors, OS/2's 12-byte core header and 16–64-byte second version), the masks of
/// 16- and 32-bit pixels, the palette and where the pixels (and, in an icon, the AND mask) are.
///
/// Every offset is checked against the bytes: a header that points outside them, a palette larger than its bit
/// depth allows, a size over ``ImageLimits`` or uncompressed rows running past the end are refused here, so the row
/// decoder reads within bounds by construction.
struct BMPHeader {
    /// The image's size (an icon entry's, without its AND mask).
    let size: PixelSize
    /// Rows stored top first (a negative height); BMP's usual order is bottom first.
    let isTopDown: Bool
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    let bitCount: Int
    /// How the pixels are stored.
    let compression: BMPCompression
    /// The channels of a 16- or 32-bit pixel.
    let red: BMPChannelMask, green: BMPChannelMask, blue: BMPChannelMask, alpha: BMPChannelMask
    /// The palette as RGB triples, 256 entries (missing ones black) for images of 8 bits or fewer; empty otherwise.
    let palette: [UInt8]
    /// Entries the file's palette really has.
    let paletteCount: Int
    /// Where the pixel data starts in the bytes.
    let pixelOffset: Int
    /// Bytes from one stored row to the next (uncompressed).
    let stride: Int
    /// Where an icon entry's AND mask starts (1 bit a pixel, rows padded to 4 bytes, bottom first); nil for a BMP
    /// file, or an icon whose mask is missing.
    let maskOffset: Int?
    /// An embedded ICC profile (a version 5 header's PROFILE_EMBEDDED).
    let iccProfile: Range<Int>?
    /// The DIB header's size in bytes, which names its version.
    let headerSize: Int

    /// Reads the DIB header at `dib` in `bytes`. A BMP file gives its `pixelOffset` (from the file header); an icon
    /// entry (`isIcon`) has none: its pixels follow the palette, its height counts the AND mask too, and the mask
    /// follows the pixels. Fails with `.corruptData`, `.truncated`, `.unsupportedFeature` or `.limitExceeded`.
    init(
        _ bytes: UnsafeRawBufferPointer, dib: Int, pixelOffset fileOffset: Int?, isIcon: Bool, path: String,
        limits: ImageLimits
    ) throws(ImageError) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func i32(_ at: Int) -> Int { Int(Int32(bitPattern: u32(at))) }
        guard dib + 4 <= bytes.count else { throw ImageError(.truncated, "\(path): the BMP header is cut short") }
        let headerSize = Int(u32(dib))
        self.headerSize = headerSize
        let known = headerSize == 12 || (16...64).contains(headerSize) || [108, 124].contains(headerSize)
        guard known else { throw ImageError(.corruptData, "\(path): unknown BMP header size \(headerSize)") }
        guard dib + headerSize <= bytes.count else {
            throw ImageError(.truncated, "\(path): the \(headerSize)-byte BMP header is cut short")
        }
        let isCore = headerSize == 12
        let width = isCore ? u16(dib + 4) : i32(dib + 4)
        var height = isCore ? u16(dib + 6) : i32(dib + 8)
        bitCount = u16(dib + (isCore ? 10 : 14))
        let rawCompression = headerSize >= 20 ? u32(dib + 16) : 0
        // OS/2's second header (16–64 bytes but not Windows' 40, 52 or 56) numbers its compressions apart.
        let isOS2 = isCore || (headerSize != 40 && headerSize != 52 && headerSize != 56 && headerSize < 108)
        var bitfields = false
        switch (rawCompression, isOS2) {
        case (0, _): compression = .none
        case (1, _): compression = .rle8
        case (2, _): compression = .rle4
        case (3, false):
            compression = .none
            bitfields = true
        case (3, true):
            throw ImageError(.unsupportedFeature, "\(path): OS/2 Huffman 1D-compressed BMP is not supported")
        case (4, true): throw ImageError(.unsupportedFeature, "\(path): OS/2 RLE24-compressed BMP is not supported")
        case (4, false): throw ImageError(.unsupportedFeature, "\(path): a BMP holding a JPEG image is not supported")
        case (5, false): throw ImageError(.unsupportedFeature, "\(path): a BMP holding a PNG image is not supported")
        case (6, false):
            throw ImageError(.unsupportedFeature, "\(path): BI_ALPHABITFIELDS (Windows CE) BMP is not supported")
        default: throw ImageError(.corruptData, "\(path): unknown BMP compression \(rawCompression)")
        }
        switch bitCount {
        case 1, 4, 8, 16, 24, 32: break
        case 2: throw ImageError(.unsupportedFeature, "\(path): 2-bit BMP (Windows CE) is not supported")
        case 64: throw ImageError(.unsupportedFeature, "\(path): 64-bit BMP is not supported")
        default: throw ImageError(.corruptData, "\(path): a BMP of \(bitCount) bits per pixel")
        }
        guard compression != .rle8 || bitCount == 8, compression != .rle4 || bitCount == 4,
            !bitfields || bitCount == 16 || bitCount == 32
        else {
            throw ImageError(.corruptData, "\(path): BMP compression \(rawCompression) with \(bitCount)-bit pixels")
        }
        guard height != Int(Int32.min), width > 0, height != 0 else {
            throw ImageError(.corruptData, "\(path): a BMP of \(width)x\(height) pixels")
        }
        isTopDown = height < 0 && !isIcon
        height = abs(height)
        if isIcon {
            // An icon's height counts its AND mask; an odd one (a few writers') is the image's own.
            height = height % 2 == 0 ? height / 2 : height
        }
        size = PixelSize(width: width, height: height)
        try limits.check(size, path: path)

        // Masks: BI_BITFIELDS's after a 40-byte header, or in the header from 52 bytes (alpha from 56).
        var masks: [UInt32] =
            bitCount == 16 ? [0x7C00, 0x03E0, 0x001F, 0] : [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0]
        var tableStart = dib + headerSize
        if bitfields {
            let at = headerSize == 40 ? tableStart : dib + 40
            if headerSize == 40 { tableStart += 12 }
            guard at + 12 <= bytes.count else { throw ImageError(.truncated, "\(path): the BMP's masks are cut short") }
            masks = [u32(at), u32(at + 4), u32(at + 8), headerSize >= 56 ? u32(dib + 52) : 0]
        }
        if isIcon && bitCount == 32 && !bitfields { masks[3] = 0xFF00_0000 }
        guard let r = BMPChannelMask(masks[0]), let g = BMPChannelMask(masks[1]), let b = BMPChannelMask(masks[2]),
            let a = BMPChannelMask(masks[3]),
            bitCount <= 8 || masks.allSatisfy({ [bits = bitCount] in $0.nonzeroBitCount <= bits })
        else { throw ImageError(.corruptData, "\(path): the BMP's channel masks are not contiguous bits") }
        (red, green, blue, alpha) = (r, g, b, a)

        // The palette: 3-byte entries after a core header, 4-byte ones otherwise.
        let entryBytes = isCore ? 3 : 4
        let used = headerSize >= 36 ? Int(u32(dib + 32)) : 0
        if bitCount <= 8 {
            let most = 1 << bitCount
            var count = used == 0 ? most : used
            // An OS/2 1.x palette has no count: it runs to the pixel data (often short of 2^bits entries).
            if isCore, let offset = fileOffset, offset > tableStart {
                count = min(count, (offset - tableStart) / entryBytes)
            }
            guard count <= most else {
                throw ImageError(
                    .corruptData, "\(path): a \(count)-colour palette for \(bitCount)-bit pixels (at most \(most))")
            }
            guard tableStart + count * entryBytes <= bytes.count else {
                throw ImageError(.truncated, "\(path): the BMP's palette is cut short")
            }
            var rgb = [UInt8](repeating: 0, count: 256 * 3)
            for i in 0..<count {
                let e = tableStart + i * entryBytes
                (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) = (bytes[e + 2], bytes[e + 1], bytes[e])
            }
            palette = rgb
            paletteCount = count
            tableStart += count * entryBytes
        } else {
            palette = []
            paletteCount = 0
        }

        let rowBits = width.multipliedReportingOverflow(by: bitCount)
        guard !rowBits.overflow else { throw ImageError(.corruptData, "\(path): a BMP row is too long") }
        stride = (rowBits.partialValue + 31) / 32 * 4
        // An offset into the palette (a writer that left the palette out of it) means right after it, as Pillow reads it.
        let start = isIcon ? tableStart : max(fileOffset ?? tableStart, tableStart)
        guard start >= dib + headerSize, start <= bytes.count else {
            throw ImageError(.corruptData, "\(path): the BMP's pixel data offset \(start) is outside the file")
        }
        pixelOffset = start
        if compression == .none {
            let (total, overflow) = stride.multipliedReportingOverflow(by: height)
            guard !overflow, start + total <= bytes.count else {
                throw ImageError(
                    .truncated,
                    "\(path): the BMP's pixels end after \(bytes.count - start) of \(overflow ? "too many" : "\(total)") bytes"
                )
            }
            maskOffset =
                isIcon && start + total + Self.maskStride(width: width) * height <= bytes.count ? start + total : nil
        } else {
            maskOffset = nil
        }
        // A version 5 header's embedded profile ('MBED'), its offset counted from the header.
        if headerSize >= 124, u32(dib + 56) == 0x4D42_4544 {
            let from = dib + Int(u32(dib + 112)), length = Int(u32(dib + 116))
            iccProfile = length > 0 && from + length <= bytes.count ? from..<(from + length) : nil
        } else {
            iccProfile = nil
        }
    }

    /// Bytes from one row of an icon's AND mask to the next (1 bit a pixel, padded to 4 bytes).
    var maskStride: Int { Self.maskStride(width: size.width) }

    static func maskStride(width: Int) -> Int { (width + 31) / 32 * 4 }

    /// True when the image has alpha: a 32- or 16-bit image whose masks give it a channel, or an icon (its AND mask).
    var hasAlpha: Bool { bitCount > 8 ? alpha.isPresent : false }

    /// True when every colour of the palette is a gray.
    var paletteIsGray: Bool {
        guard bitCount <= 8 else { return false }
        for i in 0..<paletteCount {
            let r = palette[3 * i], g = palette[3 * i + 1], b = palette[3 * i + 2]
            if r != g || r != b { return false }
        }
        return true
    }
}
