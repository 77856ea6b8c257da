/// Little-endian TIFF structures laid out as cameras lay out camera RAW files, for tests: blobs and directories are appended
/// in the order they are written (children before the directories that point at them), each at an even offset.
public struct TestRAW {
    /// A directory entry's value.
    public enum Value {
        case short(Int)
        case long(Int)
        case longs([Int])
        case ascii(String)
        case undefined([UInt8])
    }

    /// The file so far: the TIFF header (its first directory's offset filled in by ``finish(ifd0:)``), then what
    /// was appended.
    public private(set) var bytes: [UInt8]

    /// A structure whose header is `magic` (`II*\0` by default; `IIRO` for ORF, `IIU\0` for RW2) and, for a CR2,
    /// its `CR` mark at 8.
    public init(magic: [UInt8] = [0x49, 0x49, 0x2A, 0x00], extra: [UInt8] = []) {
        bytes = magic + [0, 0, 0, 0] + extra
    }

    public static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    public static func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }

    /// Appends `data` and returns its offset.
    public mutating func data(_ data: [UInt8]) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let at = bytes.count
        bytes += data
        return at
    }

    /// Appends a directory of `entries` (sorted by tag here) linking to `next`, its values longer than four bytes
    /// after it, and returns its offset.
    public mutating func ifd(_ entries: [(Int, Value)], next: Int = 0) -> Int {
        let sorted = entries.sorted { $0.0 < $1.0 }
        if bytes.count % 2 == 1 { bytes.append(0) }
        let at = bytes.count
        var outside = at + 2 + sorted.count * 12 + 4
        var table = Self.u16(sorted.count), tail: [UInt8] = []
        for (tag, value) in sorted {
            let (type, count, raw): (Int, Int, [UInt8]) =
                switch value {
                case .short(let v): (3, 1, Self.u16(v))
                case .long(let v): (4, 1, Self.u32(v))
                case .longs(let v): (4, v.count, v.flatMap(Self.u32))
                case .ascii(let s): (2, s.utf8.count + 1, Array(s.utf8) + [0])
                case .undefined(let b): (7, b.count, b)
                }
            table += Self.u16(tag) + Self.u16(type) + Self.u32(count)
            if raw.count <= 4 {
                table += raw + [UInt8](repeating: 0, count: 4 - raw.count)
            } else {
                table += Self.u32(outside)
                tail += raw + (raw.count % 2 == 1 ? [0] : [])
                outside += raw.count + raw.count % 2
            }
        }
        bytes += table + Self.u32(next) + tail
        return at
    }

    /// The file, its header pointing at `ifd0`.
    public func finish(ifd0: Int) -> [UInt8] {
        var out = bytes
        out.replaceSubrange(4..<8, with: Self.u32(ifd0))
        return out
    }

    /// A NEF as Nikon lays one out: IFD0 a reduced image naming the camera, with `orientation`, SubIFDs for a
    /// `preview` JPEG and the sensor data, and the EXIF directory's maker note holding a `small` JPEG preview.
    public static func nef(preview: [UInt8], small: [UInt8], orientation: Int = 1) -> [UInt8] {
        var raw = TestRAW()
        let jpeg = raw.data(preview)
        let sensorData = raw.data([UInt8](repeating: 7, count: 64))
        let previewIFD = raw.ifd([(0xFE, .long(1)), (0x201, .long(jpeg)), (0x202, .long(preview.count))])
        let sensorIFD = raw.ifd([
            (0xFE, .long(0)), (0x100, .long(1200)), (0x101, .long(800)), (0x103, .short(34713)),
            (0x106, .short(32803)), (0x111, .long(sensorData)), (0x117, .long(64)),
        ])
        // The maker note: "Nikon\0", version 2.10, two pad bytes, then a TIFF of its own.
        var note = TestRAW()
        let smallAt = note.data(small)
        let noteIFD = note.ifd([(0x201, .long(smallAt)), (0x202, .long(small.count))])
        let noteMain = note.ifd([(0x1, .undefined([0x30, 0x32, 0x31, 0x30])), (0x11, .long(noteIFD))])
        let makerNote = Array("Nikon\0".utf8) + [0x02, 0x10, 0, 0] + note.finish(ifd0: noteMain)
        let exif = raw.ifd([(0x927C, .undefined(makerNote))])
        let ifd0 = raw.ifd([
            (0xFE, .long(1)), (0x10F, .ascii("NIKON CORPORATION")), (0x110, .ascii("NIKON TEST")),
            (0x112, .short(orientation)), (0x14A, .longs([previewIFD, sensorIFD])), (0x8769, .long(exif)),
        ])
        return raw.finish(ifd0: ifd0)
    }
}
