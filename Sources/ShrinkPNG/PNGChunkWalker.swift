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
        while offset + 12 <= data.count {
            let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            let type = (data[offset + 4], data[offset + 5], data[offset + 6], data[offset + 7])
            guard length <= data.count - offset - 12 else { return nil }
            if type == (0x49, 0x44, 0x41, 0x54) { seenIDAT = true }                        // IDAT
            if type == (0x49, 0x45, 0x4E, 0x44) { return nil }                             // IEND
            if seenIDAT && type == (0x65, 0x58, 0x49, 0x66) {                              // eXIf
                return offset + 8 ..< offset + 8 + length
            }
            offset += length + 12
            if offset - released >= 1 << 20 {
                release(bytes, upTo: offset, from: released)
                released = offset
            }
        }
        return nil
    }

    /// The payload of the first `cICP` chunk before the image data (4 bytes: primaries, transfer, matrix, full
    /// range), which libspng does not read; nil when there is none or it is malformed.
    static func codePointsBeforeImageData(in bytes: ImageBytes) -> (primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)? {
        let data = bytes.bytes
        var offset = 8
        while offset + 12 <= data.count {
            let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            let type = (data[offset + 4], data[offset + 5], data[offset + 6], data[offset + 7])
            guard length <= data.count - offset - 12 else { return nil }
            if type == (0x49, 0x44, 0x41, 0x54) || type == (0x49, 0x45, 0x4E, 0x44) { return nil }   // IDAT, IEND
            if type == (0x63, 0x49, 0x43, 0x50) {                                                   // cICP
                guard length == 4 else { return nil }
                let p = offset + 8
                return (Int(data[p]), Int(data[p + 1]), Int(data[p + 2]), data[p + 3] != 0)
            }
            offset += length + 12
        }
        return nil
    }

    private static func release(_ bytes: ImageBytes, upTo end: Int, from start: Int) {
        guard bytes.isPageAlignedMapping, let base = bytes.bytes.baseAddress else { return }
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let lo = start / page * page, hi = min(end, bytes.count) / page * page
        guard hi > lo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + lo), hi - lo, MADV_DONTNEED)
    }
}
