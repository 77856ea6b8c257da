import Shrink
import Testing

/// BMP files written field by field, decoded through the registry: each layout's pixels where they belong.
@Suite struct BMPDecoderTests {
    static func decode(_ bytes: [UInt8]) throws(ImageError) -> DecodedImage {
        try ImageSource(bytes: bytes, name: "t.bmp").image(options: ThumbnailOptions(pixelFormat: .native))
    }

    @Test func bottomUp24BitRowsComeOutTopFirst() throws {
        // Stored bottom row first: (0, 0, 255) (0, 255, 0) / (255, 0, 0) (10, 20, 30) on top.
        let pixels = BMPFile.padded([[255, 0, 0, 0, 255, 0], [0, 0, 255, 30, 20, 10]])
        let image = try Self.decode(BMPFile.file(dib: BMPFile.info(width: 2, height: 2, bits: 24), pixels: pixels))
        #expect(image.pixels.format == .rgb8)
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [255, 0, 0])
        #expect(Array(image.pixels.pixel(x: 1, y: 0)) == [10, 20, 30])
        #expect(Array(image.pixels.pixel(x: 0, y: 1)) == [0, 0, 255])
        #expect(Array(image.pixels.pixel(x: 1, y: 1)) == [0, 255, 0])
    }

    @Test func topDownGrayPaletteIsGray8() throws {
        let dib =
            BMPFile.info(width: 3, height: -2, bits: 8, colours: 3)
            + BMPFile.palette([(0, 0, 0), (128, 128, 128), (255, 255, 255)])
        let image = try Self.decode(BMPFile.file(dib: dib, pixels: BMPFile.padded([[0, 1, 2], [2, 1, 0]])))
        #expect(image.pixels.format == .gray8)
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [0])
        #expect(Array(image.pixels.pixel(x: 2, y: 0)) == [255])
        #expect(Array(image.pixels.pixel(x: 0, y: 1)) == [255])
    }

    @Test func oneBitPixelsReadHighBitFirst() throws {
        let dib = BMPFile.info(width: 10, height: 1, bits: 1) + BMPFile.palette([(255, 0, 0), (0, 0, 255)])
        // 1010 0000 11...: pixels 0, 2, 8 and 9 are index 1.
        let image = try Self.decode(BMPFile.file(dib: dib, pixels: [0b1010_0000, 0b1100_0000, 0, 0]))
        let blue = (0..<10).filter { Array(image.pixels.pixel(x: $0, y: 0))[2] == 255 }
        #expect(blue == [0, 2, 8, 9])
    }

    @Test func runLengthRowsWithADeltaAndAnAbsoluteRun() throws {
        let dib =
            BMPFile.info(width: 4, height: 3, bits: 8, compression: 1, colours: 4)
            + BMPFile.palette([(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)])
        // Bottom row: two 1s, end of line. Middle row: delta (1, 1) to the top row at column 1. Top row: an absolute
        // run 2 3 2 (padded), end of bitmap. The middle row and the rest stay index 0.
        let runs: [UInt8] = [2, 1, 0, 0, 0, 2, 1, 1, 0, 3, 2, 3, 2, 0, 0, 1]
        let image = try Self.decode(BMPFile.file(dib: dib, pixels: runs))
        #expect(Array(image.pixels.pixel(x: 0, y: 2)) == [255, 0, 0])
        #expect(Array(image.pixels.pixel(x: 1, y: 2)) == [255, 0, 0])
        #expect(Array(image.pixels.pixel(x: 2, y: 2)) == [0, 0, 0])
        #expect((0..<4).allSatisfy { Array(image.pixels.pixel(x: $0, y: 1)) == [0, 0, 0] })
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [0, 0, 0])
        #expect(Array(image.pixels.pixel(x: 1, y: 0)) == [0, 255, 0])
        #expect(Array(image.pixels.pixel(x: 2, y: 0)) == [0, 0, 255])
        #expect(Array(image.pixels.pixel(x: 3, y: 0)) == [0, 255, 0])
    }

    @Test func bitfieldsWithAlphaInAVersion5Header() throws {
        // 32-bit, masks R 0x0000FF00, G 0x00FF0000, B 0xFF000000, A 0x000000FF (a layout no default has).
        let masks =
            BMPFile.le32(0x0000_FF00) + BMPFile.le32(0x00FF_0000) + BMPFile.le32(0xFF00_0000) + BMPFile.le32(0xFF)
        let dib = BMPFile.info(width: 1, height: 1, bits: 32, compression: 3, size: 124, extra: masks)
        let image = try Self.decode(BMPFile.file(dib: dib, pixels: [0x80, 0x10, 0x20, 0x30]))
        #expect(image.pixels.format == .rgba8)
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [0x10, 0x20, 0x30, 0x80])
    }

    @Test func sixteenBit565ScalesEachChannelToEightBits() throws {
        let masks = BMPFile.le32(0xF800) + BMPFile.le32(0x07E0) + BMPFile.le32(0x001F)
        let dib = BMPFile.info(width: 2, height: 1, bits: 16, compression: 3) + masks
        // Full red, then half green (32 of 63) and full blue.
        let image = try Self.decode(BMPFile.file(dib: dib, pixels: BMPFile.le16(0xF800) + BMPFile.le16(32 << 5 | 31)))
        #expect(Array(image.pixels.pixel(x: 0, y: 0)) == [255, 0, 0])
        #expect(Array(image.pixels.pixel(x: 1, y: 0)) == [0, 130, 255])
    }

    @Test func damageAndBombsAreTypedErrors() throws {
        let short = BMPFile.file(dib: BMPFile.info(width: 64, height: 64, bits: 24), pixels: [1, 2, 3])
        do {
            _ = try Self.decode(short)
            Issue.record("a cut BMP decoded")
        } catch {
            #expect(error.code == .truncated)
        }
        let bomb = BMPFile.file(dib: BMPFile.info(width: 1_000_000, height: 1_000_000, bits: 24), pixels: [])
        do {
            _ = try ImageSource(bytes: bomb, name: "bomb.bmp")
            Issue.record("a 10^12-pixel header opened")
        } catch {
            #expect(error.code == .limitExceeded)
        }
        let twoBit = BMPFile.file(
            dib: BMPFile.info(width: 4, height: 1, bits: 2) + BMPFile.palette([(0, 0, 0)]), pixels: [0, 0, 0, 0])
        do {
            _ = try ImageSource(bytes: twoBit, name: "two.bmp")
            Issue.record("a 2-bit BMP opened")
        } catch {
            #expect(error.code == .unsupportedFeature)
        }
    }
}
