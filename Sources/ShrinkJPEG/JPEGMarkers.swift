import ShrinkCore

/// The metadata segments of a JPEG found by walking its markers up to the first SOS, bounds-checked:
/// the EXIF payload, the ICC profile's total size, and the frame size (used for embedded thumbnails).
struct JPEGMarkers {
    /// The TIFF payload of the first `APP1 Exif` segment, as offsets into the scanned bytes.
    var exifRange: Range<Int>?
    /// Sum of the ICC payloads of every `APP2 ICC_PROFILE` segment.
    var iccProfileBytes = 0
    /// The ICC payload ranges with their sequence numbers (1-based, as stored).
    var iccChunks: [(sequence: Int, range: Range<Int>)] = []
    /// The SOF frame size, when a frame header was reached.
    var frameSize: Size?

    init(scanning bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var pos = 2
        while pos + 4 <= n {
            guard bytes[pos] == 0xFF else { return }
            var marker = bytes[pos + 1]
            // Fill bytes: any number of 0xFF before the marker code.
            while marker == 0xFF, pos + 2 < n {
                pos += 1
                marker = bytes[pos + 1]
            }
            pos += 2
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { return }
            guard pos + 2 <= n else { return }
            let length = Int(bytes[pos]) << 8 | Int(bytes[pos + 1])
            guard length >= 2, pos + length <= n else { return }
            let body = pos + 2 ..< pos + length
            switch marker {
            case 0xE1 where exifRange == nil && Self.starts(bytes, body, with: Array("Exif\0\0".utf8)):
                exifRange = body.lowerBound + 6 ..< body.upperBound
            case 0xE2 where Self.starts(bytes, body, with: Array("ICC_PROFILE\0".utf8)) && body.count >= 14:
                iccProfileBytes += body.count - 14
                iccChunks.append((Int(bytes[body.lowerBound + 12]), body.lowerBound + 14 ..< body.upperBound))
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if body.count >= 5 {
                    let h = Int(bytes[body.lowerBound + 1]) << 8 | Int(bytes[body.lowerBound + 2])
                    let w = Int(bytes[body.lowerBound + 3]) << 8 | Int(bytes[body.lowerBound + 4])
                    frameSize = Size(width: w, height: h)
                }
            default:
                break
            }
            pos += length
        }
    }

    /// The ICC profile reassembled in sequence order, when there is one.
    func iccProfile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !iccChunks.isEmpty else { return nil }
        return iccChunks.sorted { $0.sequence < $1.sequence }.flatMap { Array(bytes[$0.range]) }
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        guard range.count >= prefix.count else { return false }
        for (i, b) in prefix.enumerated() where bytes[range.lowerBound + i] != b { return false }
        return true
    }
}
