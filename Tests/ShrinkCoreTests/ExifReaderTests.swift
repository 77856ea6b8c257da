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

    @Test func readsThumbnailRange() {
        let thumb: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let t = tiff(TestImages.exifSegment(orientation: 3, thumbnail: thumb))
        let exif = t.withUnsafeBytes { ExifReader(tiff: $0) }
        #expect(exif.orientation == .down)
        let range = try? #require(exif.thumbnailRange)
        #expect(range.map { Array(t[$0]) } == thumb)
    }

    @Test func littleEndian() {
        // II*\0, IFD at 8, one entry: 0x0112 SHORT 1 value 6.
        let t: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        #expect(t.withUnsafeBytes { ExifReader(tiff: $0) }.orientation == .right)
    }

    @Test func malformedInputYieldsNothing() {
        let full = tiff(TestImages.exifSegment(orientation: 6, thumbnail: [1, 2, 3]))
        // Every truncation, and garbage, must parse without trapping.
        for n in 0..<full.count {
            let exif = Array(full[0..<n]).withUnsafeBytes { ExifReader(tiff: $0) }
            if let range = exif.thumbnailRange { #expect(range.upperBound <= n) }
        }
        let garbage: [UInt8] = [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0]
        #expect(garbage.withUnsafeBytes { ExifReader(tiff: $0) }.orientationValue == nil)
        // An IFD that points to itself as the next IFD.
        let loop: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 8]
        #expect(loop.withUnsafeBytes { ExifReader(tiff: $0) }.thumbnailRange == nil)
    }
}
