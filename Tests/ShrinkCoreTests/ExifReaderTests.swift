import Testing
import ShrinkCore
import ShrinkTestSupport

@Suite struct ExifReaderTests {
    /// The TIFF payload of a segment made by TestImages (after FF E1, length, "Exif\0\0").
    func tiff(_ segment: [UInt8]) -> [UInt8] { Array(segment[10...]) }

    @Test(arguments: 1...8)
    func readsOrientation(_ value: Int) {
        let t = tiff(TestImages.exifSegment(orientation: value, thumbnail: nil))
        let exif = t.withUnsafeBytes { ExifReader(tiff: $0) }
        #expect(exif.orientationValue == value)
        #expect(exif.orientation.rawValue == value)
        #expect(exif.thumbnailRange == nil)
    }

    @Test func readsThumbnailRange() throws {
        let thumb: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let t = tiff(TestImages.exifSegment(orientation: 3, thumbnail: thumb))
        let exif = t.withUnsafeBytes { ExifReader(tiff: $0) }
        #expect(exif.orientation == .down)
        let range = try #require(exif.thumbnailRange)
        #expect(Array(t[range]) == thumb)
    }

    @Test func littleEndian() {
        // II*\0, IFD at 8, one entry: 0x0112 SHORT 1 value 6.
        let t: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0,
        ]
        #expect(t.withUnsafeBytes { ExifReader(tiff: $0) }.orientation == .right)
    }

    @Test func malformedInputYieldsNothing() {
        let full = tiff(TestImages.exifSegment(orientation: 6, thumbnail: [1, 2, 3]))
        // Layout (TestImages.exifSegment): header 0..<8, IFD0 count at 8, its orientation entry 10..<22, next-IFD
        // offset 22..<26, IFD1 at 26 (two entries, next offset), thumbnail bytes 56..<59.
        #expect(full.count == 59)
        // Every truncation, and garbage, must parse without trapping: no thumbnail until its last byte is in,
        // the orientation once its whole entry is, and a problem only while IFD0's count is missing.
        for n in 0..<full.count {
            let exif = Array(full[0..<n]).withUnsafeBytes { ExifReader(tiff: $0) }
            #expect(exif.thumbnailRange == nil, "cut at \(n)")
            #expect(exif.orientationValue == (n >= 22 ? 6 : nil), "cut at \(n)")
            #expect((exif.problem != nil) == (n < 10), "cut at \(n): \(exif.problem ?? "no problem")")
        }
        #expect(full.withUnsafeBytes { ExifReader(tiff: $0) }.thumbnailRange == 56..<59)
        let garbage: [UInt8] = [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0]
        #expect(garbage.withUnsafeBytes { ExifReader(tiff: $0) }.orientationValue == nil)
        // An IFD that points to itself as the next IFD.
        let loop: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 8]
        #expect(loop.withUnsafeBytes { ExifReader(tiff: $0) }.thumbnailRange == nil)
    }

    /// IFD0 with one orientation entry of TIFF `type`, the value `6` stored in that type's width, in either
    /// byte order.
    static func orientationIFD(type: UInt8, little: Bool, value: Int = 6) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { little ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let width = [1: 1, 6: 1, 3: 2, 8: 2, 4: 4, 9: 4][Int(type)]!
        var field: [UInt8] = width == 1 ? [UInt8(value)] : width == 2 ? u16(value) : u32(value)
        field += [UInt8](repeating: 0, count: 4 - field.count) // values sit left-justified
        let header: [UInt8] = (little ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        return header + u16(1) + u16(0x0112) + u16(Int(type)) + u32(1) + field + u32(0)
    }

    /// Real files store the orientation as LONG, SLONG, BYTE or SSHORT too (two corpus-like photos used SLONG
    /// and came out unrotated); Pillow reads them all, and so must Shrink, and resetting it must write 1 in the
    /// same width.
    @Test(arguments: [1, 3, 4, 6, 8, 9] as [UInt8], [true, false])
    func readsOrientationOfAnyIntegerType(type: UInt8, little: Bool) {
        let t = Self.orientationIFD(type: type, little: little)
        let exif = t.withUnsafeBytes { ExifReader(tiff: $0) }
        #expect(exif.orientation == .right, "type \(type) little \(little)")
        #expect(exif.problem == nil)
        let upright = ExifReader.settingOrientationUp(t)
        #expect(upright.count == t.count)
        #expect(upright.withUnsafeBytes { ExifReader(tiff: $0) }.orientationValue == 1)
        #expect(upright.withUnsafeBytes { ExifReader(tiff: $0) }.orientation == .up)
    }

    @Test func floatsAndStringsAreNotOrientations() {
        for type: UInt8 in [2, 5, 7, 10, 11, 12] {
            var t = Self.orientationIFD(type: 3, little: false)
            t[8 + 2 + 3] = type // the entry's type field
            #expect(t.withUnsafeBytes { ExifReader(tiff: $0) }.orientationValue == nil, "type \(type)")
        }
    }

    @Test func malformedBlocksSayWhy() {
        let cases: [[UInt8]] = [
            [1, 2, 3], [0x41, 0x41, 0, 42, 0, 0, 0, 8], [0x4D, 0x4D, 0, 41, 0, 0, 0, 8],
            [0x4D, 0x4D, 0, 42, 0, 0, 0x10, 0],
        ]
        for t in cases {
            let exif = t.withUnsafeBytes { ExifReader(tiff: $0) }
            #expect(exif.problem != nil, "\(t)")
            #expect(exif.orientation == .up)
        }
    }
}
