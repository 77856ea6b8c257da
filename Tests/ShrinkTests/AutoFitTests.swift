import Shrink
import ShrinkTestSupport
import Testing

/// `Fit.auto`: fill when the image (as displayed, after EXIF orientation) and the box are both landscape (a square
/// counts as landscape) or both portrait, inside otherwise — the same thumbnail, byte for byte, as asking for that fit.
@Suite struct AutoFitTests {
    @Test func autoCoversBoxesOfTheImagesOrientationAndFitsInsideOthers() throws {
        let pattern = TestImages.pattern(width: 480, height: 320)
        let landscape = try ImageSource(bytes: try TestImages.jpeg(pattern, quality: 95), name: "l.jpg")
        // Orientation 6: stored landscape, displayed portrait (320×480).
        let portrait = try ImageSource(bytes: try TestImages.jpeg(pattern, quality: 95, orientation: 6), name: "p.jpg")
        let wide = PixelSize(width: 120, height: 60), tall = PixelSize(width: 60, height: 120)
        let square = PixelSize(width: 80, height: 80)
        let cases: [(ImageSource, PixelSize, ThumbnailTarget.Fit)] = [
            (landscape, wide, .fill), (landscape, tall, .inside), (landscape, square, .fill),
            (portrait, tall, .fill), (portrait, wide, .inside), (portrait, square, .inside),
        ]
        for (i, (source, box, fit)) in cases.enumerated() {
            let auto = try source.thumbnail(size: box, fit: .auto)
            let expected = try source.thumbnail(size: box, fit: fit)
            #expect(auto.size == expected.size && auto.pixels.bytes == expected.pixels.bytes, "case \(i)")
        }
        #expect(try landscape.thumbnail(size: tall, fit: .auto).size == PixelSize(width: 60, height: 40))
    }
}
