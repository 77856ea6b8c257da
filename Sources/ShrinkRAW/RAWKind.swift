import ShrinkCore

/// The camera RAW containers Shrink recognises, told apart from the first bytes (and, for the ones that are plain
/// TIFF files, from the first directory's tags).
package enum RAWKind: String, Sendable, CaseIterable {
    case dng, cr2, cr3, crw, nef, arw, orf, raf, rw2, pef, srw
    /// A TIFF-structured RAW of another maker (its `Make` tag a camera maker's, its directory holding sensor data).
    case other

    /// The container's name as a photographer knows it (`Nikon NEF`).
    package var label: String {
        switch self {
        case .dng: "Adobe DNG"
        case .cr2: "Canon CR2"
        case .cr3: "Canon CR3"
        case .crw: "Canon CRW"
        case .nef: "Nikon NEF"
        case .arw: "Sony ARW"
        case .orf: "Olympus ORF"
        case .raf: "Fujifilm RAF"
        case .rw2: "Panasonic RW2"
        case .pef: "Pentax PEF"
        case .srw: "Samsung SRW"
        case .other: "camera RAW"
        }
    }

    /// The kind of RAW file `bytes` start, or nil for anything else (an ordinary TIFF among them). A plain TIFF
    /// header is read as a RAW only when its first directory, within `bytes`, has the DNG version tag or a camera
    /// maker's `Make` with sensor data or sub-images beside it.
    package init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let magic = Array(text.utf8)
            guard bytes.count >= offset + magic.count else { return false }
            return magic.indices.allSatisfy { bytes[offset + $0] == magic[$0] }
        }
        if starts("FUJIFILMCCD-RAW ") {
            self = .raf
            return
        }
        if starts("ftypcrx ", at: 4) {
            self = .cr3
            return
        }
        if starts("HEAPCCDR", at: 6) && (starts("II") || starts("MM")) {
            self = .crw
            return
        }
        guard bytes.count >= 8, let little = TIFFBytes.byteOrder(of: bytes) else { return nil }
        let reader = TIFFBytes(bytes, littleEndian: little)
        switch reader.u16(2) {
        case 0x4F52, 0x5352: self = .orf // "IIRO", "MMOR", "IIRS"
        case 0x55: self = .rw2 // "IIU\0"
        case 42:
            if starts("CR", at: 8) {
                self = .cr2
                return
            }
            guard let ifd0 = reader.u32(4), let tags = Self.firstDirectoryTags(reader, at: ifd0) else { return nil }
            if tags.dng {
                self = .dng
                return
            }
            guard tags.holdsSensorData, let make = tags.make?.uppercased() else { return nil }
            switch make {
            case let m where m.hasPrefix("NIKON"): self = .nef
            case let m where m.hasPrefix("SONY"): self = .arw
            case let m where m.hasPrefix("PENTAX") || m.hasPrefix("RICOH"): self = .pef
            case let m where m.hasPrefix("SAMSUNG"): self = .srw
            case let m where Self.cameraMakers.contains(where: { m.hasPrefix($0) }): self = .other
            default: return nil
            }
        default: return nil
        }
    }

    /// Makers whose TIFF-structured RAW files carry no mark of their own.
    private static let cameraMakers = [
        "CANON", "OLYMPUS", "OM DIGITAL", "FUJIFILM", "PANASONIC", "LEICA", "HASSELBLAD", "PHASE ONE", "KODAK",
        "EASTMAN KODAK", "MAMIYA", "LEAF", "SIGMA", "EPSON", "MINOLTA", "KONICA MINOLTA", "SAMSUNG", "NIKON", "SONY",
    ]

    /// What the first directory says, read from `reader`'s bytes alone: the DNG version tag, the `Make` text, and
    /// whether sensor data or sub-images sit beside it (a CFA photometric, SubIFDs, a reduced-image subfile type or a
    /// JPEG preview pointer). nil when the directory is not within the bytes.
    private static func firstDirectoryTags(_ reader: TIFFBytes, at offset: Int) -> (
        dng: Bool, make: String?, holdsSensorData: Bool
    )? {
        guard let ifd = RAWIFD(reader, at: offset, base: 0) else { return nil }
        let sensor =
            ifd.entries[0x14A] != nil || ifd.entries[0x201] != nil || ifd.integer(0xFE) == 1
            || ifd.integer(0x106) == 32803
        return (ifd.entries[0xC612] != nil, ifd.text(0x10F), sensor)
    }
}
