#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkGIF
import ShrinkCore

/// What giflib reads through its `InputFunc`: a 23-byte stand-in header, then the first frame's LZW data
/// straight from the mapped file (no copy of the file is made).
///
/// The stand-in is a GIF89a screen descriptor without a global colour table and an image descriptor of
/// 65535×65535 pixels without a local colour table, so giflib allocates no colour map (``GIFColorTable`` reads
/// the file's own), sees nothing of the file before the frame (extensions and stray bytes are ``GIFStructure``'s
/// business), and never reaches the end of its pixel count: it does not read on past the frame's last pixel,
/// so damage after it cannot fail the last row. Rows are read with an explicit length, the frame's real width.
///
/// The mapping's pages are released behind the read position every ``dropStep`` bytes; at most that plus the
/// kernel's 64 KiB fault-around block stay resident.
final class GIFInput {
    private let bytes: ImageBytes
    private let header: [UInt8]
    private let dataStart: Int
    private var position = 0
    private var released: Int
    /// True once giflib asked for bytes past the end of the file.
    private(set) var reachedEnd = false
    /// Pages are released every this many bytes read.
    static let dropStep = 64 << 10

    /// A stream over `frame`'s data in `bytes`.
    init(bytes: ImageBytes, frame: GIFFrame) {
        self.bytes = bytes
        dataStart = frame.dataOffset
        released = frame.dataOffset
        let packed: UInt8 = frame.isInterlaced ? 0x40 : 0
        header =
            Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
            + [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, packed]
    }

    /// Copies up to `count` bytes of the stream to `destination`; returns how many (fewer only at the end).
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count > 0 else { return 0 }
        var done = 0
        while done < count && position < header.count {
            destination[done] = header[position]
            done += 1
            position += 1
        }
        let offset = dataStart + position - header.count
        let available = max(0, bytes.count - offset)
        let n = min(count - done, available)
        if n > 0 {
            (destination + done).update(
                from: bytes.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: n)
            done += n
            position += n
        }
        if done < count { reachedEnd = true }
        let read = dataStart + position - header.count
        if bytes.isPageAlignedMapping && read - released >= Self.dropStep {
            bytes.releaseResidentPages(in: released..<read)
            released = read
        }
        return done
    }

    /// giflib's read callback: the stream is the `GifFileType`'s `UserData`.
    static let readFunction: InputFunc = { gif, buffer, count in
        guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
        let input = Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue()
        return Int32(input.read(into: buffer, count: Int(count)))
    }
}
