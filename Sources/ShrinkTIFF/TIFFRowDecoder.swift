import CShrinkTIFF
import ShrinkCore

/// One decode of a TIFF image that yields rows top to bottom: a band at a time (a strip, or a row of tiles) through
/// libtiff's RGBA reader into a band buffer, rows copied out as gray8, rgb8 or rgba8 (alpha un-premultiplied, as
/// libtiff premultiplies it), or from the stored samples (a row at a time for strips). Holds the band and libtiff's
/// decoded strip or tile; at 1/d, only a few rows of sums (``BoxReducer``), a converted row and a decoded tile.
final class TIFFRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    private(set) var warnings: [String] = []

    private let path: String
    private var handle: TIFFHandle?
    private let bandRows: Int
    private let page: TIFFPage
    /// The band through libtiff's RGBA reader.
    private var band: [UInt32]
    /// The band as stored samples, a decoded tile, and their conversion (pages Shrink reads from their samples).
    private var samples: [UInt8] = []
    private var tile: [UInt8] = []
    private var sampleRows: TIFFSampleRows?
    /// LZW strips and tiles through Shrink's LZW decoder (``TIFFLZWReader``), when the page is one it reads.
    private var lzw: TIFFLZWReader?
    /// The first image row the band holds, and how many.
    private var bandStart = 0, bandCount = 0
    /// The file's pages below this offset have been released (strips and tiles are read in the file's order).
    private var released = 0
    private let bytes: ImageBytes
    /// At 1/d: the sums, one converted row (a tile's width for tiles), and the source rows summed so far.
    private var reducer: BoxReducer?
    private var converted: [UInt8] = []
    private var sourceDone = 0

    init(
        decoder: TIFFDecoder, page: TIFFPage, format: PixelFormat, ink: any InkConverting, reduction d: Int = 1
    ) throws(ImageError) {
        self.page = page
        bytes = decoder.bytes
        path = decoder.path
        size = d > 1 && page.readsSamples ? BoxReducer.reducedSize(page.size, d: d) : page.size
        self.format = format
        let handle = try TIFFHandle(
            bytes: decoder.bytes, path: decoder.path, maxAllocation: decoder.limits.maxWorkingBytes)
        let selected: Bool
        switch page.location {
        case .page(let index): selected = handle.select(page: index)
        case .subIFD(let offset): selected = handle.select(subIFD: offset)
        }
        guard selected else {
            throw ImageError(
                .corruptData, "\(decoder.path): the TIFF's image directory cannot be read", cause: handle.lastError)
        }
        self.handle = handle
        bandRows = page.bandRows
        lzw = page.readsSamples ? TIFFLZWReader(page: page, handle: handle, bytes: decoder.bytes) : nil
        if d > 1 && page.readsSamples {
            // Summed as read: a row of samples (strips) or a decoded tile, converted a row at a time.
            let reducer = BoxReducer(source: page.size, d: d, channels: format.channels, bandRows: bandRows)
            self.reducer = reducer
            band = []
            let width = page.tile?.width ?? page.size.width
            if page.tile == nil {
                samples = [UInt8](repeating: 0, count: width * page.bytesPerPixel)
            } else {
                tile = [UInt8](repeating: 0, count: page.blockBytes)
            }
            converted = [UInt8](repeating: 0, count: width * format.channels)
            sampleRows = TIFFSampleRows(page: page, format: format, ink: ink, width: width)
        } else if page.readsSamples {
            band = []
            samples = [UInt8](repeating: 0, count: page.size.width * bandRows * page.bytesPerPixel)
            if page.tile != nil { tile = [UInt8](repeating: 0, count: page.blockBytes) }
            sampleRows = TIFFSampleRows(page: page, format: format, ink: ink)
        } else {
            band = [UInt32](repeating: 0, count: page.size.width * bandRows)
        }
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: handle != nil, path: path)
        guard let handle else { return 0 }
        if let reducer {
            for i in 0..<count {
                let r = nextRow + i
                while sourceDone < min(page.size.height, (r + 1) * reducer.d) {
                    guard sumMore(handle, reducer) else {
                        nextRow = r
                        throw ImageError(
                            .corruptData, "\(path): the TIFF's row \(sourceDone) cannot be decoded",
                            cause: failure(handle))
                    }
                }
                reducer.take(row: r, into: (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self))
            }
            nextRow += count
            return count
        }
        for i in 0..<count {
            let y = nextRow + i
            if y >= bandStart + bandCount {
                bandStart = y / bandRows * bandRows
                bandCount = min(bandRows, size.height - bandStart)
                guard fillBand(handle) else {
                    nextRow = y
                    throw ImageError(
                        .corruptData,
                        "\(path): the TIFF's rows \(bandStart)–\(bandStart + bandCount - 1) cannot be decoded",
                        cause: failure(handle))
                }
            }
            let out = (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if let sampleRows {
                let rowBytes = size.width * page.bytesPerPixel
                samples.withUnsafeBytes { sampleRows.convert($0.baseAddress! + (y - bandStart) * rowBytes, into: out) }
            } else {
                band.withUnsafeBufferPointer { source in
                    Self.copy(
                        UnsafeRawPointer(source.baseAddress! + (y - bandStart) * size.width), width: size.width,
                        format: format, into: out)
                }
            }
        }
        nextRow += count
        if nextRow == size.height {
            let reported = handle.warnings
            if reported.count > 0 { warnings = ["libtiff: \(reported.first)"] }
        }
        return count
    }

    func finish() throws(ImageError) {
        handle = nil
        band = []
        samples = []
        tile = []
        converted = []
        reducer = nil
    }

    /// Sums the next source row (strips) or row of tiles into `reducer`; false when libtiff cannot decode it.
    private func sumMore(_ handle: TIFFHandle, _ reducer: BoxReducer) -> Bool {
        guard let sampleRows else { return false }
        guard let tileSize = page.tile else {
            let y = sourceDone
            guard readScanline(y, handle) else { return false }
            converted.withUnsafeMutableBufferPointer { row in
                samples.withUnsafeBytes { sampleRows.convert($0.baseAddress!, into: row.baseAddress!) }
                reducer.add(row.baseAddress!, row: y, column: 0, count: page.size.width)
            }
            sourceDone += 1
            return true
        }
        let top = sourceDone, rows = min(tileSize.height, page.size.height - top)
        let rowBytes = tileSize.width * page.bytesPerPixel
        for x in stride(from: 0, to: page.size.width, by: tileSize.width) {
            guard readTile(x, top, handle) else { return false }
            let columns = min(tileSize.width, page.size.width - x)
            converted.withUnsafeMutableBufferPointer { row in
                tile.withUnsafeBytes { t in
                    for r in 0..<rows {
                        sampleRows.convert(t.baseAddress! + r * rowBytes, into: row.baseAddress!)
                        reducer.add(row.baseAddress!, row: top + r, column: x, count: columns)
                    }
                }
            }
        }
        sourceDone += rows
        return true
    }

    /// Releases the mapped pages of the strips or tiles stored before the one holding pixel (`column`, `row`) (every
    /// MiB), so a large file does not stay resident as it is read: called before each row, band and tile is read, a
    /// row of tiles never holds more than that step of the file.
    private func releasePages(before row: Int, column: Int = 0, _ handle: TIFFHandle) {
        guard bytes.isPageAlignedMapping && (row > 0 || column > 0) else { return }
        let offset = Int(
            min(cshrink_tiff_block_offset(handle.raw, UInt32(column), UInt32(row)), UInt64(bytes.count)))
        if offset - released >= 1 << 20 {
            bytes.releaseResidentPages(in: released..<offset)
            released = offset
        }
    }

    /// Decodes the band at ``bandStart``: through the RGBA reader, or a row (or a row of tiles) of stored samples.
    private func fillBand(_ handle: TIFFHandle) -> Bool {
        guard sampleRows != nil else {
            releasePages(before: bandStart, handle)
            return band.withUnsafeMutableBufferPointer {
                cshrink_tiff_rgba_rows(handle.raw, UInt32(bandStart), UInt32(bandCount), $0.baseAddress) == 1
            }
        }
        guard let tileSize = page.tile else {
            return readScanline(bandStart, handle)
        }
        // A row of tiles: each decoded, its rows copied into the band at its column (the last one cut).
        let pixel = page.bytesPerPixel, rowBytes = size.width * pixel
        for x in stride(from: 0, to: size.width, by: tileSize.width) {
            guard readTile(x, bandStart, handle) else { return false }
            let columns = min(tileSize.width, size.width - x)
            tile.withUnsafeBytes { t in
                samples.withUnsafeMutableBytes { band in
                    for row in 0..<bandCount {
                        (band.baseAddress! + row * rowBytes + x * pixel).copyMemory(
                            from: t.baseAddress! + row * tileSize.width * pixel, byteCount: columns * pixel)
                    }
                }
            }
        }
        return true
    }

    /// What the last failed read said: Shrink's LZW decoder's reason, or libtiff's last error.
    private func failure(_ handle: TIFFHandle) -> String { lzw.map(\.failure) ?? handle.lastError }

    /// Decodes stored row `y` of a stripped page into ``samples``: from the strip's codec state (libtiff's, or
    /// Shrink's LZW decoder's), never a decoded strip.
    private func readScanline(_ y: Int, _ handle: TIFFHandle) -> Bool {
        releasePages(before: y, handle)
        return samples.withUnsafeMutableBytes { row in
            if let lzw {
                return lzw.read(row: y, into: row.baseAddress!.assumingMemoryBound(to: UInt8.self), handle: handle)
            }
            return cshrink_tiff_read_scanline(handle.raw, UInt32(y), row.baseAddress) == 1
        }
    }

    /// Decodes the tile holding pixel (`x`, `y`) into ``tile``: by libtiff, or Shrink's LZW decoder.
    private func readTile(_ x: Int, _ y: Int, _ handle: TIFFHandle) -> Bool {
        releasePages(before: y, column: x, handle)
        return tile.withUnsafeMutableBytes { t in
            if let lzw {
                return lzw.read(tileAt: x, y, into: t.baseAddress!.assumingMemoryBound(to: UInt8.self), handle: handle)
            }
            return cshrink_tiff_read_tile(handle.raw, UInt32(x), UInt32(y), t.baseAddress, t.count) >= 0
        }
    }

    /// One row of libtiff's RGBA (R first in memory, alpha premultiplied) as `format`.
    static func copy(_ source: UnsafeRawPointer, width: Int, format: PixelFormat, into out: UnsafeMutablePointer<UInt8>)
    {
        let s = source.assumingMemoryBound(to: UInt8.self)
        switch format {
        case .gray8:
            for x in 0..<width { out[x] = s[4 * x] }
        case .rgb8:
            for x in 0..<width {
                out[3 * x] = s[4 * x]
                out[3 * x + 1] = s[4 * x + 1]
                out[3 * x + 2] = s[4 * x + 2]
            }
        default:
            for x in 0..<width {
                let a = Int(s[4 * x + 3])
                out[4 * x + 3] = UInt8(a)
                for c in 0..<3 {
                    let v = Int(s[4 * x + c])
                    out[4 * x + c] =
                        a == 255 || a == 0 ? (a == 0 ? 0 : UInt8(v)) : UInt8(min(255, (v * 255 + a / 2) / a))
                }
            }
        }
    }
}
