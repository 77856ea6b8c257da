import ShrinkCore

/// What a camera RAW file's structure says, read without decoding a pixel: the previews it embeds, the camera, the
/// sensor image's size and the orientation. TIFF-structured files (DNG, CR2, NEF, ARW, ORF, RW2, PEF, SRW) are
/// walked directory by directory — the main chain, SubIFDs, the EXIF directory and the maker notes that keep
/// previews (Nikon's, Olympus's, Pentax's) — visiting each directory once and at most ``maxDirectories`` in all, so
/// a looping or endless chain ends; a RAF file is read from its header.
package struct RAWStructure: Sendable {
    /// Directories read at most.
    package static let maxDirectories = 64
    /// Main-chain directories read at most.
    static let maxChain = 16

    /// The previews found, in file order, each once.
    package private(set) var previews: [RAWPreview] = []
    /// The orientation tag of the first directory, as stored; nil when absent.
    package private(set) var orientation: Int?
    /// The camera's maker and model, as its tags say.
    package private(set) var make: String?
    package private(set) var model: String?
    /// The sensor image's size as stored (the largest directory of sensor data; a DNG's default crop), when found.
    package private(set) var sensor: PixelSize?
    /// What was wrong with the structure (a directory outside the file, too many directories).
    package private(set) var problems: [String] = []

    private enum Role {
        /// The `index`th directory of the main chain.
        case main(Int)
        /// A SubIFD, the EXIF directory's, a maker note's preview directory: previews and sensor data.
        case image
        /// The EXIF directory: its maker note.
        case exif
        /// A Nikon maker note: its preview directory (tag 0x11).
        case nikon
        /// An Olympus maker note: its camera settings directory (tag 0x2020).
        case olympus
        /// Olympus camera settings: the preview (tags 0x101 start, 0x102 length, 0x100 valid).
        case olympusSettings
        /// A Pentax maker note: the preview (tags 0x4 start, 0x3 length).
        case pentax
    }

    /// Reads the structure of the TIFF-structured RAW file `bytes`.
    package init(tiff bytes: UnsafeRawBufferPointer, kind: RAWKind) {
        guard let little = TIFFBytes.byteOrder(of: bytes) else { return }
        let main = TIFFBytes(bytes, littleEndian: little)
        guard let first = main.u32(4) else { return }
        var queue: [(offset: Int, reader: TIFFBytes, base: Int, role: Role, name: String)] = [
            (first, main, 0, .main(0), "IFD0")
        ]
        var visited = Set<Int>()
        var seen = Set<Range<Int>>()
        var sensorPixels = 0
        func add(_ encoding: RAWPreview.Encoding, _ range: Range<Int>, _ origin: String) {
            guard !seen.contains(range) else { return }
            seen.insert(range)
            previews.append(RAWPreview(encoding: encoding, range: range, origin: origin))
        }
        func addJPEG(start: Int?, length: Int?, base: Int, _ origin: String) {
            guard let start, let length, length > 0, start >= 0, base + start <= bytes.count - length else { return }
            let range = base + start..<base + start + length
            if RAWPreview.isDisplayableJPEG(bytes, range) { add(.jpeg, range, origin) }
        }
        while !queue.isEmpty {
            let (offset, reader, base, role, name) = queue.removeFirst()
            guard visited.count < Self.maxDirectories else {
                problems.append("more than \(Self.maxDirectories) directories: the rest are not read")
                break
            }
            guard !visited.contains(base + offset) else { continue }
            visited.insert(base + offset)
            guard let ifd = RAWIFD(reader, at: offset, base: base) else {
                problems.append("\(name) lies outside the file")
                continue
            }
            switch role {
            case .main, .image:
                if case .main(let index) = role {
                    if index == 0 {
                        orientation = ifd.integer(0x112)
                        make = ifd.text(0x10F)
                        model = ifd.text(0x110)
                        if kind == .rw2, let range = ifd.blob(0x2E), RAWPreview.isDisplayableJPEG(bytes, range) {
                            add(.jpeg, range, "IFD0 (JpgFromRaw)")
                        }
                        if kind == .rw2, let w = ifd.integer(0x2), let h = ifd.integer(0x3) {
                            let crop = (ifd.integer(0x4), ifd.integer(0x5), ifd.integer(0x6), ifd.integer(0x7))
                            if let top = crop.0, let left = crop.1, let bottom = crop.2, let right = crop.3,
                                bottom > top, right > left
                            {
                                sensor = PixelSize(width: right - left, height: bottom - top)
                            } else {
                                sensor = PixelSize(width: w, height: h)
                            }
                            sensorPixels = Int.max
                        }
                    }
                    if let next = ifd.next, index + 1 < Self.maxChain {
                        queue.append((next, reader, base, .main(index + 1), "IFD\(index + 1)"))
                    }
                }
                addJPEG(start: ifd.integer(0x201), length: ifd.integer(0x202), base: base, name)
                let compression = ifd.integer(0x103) ?? 1
                let photometric = ifd.integer(0x106)
                let strips = ifd.integers(0x111, limit: 4096), counts = ifd.integers(0x117, limit: 4096)
                if compression == 6 || compression == 7, strips.count == 1, counts.count == 1 {
                    addJPEG(start: strips[0], length: counts[0], base: base, name)
                }
                if compression == 1, photometric == 2, ifd.integer(0x115) == 3, ifd.integers(0x102) == [8, 8, 8],
                    ifd.integer(0x11C) ?? 1 == 1, case .main(let page) = role, base == 0, kind != .orf, kind != .rw2,
                    strips.count == counts.count, let low = strips.min(),
                    let high = zip(strips, counts).map({ $0 + $1 }).max(), high <= bytes.count,
                    let w = ifd.integer(0x100), let h = ifd.integer(0x101),
                    counts.reduce(0, +) / 3 >= Self.pixels(w, h)
                {
                    add(.uncompressed(page: page), low..<high, name)
                }
                if photometric == 32803 || photometric == 34892, let w = ifd.integer(0x100), let h = ifd.integer(0x101),
                    Self.pixels(w, h) > sensorPixels
                {
                    sensorPixels = Self.pixels(w, h)
                    let crop = ifd.number(0xC620)
                    sensor =
                        crop.count == 2 && crop[0] > 0 && crop[1] > 0
                        ? PixelSize(width: crop[0], height: crop[1]) : PixelSize(width: w, height: h)
                }
                for (i, sub) in ifd.integers(0x14A, limit: 16).enumerated() {
                    queue.append((sub, reader, base, .image, "SubIFD \(i) of \(name)"))
                }
                if let exif = ifd.integer(0x8769) { queue.append((exif, reader, base, .exif, "EXIF directory")) }
            case .exif:
                guard let note = ifd.blob(0x927C) else { continue }
                queue += Self.makerNote(bytes, note, main: reader)
            case .nikon:
                if let preview = ifd.integer(0x11) {
                    queue.append((preview, reader, base, .image, "Nikon maker note's preview"))
                }
            case .olympus:
                if let settings = ifd.integer(0x2020) {
                    queue.append((settings, reader, base, .olympusSettings, "Olympus camera settings"))
                }
            case .olympusSettings:
                if ifd.integer(0x100) != 0 {
                    addJPEG(start: ifd.integer(0x101), length: ifd.integer(0x102), base: base, "Olympus maker note")
                }
            case .pentax:
                addJPEG(start: ifd.integer(0x4), length: ifd.integer(0x3), base: base, "Pentax maker note")
            }
        }
    }

    /// `w`×`h` (sizes read from a directory, up to 2³² each), Int.max when the product does not fit.
    private static func pixels(_ w: Int, _ h: Int) -> Int {
        let (product, overflow) = w.multipliedReportingOverflow(by: h)
        return overflow ? Int.max : product
    }

    /// The directories of the maker note in `range` that hold previews, by its leading signature.
    private static func makerNote(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, main: TIFFBytes) -> [(
        offset: Int, reader: TIFFBytes, base: Int, role: Role, name: String
    )] {
        func starts(_ text: String) -> Bool {
            let magic = Array(text.utf8)
            return range.count >= magic.count && magic.indices.allSatisfy { bytes[range.lowerBound + $0] == magic[$0] }
        }
        let at = range.lowerBound
        if starts("Nikon\0"), range.count > 18,
            let little = TIFFBytes.byteOrder(of: UnsafeRawBufferPointer(rebasing: bytes[at + 10..<range.upperBound]))
        {
            // "Nikon\0", a version, two pad bytes, then a TIFF header its offsets count from.
            let reader = TIFFBytes(bytes, littleEndian: little)
            guard let ifd = reader.u32(at + 14) else { return [] }
            return [(ifd, reader, at + 10, .nikon, "Nikon maker note")]
        }
        if starts("OLYMPUS\0") || starts("OM SYSTEM\0") {
            // "OLYMPUS\0" and a byte order (or "OM SYSTEM\0\0\0" and one), the directory after; offsets from the
            // note's start.
            let header = starts("OLYMPUS\0") ? 8 : 12
            guard range.count > header + 4,
                let little = TIFFBytes.byteOrder(
                    of: UnsafeRawBufferPointer(rebasing: bytes[at + header..<range.upperBound]))
            else { return [] }
            return [(header + 4, TIFFBytes(bytes, littleEndian: little), at, .olympus, "Olympus maker note")]
        }
        if starts("AOC\0") {
            // "AOC\0", a byte order ("MM", "II", or two spaces for the file's), the directory after; offsets from the
            // file's start.
            let order =
                range.count > 6
                ? TIFFBytes.byteOrder(of: UnsafeRawBufferPointer(rebasing: bytes[at + 4..<at + 6])) : nil
            return [
                (at + 6, TIFFBytes(bytes, littleEndian: order ?? main.isLittleEndian), 0, .pentax, "Pentax maker note")
            ]
        }
        if starts("PENTAX \0"), range.count > 12, // a byte order at 8, the directory at 10; offsets from the note
            let little = TIFFBytes.byteOrder(of: UnsafeRawBufferPointer(rebasing: bytes[at + 8..<at + 10]))
        {
            return [(10, TIFFBytes(bytes, littleEndian: little), at, .pentax, "Pentax maker note")]
        }
        return []
    }
}
