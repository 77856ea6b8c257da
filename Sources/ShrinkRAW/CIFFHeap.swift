import ShrinkCore

/// A Canon CRW file's CIFF heap (`HEAPCCDR`): records in nested heaps, each heap's record table found through the
/// offset in its last four bytes. The previews are the `JpgFromRaw` (0x2007) and thumbnail (0x2008) records; the
/// rotation is in the image-info record (0x1810). Heaps nest at most ``maxDepth`` deep and hold at most
/// ``maxRecords`` records, and each is read once, so a looping heap ends.
package struct CIFFHeap: Sendable {
    /// Heaps nested at most this deep.
    static let maxDepth = 8
    /// Records read from one heap at most.
    static let maxRecords = 512

    /// The previews found.
    package private(set) var previews: [RAWPreview] = []
    /// The image-info record's rotation as an EXIF orientation (1, 6, 3 or 8), when present.
    package private(set) var orientation: Int?
    /// The camera's maker and model (the make-model record, 0x080A).
    package private(set) var make: String?
    package private(set) var model: String?

    /// Reads the heap of `bytes` (which start `II` or `MM`, a header length, and `HEAPCCDR`).
    package init(_ bytes: UnsafeRawBufferPointer) {
        guard let little = TIFFBytes.byteOrder(of: bytes) else { return }
        let reader = TIFFBytes(bytes, littleEndian: little)
        guard let header = reader.u32(2), header < bytes.count else { return }
        var visited = Set<Int>()
        read(bytes, reader, start: header, end: bytes.count, depth: 0, visited: &visited)
    }

    private mutating func read(
        _ bytes: UnsafeRawBufferPointer, _ reader: TIFFBytes, start: Int, end: Int, depth: Int,
        visited: inout Set<Int>
    ) {
        guard depth < Self.maxDepth, end - start >= 6, !visited.contains(start), let table = reader.u32(end - 4)
        else { return }
        visited.insert(start)
        let at = start + table
        guard table < end - start, let count = reader.u16(at) else { return }
        for i in 0..<min(count, Self.maxRecords) {
            let record = at + 2 + i * 10
            guard let tag = reader.u16(record), let size = reader.u32(record + 2), let offset = reader.u32(record + 6)
            else { return }
            let type = tag & 0x3FFF
            // Storage 0: the value in the heap, at `offset` from its start; 1: in the record itself.
            guard tag >> 14 == 0, offset <= end - start, size <= end - start - offset else { continue }
            let range = start + offset..<start + offset + size
            switch type {
            case 0x2007, 0x2008:
                if RAWPreview.isDisplayableJPEG(bytes, range) {
                    previews.append(
                        RAWPreview(
                            encoding: .jpeg, range: range, origin: type == 0x2007 ? "JpgFromRaw" : "CRW thumbnail"))
                }
            case 0x1810:
                if let rotation = reader.u32(range.lowerBound + 12), size >= 16 {
                    orientation =
                        [0: 1, 90: 6, 180: 3, 270: 8][(Int(Int32(truncatingIfNeeded: rotation)) + 3600) % 360]
                }
            case 0x080A:
                let text = UnsafeRawBufferPointer(rebasing: bytes[range])
                let parts = text.split(separator: 0, omittingEmptySubsequences: false)
                make = parts.first.flatMap { String(decoding: $0, as: UTF8.self).cameraText }
                model = parts.dropFirst().first.flatMap { String(decoding: $0, as: UTF8.self).cameraText }
            default:
                // Types 0x28xx and 0x30xx are heaps of their own.
                if type >> 8 == 0x28 || type >> 8 == 0x30 {
                    read(
                        bytes, reader, start: range.lowerBound, end: range.upperBound, depth: depth + 1,
                        visited: &visited)
                }
            }
        }
    }
}
