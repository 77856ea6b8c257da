import ShrinkCore

/// A Canon CR3 file's ISO base media boxes, read for its previews: the `PRVW` JPEG in the preview `uuid` box at the
/// top level, the `THMB` JPEG in the Canon `uuid` box inside `moov`, and the orientation from that box's `CMT1`
/// (IFD0 of the EXIF data, a TIFF structure). Boxes are walked at most ``maxBoxes`` and two levels deep. The walk is
/// lenient where the HEIF codec's box parser is strict: the boxes before one that does not fit are kept, so a file cut
/// short (or whose sensor data was pruned) still shows the previews before the cut.
package struct CR3Container: Sendable {
    /// Boxes read at most.
    static let maxBoxes = 256
    /// The top-level `uuid` box holding the `PRVW` preview.
    static let previewUUID: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]
    /// The `uuid` box inside `moov` holding Canon's metadata boxes and `THMB`.
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// The previews found.
    package private(set) var previews: [RAWPreview] = []
    /// IFD0's orientation tag, when `CMT1` has one.
    package private(set) var orientation: Int?
    /// The camera's maker and model, from `CMT1`.
    package private(set) var make: String?
    package private(set) var model: String?

    /// Reads the boxes of `bytes` (which start with an `ftyp` box of brand `crx `).
    package init(_ bytes: UnsafeRawBufferPointer) {
        let reader = TIFFBytes(bytes, littleEndian: false)
        var budget = Self.maxBoxes
        for top in Self.boxes(reader, in: 0..<bytes.count, budget: &budget) {
            if top.type == "uuid", top.payload.count >= 24, Self.uuid(bytes, top.payload) == Self.previewUUID {
                // 16 bytes of uuid, 8 of Canon's, then the PRVW box.
                let inner = top.payload.lowerBound + 24..<top.payload.upperBound
                for box in Self.boxes(reader, in: inner, budget: &budget) where box.type == "PRVW" {
                    // 6 bytes of Canon's, width and height, 2 bytes more, then the JPEG's length and the JPEG.
                    addJPEG(bytes, reader, lengthAt: box.payload.lowerBound + 12, origin: "CR3 PRVW")
                }
            }
            guard top.type == "moov" else { continue }
            for box in Self.boxes(reader, in: top.payload, budget: &budget)
            where box.type == "uuid" && box.payload.count >= 16 && Self.uuid(bytes, box.payload) == Self.canonUUID {
                let inner = box.payload.lowerBound + 16..<box.payload.upperBound
                for item in Self.boxes(reader, in: inner, budget: &budget) {
                    switch item.type {
                    case "THMB":
                        // Version and flags, width and height, then the JPEG's length, 4 bytes more, and the JPEG.
                        addJPEG(bytes, reader, lengthAt: item.payload.lowerBound + 8, origin: "CR3 THMB")
                    case "CMT1":
                        let exif = ExifReader(tiff: UnsafeRawBufferPointer(rebasing: bytes[item.payload]))
                        orientation = exif.orientationValue
                        let ifd0 = TIFFBytes.byteOrder(of: UnsafeRawBufferPointer(rebasing: bytes[item.payload]))
                        if let little = ifd0 {
                            let tiff = TIFFBytes(
                                UnsafeRawBufferPointer(rebasing: bytes[item.payload]), littleEndian: little)
                            if let first = tiff.u32(4), let ifd = RAWIFD(tiff, at: first, base: 0) {
                                make = ifd.text(0x10F)
                                model = ifd.text(0x110)
                            }
                        }
                    default: continue
                    }
                }
            }
        }
    }

    /// The JPEG whose 32-bit length is at `lengthAt`, starting where its SOI is, within 8 bytes after the length.
    private mutating func addJPEG(_ bytes: UnsafeRawBufferPointer, _ reader: TIFFBytes, lengthAt: Int, origin: String) {
        guard let length = reader.u32(lengthAt), length > 0 else { return }
        for start in lengthAt + 4...lengthAt + 8 where start <= bytes.count - length {
            let range = start..<start + length
            if RAWPreview.isDisplayableJPEG(bytes, range) {
                previews.append(RAWPreview(encoding: .jpeg, range: range, origin: origin))
                return
            }
        }
    }

    private static func uuid(_ bytes: UnsafeRawBufferPointer, _ payload: Range<Int>) -> [UInt8] {
        Array(bytes[payload.lowerBound..<payload.lowerBound + 16])
    }

    /// The boxes in `range`: each one's four-letter type and payload, until the range ends, a box does not fit in
    /// it, or `budget` boxes have been read.
    private static func boxes(_ reader: TIFFBytes, in range: Range<Int>, budget: inout Int) -> [(
        type: String, payload: Range<Int>
    )] {
        var out: [(type: String, payload: Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound, budget > 0 {
            budget -= 1
            guard var size = reader.u32(at) else { break }
            var header = 8
            if size == 1 {
                guard let high = reader.u32(at + 8), let low = reader.u32(at + 12), high == 0 else { break }
                size = low
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            let type = String(decoding: reader.bytes[at + 4..<at + 8], as: UTF8.self)
            out.append((type, at + header..<at + size))
            at += size
        }
        return out
    }
}
