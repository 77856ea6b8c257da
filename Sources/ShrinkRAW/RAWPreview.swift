/// An image a camera stored beside its sensor data: where it is and how it is encoded.
package struct RAWPreview: Sendable, Equatable {
    /// How the preview is stored.
    package enum Encoding: Sendable, Equatable {
        /// A JPEG (baseline or progressive) in `range`.
        case jpeg
        /// Uncompressed 8-bit RGB strips of the main directory chain's image `page`, read as that TIFF page.
        case uncompressed(page: Int)
    }

    /// Its encoding.
    package let encoding: Encoding
    /// Its bytes in the file (for an uncompressed page, the span of its strips).
    package let range: Range<Int>
    /// Where it was found, in the file's own terms (`IFD0`, `SubIFD 1`, `Nikon maker note`, `RAF header`).
    package let origin: String

    /// True when `range` of `bytes` holds a JPEG that a baseline decoder shows: it starts with SOI and its frame
    /// header is baseline, extended or progressive (a lossless JPEG is sensor data, as in DNG and CR2 raw
    /// directories). Reads marker lengths only, up to the frame header.
    package static func isDisplayableJPEG(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count > 4,
            bytes[range.lowerBound] == 0xFF, bytes[range.lowerBound + 1] == 0xD8
        else { return false }
        var at = range.lowerBound + 2
        while at + 4 <= range.upperBound {
            guard bytes[at] == 0xFF else { return false }
            let marker = bytes[at + 1]
            switch marker {
            case 0xFF:
                at += 1
                continue
            case 0xC0, 0xC1, 0xC2, 0xC9, 0xCA: return true
            case 0xC3, 0xC5...0xC7, 0xCB, 0xCD...0xCF, 0xD9, 0xDA: return false
            case 0xD0...0xD7, 0x01:
                at += 2
                continue
            default:
                at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            }
        }
        return false
    }
}
