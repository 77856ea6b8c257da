import CShrinkTIFF
import Shrink
import ShrinkCore
import ShrinkTestSupport
import Testing

@testable import ShrinkTIFF

/// LZW strips and tiles of 8-bit samples read by Shrink's LZW decoder (``TIFFLZWReader``): row for row and tile for
/// tile what libtiff's own readers give for the same file, with and without the horizontal predictor, gray, RGB and
/// RGB with alpha, strips of one row to the whole image, edge tiles; old-style strips and tiles handed to libtiff; a
/// cut strip refused with a typed error.
@Suite struct TIFFLZWReaderTests {
    /// A `width`×`height` page of `samples` samples a pixel: smooth ramps and a few hard edges, so that the
    /// predictor matters and LZW strings grow long.
    static func page(
        width: Int, height: Int, samples: Int, rowsPerStrip: Int, coding: TIFFFile.Coding,
        tile: (width: Int, height: Int)? = nil
    ) -> TIFFFile.Page {
        var data: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<samples {
                    let edge = (x / 37 + y / 23) % 3 == 0 ? 90 : 0
                    data.append(UInt8(truncatingIfNeeded: x * (c + 1) + y * 2 + edge + c * 50))
                }
            }
        }
        return TIFFFile.Page(
            width: width, height: height, samplesPerPixel: samples, photometric: samples >= 3 ? 2 : 1,
            rowsPerStrip: rowsPerStrip, coding: coding, extraSamples: samples == 4 || samples == 2 ? [2] : [],
            tile: tile, data: data)
    }

    /// Every row (strips) or tile (tiles) of the first page of `bytes` read by ``TIFFLZWReader`` and by libtiff's
    /// scanline or tile reader.
    static func blocks(_ bytes: [UInt8]) throws -> (ours: [[UInt8]], libtiff: [[UInt8]]) {
        let image = ImageBytes(bytes)
        func open() throws -> (TIFFHandle, TIFFPage) {
            let handle = try TIFFHandle(bytes: image, path: "t.tif", maxAllocation: 1 << 30)
            #expect(handle.select(page: 0))
            return (handle, TIFFPage(handle, at: .page(0)))
        }
        let (ours, page) = try open()
        let (theirs, _) = try open()
        let reader = try #require(TIFFLZWReader(page: page, handle: ours, bytes: image))
        var mine: [[UInt8]] = [], libtiff: [[UInt8]] = []
        if let tile = page.tile {
            var a = [UInt8](repeating: 0, count: page.blockBytes), b = a
            for y in stride(from: 0, to: page.size.height, by: tile.height) {
                for x in stride(from: 0, to: page.size.width, by: tile.width) {
                    #expect(
                        a.withUnsafeMutableBufferPointer {
                            reader.read(tileAt: x, y, into: $0.baseAddress!, handle: ours)
                        })
                    #expect(
                        b.withUnsafeMutableBytes {
                            cshrink_tiff_read_tile(theirs.raw, UInt32(x), UInt32(y), $0.baseAddress, $0.count)
                        } >= 0)
                    mine.append(a)
                    libtiff.append(b)
                }
            }
            return (mine, libtiff)
        }
        let rowBytes = page.size.width * page.samplesPerPixel
        var a = [UInt8](repeating: 0, count: rowBytes), b = a
        for y in 0..<page.size.height {
            #expect(a.withUnsafeMutableBufferPointer { reader.read(row: y, into: $0.baseAddress!, handle: ours) })
            #expect(b.withUnsafeMutableBytes { cshrink_tiff_read_scanline(theirs.raw, UInt32(y), $0.baseAddress) } == 1)
            mine.append(a)
            libtiff.append(b)
        }
        return (mine, libtiff)
    }

    @Test(arguments: [1, 2, 3, 4])
    func rowsAreLibtiffsRows(samples: Int) throws {
        for predictor in [1, 2] {
            for rowsPerStrip in [1, 7, 64] {
                let page = Self.page(
                    width: 301, height: 64, samples: samples, rowsPerStrip: rowsPerStrip,
                    coding: .lzw(predictor: predictor))
                let (ours, libtiff) = try Self.blocks(TIFFFile.file([page]))
                #expect(ours == libtiff, "\(samples) samples, predictor \(predictor), \(rowsPerStrip) rows a strip")
                // And both are the samples written.
                let rowBytes = 301 * samples
                #expect(ours.joined().elementsEqual(page.data), "\(samples) samples, predictor \(predictor)")
                #expect(ours.count * rowBytes == page.data.count)
            }
        }
    }

    @Test(arguments: [1, 3, 4])
    func tilesAreLibtiffsTiles(samples: Int) throws {
        for predictor in [1, 2] {
            // 150x100 in 64x32 tiles: three columns and four rows of tiles, the last of each padded.
            let page = Self.page(
                width: 150, height: 100, samples: samples, rowsPerStrip: 100, coding: .lzw(predictor: predictor),
                tile: (64, 32))
            let (ours, libtiff) = try Self.blocks(TIFFFile.file([page]))
            #expect(ours.count == 12 && ours == libtiff, "\(samples) samples, predictor \(predictor)")
            #expect(ours == TIFFFile.blocks(page), "\(samples) samples, predictor \(predictor)")
        }
    }

    @Test func oldStyleStripsAndTilesAreLibtiffs() throws {
        let page = Self.page(width: 120, height: 30, samples: 3, rowsPerStrip: 10, coding: .oldStyleLZW)
        let (ours, libtiff) = try Self.blocks(TIFFFile.file([page]))
        #expect(ours == libtiff && ours.joined().elementsEqual(page.data))
        var tiled = page
        tiled.tile = (64, 16)
        let (ourTiles, libtiffTiles) = try Self.blocks(TIFFFile.file([tiled]))
        #expect(ourTiles == libtiffTiles && ourTiles == TIFFFile.blocks(tiled))
    }

    @Test func theSameImageAsTheUncompressedFile() throws {
        let options = ThumbnailOptions(pixelFormat: .native)
        let plain = Self.page(width: 257, height: 90, samples: 3, rowsPerStrip: 16, coding: .none)
        var lzw = plain
        lzw.coding = .lzw(predictor: 2)
        let a = try ImageSource(bytes: TIFFFile.file([plain]), name: "plain.tif").image(options: options)
        let b = try ImageSource(bytes: TIFFFile.file([lzw]), name: "lzw.tif").image(options: options)
        #expect(a.pixels.bytes == b.pixels.bytes)
        // A thumbnail (box-reduced as the rows are read) too.
        let small = try ImageSource(bytes: TIFFFile.file([plain]), name: "plain.tif").thumbnail(maxPixelSize: 60)
        let smallLZW = try ImageSource(bytes: TIFFFile.file([lzw]), name: "lzw.tif").thumbnail(maxPixelSize: 60)
        #expect(small.pixels.bytes == smallLZW.pixels.bytes)
        // And tiled.
        var tiled = lzw
        tiled.tile = (48, 32)
        let c = try ImageSource(bytes: TIFFFile.file([tiled]), name: "tiled.tif").image(options: options)
        #expect(a.pixels.bytes == c.pixels.bytes)
        let smallTiled = try ImageSource(bytes: TIFFFile.file([tiled]), name: "tiled.tif").thumbnail(maxPixelSize: 60)
        #expect(small.pixels.bytes == smallTiled.pixels.bytes)
    }

    @Test func aCutStripIsATypedError() throws {
        let page = Self.page(width: 200, height: 40, samples: 3, rowsPerStrip: 40, coding: .lzw(predictor: 2))
        var bytes = TIFFFile.file([page])
        // The strip starts at 8; zero its second half: codes run out of the table or the data ends early.
        let strip = TIFFFile.code(page.data, page)
        bytes.replaceSubrange(
            (8 + strip.count / 2)..<(8 + strip.count), with: [UInt8](repeating: 0, count: strip.count - strip.count / 2)
        )
        do {
            _ = try ImageSource(bytes: bytes, name: "cut.tif").image(options: ThumbnailOptions(pixelFormat: .native))
            Issue.record("a cut LZW strip decoded")
        } catch {
            #expect(error.code == .corruptData && error.description.contains("cut.tif"), "\(error)")
            #expect(error.description.contains("LZW data of strip 0"), "\(error)")
        }
    }
}
