import CShrinkSPNG
import ShrinkCore

/// One running libspng decode that yields rows of ``PNGDecoder/rowFormat`` strictly top to bottom.
///
/// Memory: non-interlaced files stream (libspng's two scanlines and zlib window); an interlaced file
/// decoded at full size is held whole (the passes arrive out of row order); an interlaced file decoded
/// at 1/d is summed pass by pass into a grid of the reduced size (2 or 4 bytes per sample), then handed
/// out as box-averaged rows with alpha un-premultiplied.
final class PNGRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0

    private let decoder: PNGDecoder
    private let stream: PNGStream
    private var ctx: OpaquePointer?
    private let d: Int
    /// Whole decoded image (interlaced, full size) or the finished reduced rows (interlaced, 1/d).
    private var held: [UInt8] = []

    init(decoder: PNGDecoder, scaleDenominator: Int, strict: Bool) throws(ImageError) {
        self.decoder = decoder
        d = scaleDenominator
        format = decoder.rowFormat
        size = decoder.scaledSize(denominator: scaleDenominator)
        stream = PNGStream(bytes: decoder.bytes)
        let ctx = try PNGDecoder.context(stream: stream, limits: decoder.limits, path: decoder.path, strict: strict)
        self.ctx = ctx
        let fmt = Self.spngFormat(format)
        let flags = Int32(SPNG_DECODE_TRNS.rawValue)
        if decoder.isInterlaced && d == 1 {
            var length = 0
            try check(spng_decoded_image_size(ctx, fmt, &length), "sizing the image")
            held = [UInt8](repeating: 0, count: length)
            let status = held.withUnsafeMutableBytes { spng_decode_image(ctx, $0.baseAddress, $0.count, fmt, flags) }
            try check(status, "decoding the image")
        } else {
            try check(
                spng_decode_image(ctx, nil, 0, fmt, flags | Int32(SPNG_DECODE_PROGRESSIVE.rawValue)),
                "starting the decode")
            if decoder.isInterlaced { try accumulatePasses(ctx) }
        }
    }

    deinit {
        if let ctx { spng_ctx_free(ctx) }
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: ctx != nil, path: decoder.path)
        guard count > 0, let ctx else { return 0 }
        let rowBytes = format.byteCount(for: PixelSize(width: size.width, height: 1))
        if decoder.isInterlaced {
            held.withUnsafeBytes { src in
                for i in 0..<count {
                    (buffer + i * bytesPerRow).copyMemory(
                        from: src.baseAddress! + (nextRow + i) * rowBytes, byteCount: rowBytes)
                }
            }
        } else {
            for i in 0..<count {
                let status = spng_decode_row(ctx, buffer + i * bytesPerRow, rowBytes)
                guard status == 0 || status == Int32(SPNG_EOI.rawValue) else {
                    nextRow += i
                    throw ImageError.png(status, path: decoder.path, during: "decoding row \(nextRow)")
                }
            }
        }
        nextRow += count
        return count
    }

    func finish() throws(ImageError) {
        guard let ctx else { return }
        spng_ctx_free(ctx)
        self.ctx = nil
        held = []
    }

    private func check(_ status: Int32, _ stage: String) throws(ImageError) {
        guard status == 0 else { throw ImageError.png(status, path: decoder.path, during: stage) }
    }

    static func spngFormat(_ format: PixelFormat) -> Int32 {
        let f: spng_format =
            switch format {
            case .gray8: SPNG_FMT_G8
            case .rgb8: SPNG_FMT_RGB8
            case .rgba16: SPNG_FMT_RGBA16
            default: SPNG_FMT_RGBA8
            }
        return Int32(f.rawValue)
    }

    // MARK: Interlaced at 1/d

    /// Decodes every pass, summing each pixel (alpha-premultiplied) into its cell of the reduced grid, then
    /// turns the sums into rows of box averages with alpha un-premultiplied.
    private func accumulatePasses(_ ctx: OpaquePointer) throws(ImageError) {
        let full = decoder.info.size
        let c = format.channels
        let rowBytes = format.byteCount(for: PixelSize(width: full.width, height: 1))
        var row = [UInt8](repeating: 0, count: rowBytes)
        let narrow = PNGDecoder.sumIsNarrow(format, d)
        var sums16 = narrow ? [UInt16](repeating: 0, count: size.pixelCount * c) : []
        var sums32 = narrow ? [] : [UInt32](repeating: 0, count: size.pixelCount * c)
        let alpha = format == .rgba8 || format == .rgba16
        while true {
            var info = spng_row_info()
            var status = spng_get_row_info(ctx, &info)
            if status == Int32(SPNG_EOI.rawValue) { break }
            try check(status, "reading the pass layout")
            status = row.withUnsafeMutableBytes { spng_decode_row(ctx, $0.baseAddress, $0.count) }
            guard status == 0 || status == Int32(SPNG_EOI.rawValue) else {
                throw ImageError.png(
                    status, path: decoder.path, during: "decoding pass \(info.pass + 1), row \(info.row_num)")
            }
            let (x0, dx) = Self.adam7Columns[Int(info.pass)]
            let cellRow = Int(info.row_num) / d * size.width
            row.withUnsafeBytes { raw in
                if narrow {
                    sums16.withUnsafeMutableBufferPointer { sums in
                        Self.add8(
                            raw.bindMemory(to: UInt8.self).baseAddress!, from: x0, step: dx, width: full.width,
                            channels: c, alpha: alpha, d: d, into: sums.baseAddress! + cellRow * c)
                    }
                } else {
                    sums32.withUnsafeMutableBufferPointer { sums in
                        if format == .rgba16 {
                            Self.add16(
                                raw.bindMemory(to: UInt16.self).baseAddress!, from: x0, step: dx, width: full.width,
                                d: d, into: sums.baseAddress! + cellRow * 4)
                        } else {
                            Self.add8(
                                raw.bindMemory(to: UInt8.self).baseAddress!, from: x0, step: dx, width: full.width,
                                channels: c, alpha: alpha, d: d, into: sums.baseAddress! + cellRow * c)
                        }
                    }
                }
            }
            if status == Int32(SPNG_EOI.rawValue) { break }
        }
        held = [UInt8](repeating: 0, count: format.byteCount(for: size))
        held.withUnsafeMutableBytes { out in
            if narrow {
                sums16.withUnsafeBufferPointer { s in
                    Self.average(
                        s.baseAddress!, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self), grid: size,
                        full: full, channels: c, alpha: alpha, d: d, maximum: 255)
                }
            } else if format == .rgba16 {
                sums32.withUnsafeBufferPointer { s in
                    Self.average(
                        s.baseAddress!, into: out.baseAddress!.assumingMemoryBound(to: UInt16.self), grid: size,
                        full: full, channels: 4, alpha: true, d: d, maximum: 65535)
                }
            } else {
                sums32.withUnsafeBufferPointer { s in
                    Self.average(
                        s.baseAddress!, into: out.baseAddress!.assumingMemoryBound(to: UInt8.self), grid: size,
                        full: full, channels: c, alpha: alpha, d: d, maximum: 255)
                }
            }
        }
    }

    /// First column and column step of each Adam7 pass.
    static let adam7Columns = [(0, 8), (4, 8), (0, 4), (2, 4), (0, 2), (1, 2), (0, 1)]

    /// Adds the pass pixels of an 8-bit row (alpha-premultiplied when there is alpha) to their cells.
    private static func add8<S: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafePointer<UInt8>, from x0: Int, step: Int, width: Int, channels c: Int, alpha: Bool, d: Int,
        into cells: UnsafeMutablePointer<S>
    ) {
        var x = x0
        while x < width {
            let p = row + x * c, cell = cells + (x / d) * c
            if alpha {
                let a = UInt32(p[3])
                for k in 0..<3 { cell[k] &+= S((UInt32(p[k]) * a + 127) / 255) }
                cell[3] &+= S(a)
            } else {
                for k in 0..<c { cell[k] &+= S(p[k]) }
            }
            x += step
        }
    }

    private static func add16(
        _ row: UnsafePointer<UInt16>, from x0: Int, step: Int, width: Int, d: Int,
        into cells: UnsafeMutablePointer<UInt32>
    ) {
        var x = x0
        while x < width {
            let p = row + x * 4, cell = cells + (x / d) * 4
            let a = UInt64(p[3])
            for k in 0..<3 { cell[k] &+= UInt32((UInt64(p[k]) * a + 32767) / 65535) }
            cell[3] &+= UInt32(a)
            x += step
        }
    }

    /// Box averages of the sums; alpha un-premultiplied (fully transparent cells get colour 0).
    private static func average<S: BinaryInteger, O: FixedWidthInteger>(
        _ sums: UnsafePointer<S>, into out: UnsafeMutablePointer<O>, grid: PixelSize, full: PixelSize, channels c: Int,
        alpha: Bool, d: Int, maximum: Int
    ) {
        for gy in 0..<grid.height {
            let rows = min(d, full.height - gy * d)
            for gx in 0..<grid.width {
                let n = rows * min(d, full.width - gx * d)
                let i = (gy * grid.width + gx) * c
                if alpha {
                    let a = (Int(sums[i + 3]) + n / 2) / n
                    for k in 0..<3 {
                        let v = (Int(sums[i + k]) + n / 2) / n
                        out[i + k] = O(a == 0 ? 0 : min(maximum, (v * maximum + a / 2) / a))
                    }
                    out[i + 3] = O(a)
                } else {
                    for k in 0..<c { out[i + k] = O((Int(sums[i + k]) + n / 2) / n) }
                }
            }
        }
    }
}
