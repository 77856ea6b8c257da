import CShrinkTIFF
import ShrinkCore

/// One decode of a TIFF image that yields rows top to bottom: a band at a time (a strip, or a row of tiles) through
/// libtiff's RGBA reader into a band buffer, rows copied out as gray8, rgb8 or rgba8 (alpha un-premultiplied, as
/// libtiff premultiplies it), or from the stored samples (a row at a time for strips; a row of tiles — or of runs of
/// strips at 1/d — on helper threads too, through ``TIFFBlockRows``). Holds the band and libtiff's decoded strip or
/// tile; at 1/d, only a few rows of sums (``BoxReducer``), a converted row and, per thread, a decoded tile and its
/// sums.
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
    /// The band as stored samples and their conversion (pages Shrink reads from their samples).
    private var samples: [UInt8] = []
    private var sampleRows: TIFFSampleRows?
    /// A page read from its samples a block at a time: its blocks, and the reader's own lane.
    private var blocks: TIFFBlockRows?
    private var lane: TIFFBlockLane?
    /// The band of the row of tiles being read (tiles at full size).
    private var tileBand: UnsafePointer<UInt8>?
    private let reduction: Int
    /// LZW strips through Shrink's LZW decoder (``TIFFLZWReader``), when the page is one it reads.
    private var lzw: TIFFLZWReader?
    /// The first image row the band holds, and how many.
    private var bandStart = 0, bandCount = 0
    /// The file's pages behind the strip being read (strips are read in the file's order), released every MiB.
    private var pages: ResidentPageRelease
    private let bytes: ImageBytes
    /// At 1/d: the sums and one converted row (strips), and the source rows summed so far (strips and tiles).
    private var reducer: BoxReducer?
    private var converted: [UInt8] = []
    private var sourceDone = 0

    /// A decode of `page` at 1/`d` (`d` above 1 only for a page read from its samples); tiles read from their samples,
    /// and with `blocks` a stripped page at 1/d, a block at a time through ``TIFFBlockRows``, lent to `helpers` (each
    /// holding `helperBytes`).
    init(
        decoder: TIFFDecoder, page: TIFFPage, format: PixelFormat, ink: any InkConverting, reduction d: Int = 1,
        blocks byBlocks: Bool = false, helpers: (any DecodeHelping)? = nil, helperBytes: Int = 0,
        monitor: DecodeMonitor? = nil
    ) throws(ImageError) {
        self.page = page
        bytes = decoder.bytes
        pages = ResidentPageRelease(decoder.bytes, step: 1 << 20)
        path = decoder.path
        reduction = d > 1 && page.readsSamples ? d : 1
        size = d > 1 && page.readsSamples ? BoxReducer.reducedSize(page.size, d: d) : page.size
        self.format = format
        bandRows = page.bandRows
        band = []
        let maxAllocation = decoder.limits.maxWorkingBytes
        // Tiles read from their samples always go by blocks; runs of strips when the route chose them.
        if page.readsSamples && (page.tile != nil || (byBlocks && reduction > 1)) {
            // Blocks on this thread and helpers', each thread with its own lane and libtiff handle.
            let lane = try TIFFBlockLane(
                page: page, block: TIFFBlockRows.block(page), bytes: decoder.bytes, path: decoder.path,
                maxAllocation: maxAllocation, format: format, ink: ink, reduction: reduction)
            self.lane = lane
            handle = lane.handle
            blocks = TIFFBlockRows(
                page: page, bytes: decoder.bytes, path: decoder.path, maxAllocation: maxAllocation, format: format,
                ink: ink, reduction: d, helpers: helpers, helperBytes: helperBytes, monitor: monitor)
            if reduction == 1 { sampleRows = TIFFSampleRows(page: page, format: format, ink: ink) }
            return
        }
        let handle = try TIFFHandle(
            bytes: decoder.bytes, path: decoder.path, maxAllocation: maxAllocation, selecting: page.location)
        self.handle = handle
        if d > 1 && page.readsSamples {
            // Summed as read: a row of samples, converted.
            lzw = TIFFLZWReader(page: page, handle: handle, bytes: decoder.bytes)
            reducer = BoxReducer(source: page.size, d: d, channels: format.channels, bandRows: bandRows)
            samples = [UInt8](repeating: 0, count: page.size.width * page.bytesPerPixel)
            converted = [UInt8](repeating: 0, count: page.size.width * format.channels)
            sampleRows = TIFFSampleRows(page: page, format: format, ink: ink)
        } else if page.readsSamples {
            lzw = TIFFLZWReader(page: page, handle: handle, bytes: decoder.bytes)
            samples = [UInt8](repeating: 0, count: page.size.width * page.bytesPerPixel)
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
        if let blocks, let lane {
            try readBlocks(blocks, lane, count: count, into: buffer, bytesPerRow: bytesPerRow)
            nextRow += count
            if nextRow == size.height {
                blocks.stop()
                let reported = handle.warnings
                if let first = reported.count > 0 ? reported.first : blocks.warning { warnings = ["libtiff: \(first)"] }
            }
            return count
        }
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
        blocks?.stop()
        blocks = nil
        lane = nil
        handle = nil
        band = []
        samples = []
        converted = []
        reducer = nil
    }

    deinit { blocks?.stop() }

    /// The next `count` rows of a page read a block at a time: at 1/d each row's sums taken once every row of blocks
    /// it covers has been read; at full size (tiles) converted from their row of tiles' band.
    private func readBlocks(
        _ blocks: TIFFBlockRows, _ lane: TIFFBlockLane, count: Int, into buffer: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws(ImageError) {
        let blockHeight = TIFFBlockRows.block(page).height
        for i in 0..<count {
            let r = nextRow + i
            let out = (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            guard let sampleRows else {
                while sourceDone < min(page.size.height, (r + 1) * reduction) {
                    do throws(ImageError) {
                        try blocks.read(row: sourceDone / blockHeight, lane: lane)
                    } catch {
                        nextRow = r
                        throw error
                    }
                    sourceDone = min(page.size.height, sourceDone + blockHeight)
                }
                blocks.take(row: r, into: out)
                continue
            }
            if r >= bandStart + bandCount {
                bandStart = r / blockHeight * blockHeight
                bandCount = min(blockHeight, size.height - bandStart)
                do throws(ImageError) {
                    try blocks.read(row: r / blockHeight, lane: lane)
                } catch {
                    nextRow = r
                    throw error
                }
                tileBand = blocks.band(blockRow: r / blockHeight)
            }
            if let tileBand { sampleRows.convert(tileBand + (r - bandStart) * blocks.bandStride, into: out) }
        }
    }

    /// Sums the next source row of a stripped page into `reducer`; false when libtiff cannot decode it.
    private func sumMore(_ handle: TIFFHandle, _ reducer: BoxReducer) -> Bool {
        guard let sampleRows else { return false }
        let y = sourceDone
        guard readScanline(y, handle) else { return false }
        converted.withUnsafeMutableBufferPointer { row in
            samples.withUnsafeBytes { sampleRows.convert($0.baseAddress!, into: row.baseAddress!) }
            reducer.add(row.baseAddress!, row: y, column: 0, count: page.size.width)
        }
        sourceDone += 1
        return true
    }

    /// Releases the mapped pages of the strips stored before the one holding `row` (every MiB), so a large file does
    /// not stay resident as it is read: called before each row and band is read. (``TIFFBlockRows`` does this for
    /// tiles and runs of strips.)
    private func releasePages(before row: Int, _ handle: TIFFHandle) {
        guard bytes.isPageAlignedMapping && row > 0 else { return }
        pages.release(below: Int(min(handle.blockOffset(x: 0, y: row), UInt64(bytes.count))))
    }

    /// Decodes the band at ``bandStart``: through the RGBA reader, or a row of a stripped page's stored samples.
    private func fillBand(_ handle: TIFFHandle) -> Bool {
        guard sampleRows != nil else {
            releasePages(before: bandStart, handle)
            return band.withUnsafeMutableBufferPointer {
                cshrink_tiff_rgba_rows(handle.raw, UInt32(bandStart), UInt32(bandCount), $0.baseAddress) == 1
            }
        }
        return readScanline(bandStart, handle)
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
