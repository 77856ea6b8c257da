import Shrink
import Testing

/// Icons: the largest entry is the image, a thumbnail takes the smallest entry that covers it, AND masks and PNG
/// entries read by their codecs.
@Suite struct ICODecoderTests {
    /// A BMP entry (a DIB without a file header, its height doubled) of one colour: 32-bit (alpha 255) or 8-bit with
    /// an AND mask that clears the top left pixel.
    static func entry(side: Int, rgb: (UInt8, UInt8, UInt8), eightBit: Bool) -> [UInt8] {
        if !eightBit {
            let dib = BMPFile.info(width: side, height: 2 * side, bits: 32)
            let pixel: [UInt8] = [rgb.2, rgb.1, rgb.0, 255]
            let pixels = [[UInt8]](repeating: pixel, count: side * side).flatMap { $0 }
            let mask = BMPFile.padded([[UInt8]](repeating: [UInt8](repeating: 0, count: (side + 7) / 8), count: side))
            return dib + pixels + mask
        }
        let dib = BMPFile.info(width: side, height: 2 * side, bits: 8, colours: 1) + BMPFile.palette([rgb])
        let pixels = BMPFile.padded([[UInt8]](repeating: [UInt8](repeating: 0, count: side), count: side))
        // Rows bottom first: the last stored mask row is the top one; its first bit is the top left pixel.
        var maskRows = [[UInt8]](repeating: [UInt8](repeating: 0, count: (side + 7) / 8), count: side)
        maskRows[side - 1][0] = 0x80
        return dib + pixels + BMPFile.padded(maskRows)
    }

    static func icon() throws -> ImageSource {
        let bytes = BMPFile.icon([
            (2, 2, 8, entry(side: 2, rgb: (0, 0, 255), eightBit: true)),
            (16, 16, 32, entry(side: 16, rgb: (255, 0, 0), eightBit: false)),
            (4, 4, 32, entry(side: 4, rgb: (0, 255, 0), eightBit: false)),
        ])
        return try ImageSource(bytes: bytes, name: "t.ico")
    }

    @Test func theLargestEntryIsTheImage() throws {
        let source = try Self.icon()
        #expect(source.info.format == .ico)
        #expect(source.info.size == PixelSize(width: 16, height: 16))
        let full = try source.image()
        #expect(Array(full.pixels.pixel(x: 5, y: 5)) == [255, 0, 0, 255])
    }

    @Test func aThumbnailDecodesTheSmallestEntryThatCoversIt() throws {
        let source = try Self.icon()
        let four = try source.thumbnail(maxPixelSize: 4)
        #expect(four.plan.decodedSize == PixelSize(width: 4, height: 4))
        #expect(Array(four.pixels.pixel(x: 1, y: 1)) == [0, 255, 0, 255])
        let three = try source.thumbnail(maxPixelSize: 3)
        #expect(three.plan.decodedSize == PixelSize(width: 4, height: 4))
        let two = try source.thumbnail(maxPixelSize: 2, options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(two.plan.decodedSize == PixelSize(width: 2, height: 2))
        // The 8-bit entry: blue, its top left pixel cleared by the AND mask.
        #expect(Array(two.pixels.pixel(x: 0, y: 0))[3] == 0)
        #expect(Array(two.pixels.pixel(x: 1, y: 1)) == [0, 0, 255, 255])
    }

    @Test func aPNGEntryIsReadByThePNGCodec() throws {
        var rgba = [UInt8](repeating: 0, count: 8 * 8 * 4)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (9, 99, 199, 128)
        }
        let png = try PNGEncoder().encode(
            PixelBuffer(format: .rgba8, size: PixelSize(width: 8, height: 8), bytes: rgba))
        let source = try ImageSource(bytes: BMPFile.icon([(8, 8, 32, png)]), name: "png.ico")
        let image = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgba8)))
        #expect(Array(image.pixels.pixel(x: 3, y: 3)) == [9, 99, 199, 128])
    }

    @Test func anIconCutBeforeItsImageIsTruncated() throws {
        let bytes = Array(
            BMPFile.icon([(16, 16, 32, Self.entry(side: 16, rgb: (1, 2, 3), eightBit: false))]).prefix(100))
        do {
            _ = try ImageSource(bytes: bytes, name: "cut.ico")
            Issue.record("a cut icon opened")
        } catch {
            #expect(error.code == .truncated)
        }
    }
}
