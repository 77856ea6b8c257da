import ShrinkCore

/// One box of an ISOBMFF file: its type and where its payload lies. A size of 0 means "to the end of the
/// enclosing range"; 1 means a 64-bit size follows; `uuid` boxes carry 16 more header bytes.
struct ISOBox {
    let type: String
    /// The payload (after the header), absolute offsets.
    let payload: Range<Int>

    /// The boxes inside `range`, in order. Fails with `.corruptData` when a box's size is below its header or
    /// runs past `range`, `.limitExceeded` past `maxBoxes` boxes.
    static func children(
        of bytes: UnsafeRawBufferPointer, in range: Range<Int>, path: String,
        maxBoxes: Int = HEIFLimits.maxBoxesPerLevel
    ) throws(ImageError) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var reader = BoxReader(bytes, range: range, path: path)
        while reader.remaining > 0 {
            guard boxes.count < maxBoxes else {
                throw ImageError(.limitExceeded, "\(path): more than \(maxBoxes) boxes in one HEIF box")
            }
            let start = reader.offset
            guard reader.remaining >= 8 else {
                throw ImageError(
                    .corruptData, "\(path): \(reader.remaining) stray bytes where a HEIF box header should be")
            }
            var size = try reader.u32("box size")
            let type = try reader.fourCC("box type")
            if size == 1 { size = try reader.uint(size: 8, "64-bit size of '\(type)'") }
            if size == 0 { size = range.upperBound - start }
            if type == "uuid" { try reader.skip(16, "uuid box type") }
            let header = reader.offset - start
            guard size >= header, size <= range.upperBound - start else {
                throw ImageError(
                    .corruptData,
                    "\(path): HEIF box '\(type)' of \(size) bytes does not fit (\(range.upperBound - start) left)")
            }
            boxes.append(ISOBox(type: type, payload: (start + header)..<(start + size)))
            try reader.skip(size - header, "'\(type)' box")
        }
        return boxes
    }
}
