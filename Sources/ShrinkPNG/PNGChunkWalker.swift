#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore

/// Finds an `eXIf` chunk placed after the image data (libpng and others write it there), reading only the
/// 8-byte chunk headers, bounds-checked, and releasing the mapping's pages behind it as it goes, so a
/// large file costs a few page faults, not its size in memory.
enum PNGChunkWalker {
    /// The payload range of the first `eXIf` chunk after the first `IDAT`, if any.
    static func exifAfterImageData(in bytes: ImageBytes) -> Range<Int>? {
        let data = bytes.bytes
        var offset = 8
        var released = 0
        var seenIDAT = false
        defer { release(bytes, upTo: bytes.count, from: released) }
        while let (type, payload) = chunk(at: offset, in: data) {
            if type == "IDAT" { seenIDAT = true }
            if type == "IEND" { return nil }
            if seenIDAT && type == "eXIf" { return payload }
            offset = payload.upperBound + 4
            if offset - released >= 1 << 20 {
                release(bytes, upTo: offset, from: released)
                released = offset
            }
        }
        return nil
    }

    /// The payload of the first `cICP` chunk before the image data (4 bytes: primaries, transfer, matrix, full
    /// range), which libspng does not read; nil when there is none or it is malformed.
    static func codePointsBeforeImageData(in bytes: ImageBytes) -> (
        primaries: Int, transfer: Int, matrix: Int, fullRange: Bool
    )? {
        let data = bytes.bytes
        var offset = 8
        while let (type, payload) = chunk(at: offset, in: data) {
            if type == "IDAT" || type == "IEND" { return nil }
            if type == "cICP" {
                guard payload.count == 4 else { return nil }
                let p = payload.lowerBound
                return (Int(data[p]), Int(data[p + 1]), Int(data[p + 2]), data[p + 3] != 0)
            }
            offset = payload.upperBound + 4
        }
        return nil
    }

    /// The chunk whose header starts at `offset`: its type and its payload's range (the CRC follows it); nil when
    /// the header or the payload would run past the end of `data`.
    private static func chunk(at offset: Int, in data: UnsafeRawBufferPointer) -> (type: String, payload: Range<Int>)? {
        guard offset + 12 <= data.count else { return nil }
        let length =
            Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
        guard length <= data.count - offset - 12 else { return nil }
        let type = String(decoding: UnsafeRawBufferPointer(rebasing: data[offset + 4..<offset + 8]), as: UTF8.self)
        return (type, offset + 8..<offset + 8 + length)
    }

    private static func release(_ bytes: ImageBytes, upTo end: Int, from start: Int) {
        guard bytes.isPageAlignedMapping, let base = bytes.bytes.baseAddress else { return }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let lo = start / page * page, hi = min(end, bytes.count) / page * page
        guard hi > lo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + lo), hi - lo, MADV_DONTNEED)
    }
}
