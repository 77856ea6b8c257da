#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore

/// The metadata segments of a JPEG found by walking its markers up to the first SOS, bounds-checked:
/// the EXIF payload, the ICC profile's total size, and the frame size (used for embedded thumbnails).
struct JPEGMarkers {
    /// The TIFF payload of the first `APP1 Exif` segment, as offsets into the scanned bytes.
    var exifRange: Range<Int>?
    /// Sum of the ICC payloads of every `APP2 ICC_PROFILE` segment.
    var iccProfileBytes = 0
    /// The ICC payload ranges with their sequence numbers (1-based, as stored) and the chunk count each declares.
    var iccChunks: [(sequence: Int, count: Int, range: Range<Int>)] = []
    /// The SOF frame size, when a frame header was reached.
    var frameSize: PixelSize?

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
            let body = pos + 2..<pos + length
            switch marker {
            case 0xE1 where exifRange == nil && Self.starts(bytes, body, with: Array("Exif\0\0".utf8)):
                exifRange = body.lowerBound + 6..<body.upperBound
            case 0xE2 where Self.starts(bytes, body, with: Array("ICC_PROFILE\0".utf8)) && body.count >= 14:
                iccProfileBytes += body.count - 14
                iccChunks.append(
                    (
                        Int(bytes[body.lowerBound + 12]), Int(bytes[body.lowerBound + 13]),
                        body.lowerBound + 14..<body.upperBound
                    ))
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if body.count >= 5 {
                    let h = Int(bytes[body.lowerBound + 1]) << 8 | Int(bytes[body.lowerBound + 2])
                    let w = Int(bytes[body.lowerBound + 3]) << 8 | Int(bytes[body.lowerBound + 4])
                    frameSize = PixelSize(width: w, height: h)
                }
            default:
                break
            }
            pos += length
        }
    }

    /// The number of scans (SOS markers) in `bytes`, counting at most to `limit`: a walk over the marker
    /// segments that skips each scan's entropy-coded data by searching for the next marker (memchr), so it
    /// costs one pass over the file and nothing per block. Stops early at EOI or at bytes that are not a marker.
    static func scanCount(in bytes: UnsafeRawBufferPointer, upTo limit: Int) -> Int {
        let n = bytes.count
        guard n >= 4, let base = bytes.baseAddress, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 0 }
        var pos = 2, scans = 0
        while pos + 1 < n && scans < limit {
            guard bytes[pos] == 0xFF else { return scans }
            let marker = bytes[pos + 1]
            if marker == 0xFF { pos += 1; continue } // fill byte
            pos += 2
            if marker == 0xD9 { return scans } // EOI
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard pos + 2 <= n else { return scans }
            let length = Int(bytes[pos]) << 8 | Int(bytes[pos + 1])
            guard length >= 2, pos + length <= n else { return scans }
            pos += length
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data runs to the next 0xFF that starts a marker other than RSTn (0xFF00 is a stuffed byte).
            while pos + 1 < n {
                guard let hit = memchr(base + pos, 0xFF, n - 1 - pos) else { pos = n; break }
                pos = base.distance(to: UnsafeRawPointer(hit))
                let next = bytes[pos + 1]
                if next == 0 || next == 0xFF || (0xD0...0xD7).contains(next) { pos += 1; continue }
                break
            }
        }
        return scans
    }

    /// The ICC profile reassembled in sequence order, when there is one.
    func iccProfile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !iccChunks.isEmpty else { return nil }
        return iccChunksInOrder.flatMap { Array(bytes[$0.range]) }
    }

    /// The ICC chunks in sequence order, each sequence number once (the first segment that has it): chunks may
    /// come in any order; a repeated number is dropped (``iccWarnings`` says so).
    private var iccChunksInOrder: [(sequence: Int, count: Int, range: Range<Int>)] {
        var seen = Set<Int>()
        return iccChunks.filter { seen.insert($0.sequence).inserted }.sorted { $0.sequence < $1.sequence }
    }

    /// What is wrong with the ICC chunks, one line each (recoverable: the profile is reassembled from what is
    /// there, and lcms2 decides whether it is usable): repeated or zero sequence numbers, counts that disagree,
    /// missing chunks.
    var iccWarnings: [String] {
        guard !iccChunks.isEmpty else { return [] }
        var warnings: [String] = []
        var seen = Set<Int>(), repeated: [Int] = []
        for chunk in iccChunks where !seen.insert(chunk.sequence).inserted { repeated.append(chunk.sequence) }
        if !repeated.isEmpty {
            warnings.append(
                "ICC profile chunk number \(repeated.prefix(3).map(String.init).joined(separator: ", ")) repeated (the later segment ignored)"
            )
        }
        if seen.contains(0) { warnings.append("ICC profile chunk numbered 0 (numbers start at 1)") }
        let counts = Set(iccChunks.map(\.count))
        if counts.count > 1 {
            warnings.append(
                "ICC profile chunks disagree on their count (\(counts.sorted().map(String.init).joined(separator: ", ")))"
            )
        }
        if let count = counts.max(), count > 0 {
            let missing = (1...count).filter { !seen.contains($0) }
            let beyond = seen.filter { $0 > count }.sorted()
            if !beyond.isEmpty {
                warnings.append(
                    "ICC profile chunk\(beyond.count == 1 ? "" : "s") \(beyond.prefix(3).map(String.init).joined(separator: ", ")) beyond the declared count of \(count)"
                )
            }
            if !missing.isEmpty {
                warnings.append(
                    "ICC profile chunk\(missing.count == 1 ? "" : "s") \(missing.prefix(3).map(String.init).joined(separator: ", ")) of \(count) missing"
                )
            }
        }
        return warnings
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        guard range.count >= prefix.count else { return false }
        for (i, b) in prefix.enumerated() where bytes[range.lowerBound + i] != b { return false }
        return true
    }
}
