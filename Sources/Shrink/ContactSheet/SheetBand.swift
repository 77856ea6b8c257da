import ShrinkCore

/// One band of a contact sheet as yuv420 planes, handed to the JPEG writer as raw rows: the sheet's rows from
/// one even row to the next, a row of cells with the gap around it (band 0 also holds the top gap). Bands
/// start on even rows and cells on even pixels, so a yuv420 thumbnail's planes are copied as they are: no
/// conversion to RGB for the sheet and none back for the JPEG, and no 4:2:0 chroma sample straddles two bands.
/// With an odd cell or gap, a cell may sit one pixel up or left of its exact centre.
///
/// Memory: (cell + 2 × gap + 2) × sheet width × 1.5 bytes, reused for every row of cells.
struct SheetBand {
    let layout: ContactSheet.Layout
    /// The sheet's size.
    let sheet: PixelSize
    /// Bands in the sheet: one per row of cells.
    let bands: Int
    /// The sheet row the current band starts on, and its number of rows.
    private(set) var top = 0
    private(set) var rows = 0
    private let chromaWidth: Int
    private var luma: [UInt8]
    private var cb: [UInt8]
    private var cr: [UInt8]
    private let fill: (y: UInt8, cb: UInt8, cr: UInt8)

    init(layout: ContactSheet.Layout, sheet: PixelSize, bands: Int) {
        self.layout = layout
        self.sheet = sheet
        self.bands = bands
        chromaWidth = (sheet.width + 1) / 2
        let capacity = layout.cell + 2 * layout.gap + 2
        luma = [UInt8](repeating: 0, count: capacity * sheet.width)
        cb = [UInt8](repeating: 0, count: (capacity / 2 + 1) * chromaWidth)
        cr = cb
        let bg = layout.background
        let (u, v) = PixelConverter.chroma(r: Int32(bg.red), g: Int32(bg.green), b: Int32(bg.blue), count: 1)
        fill = (PixelConverter.luma(bg.red, bg.green, bg.blue), u, v)
    }

    /// The sheet row band `r` starts on: where its row of cells starts, rounded down to even; 0 for the first
    /// band, the sheet's height past the last.
    func start(ofBand r: Int) -> Int {
        guard r > 0 else { return 0 }
        return min(sheet.height, (layout.gap + r * (layout.cell + layout.gap)) & ~1)
    }

    /// Makes band `r` the current one and fills it with the background.
    mutating func begin(band r: Int) {
        top = start(ofBand: r)
        rows = (r + 1 >= bands ? sheet.height : start(ofBand: r + 1)) - top
        let fill = fill
        luma.withUnsafeMutableBufferPointer { $0.update(repeating: fill.y) }
        cb.withUnsafeMutableBufferPointer { $0.update(repeating: fill.cb) }
        cr.withUnsafeMutableBufferPointer { $0.update(repeating: fill.cr) }
    }

    /// Draws `image` centred (to the even pixel) in cell `column` of the current band's row `r` of cells,
    /// compositing any alpha over the background first. yuv420 images are copied plane by plane; others are
    /// converted to yuv420 once (a cell's worth of pixels).
    mutating func place(_ image: PixelBuffer, row r: Int, column: Int) {
        let cell = layout.cell
        let x0 = (layout.gap + column * (cell + layout.gap) + (cell - min(image.size.width, cell)) / 2) & ~1
        let y0 = ((layout.gap + r * (cell + layout.gap) + (cell - min(image.size.height, cell)) / 2) & ~1) - top
        let w = min(image.size.width, cell, sheet.width - x0), h = min(image.size.height, cell, rows - y0)
        guard w > 0, h > 0, y0 >= 0 else { return }
        let opaque = image.format.hasAlpha ? PixelConverter.flattened(image, over: layout.background) : image
        let planar = PixelConverter.convert(opaque, to: .yuv420)
        let planes = planar.planes
        let width = sheet.width, chromaWidth = chromaWidth
        planar.bytes.withUnsafeBufferPointer { src in
            let base = src.baseAddress!
            luma.withUnsafeMutableBufferPointer { dst in
                Self.copy(
                    base + planes[0].offset, stride: planes[0].width, width: w, height: h,
                    into: dst.baseAddress! + y0 * width + x0, stride: width)
            }
            let cw = (w + 1) / 2, ch = (h + 1) / 2, odd = (width: w % 2 == 1, height: h % 2 == 1)
            cb.withUnsafeMutableBufferPointer { dst in
                Self.copyChroma(
                    base + planes[1].offset, stride: planes[1].width, width: cw, height: ch, odd: odd,
                    background: fill.cb, into: dst.baseAddress! + y0 / 2 * chromaWidth + x0 / 2, stride: chromaWidth)
            }
            cr.withUnsafeMutableBufferPointer { dst in
                Self.copyChroma(
                    base + planes[2].offset, stride: planes[2].width, width: cw, height: ch, odd: odd,
                    background: fill.cr, into: dst.baseAddress! + y0 / 2 * chromaWidth + x0 / 2, stride: chromaWidth)
            }
        }
    }

    /// Writes the current band's rows.
    func write(to writer: any RowEncoding) throws(ImageError) {
        let (width, chromaWidth, rows) = (sheet.width, chromaWidth, rows)
        try luma.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { u in
                cr.withUnsafeBufferPointer { v in
                    Result { () throws(ImageError) in
                        try writer.write(
                            luma: y.baseAddress!, lumaStride: width, cb: u.baseAddress!, cr: v.baseAddress!,
                            chromaStride: chromaWidth, count: rows)
                    }
                }
            }
        }.get()
    }

    private static func copy(
        _ src: UnsafePointer<UInt8>, stride sourceStride: Int, width: Int, height: Int,
        into dst: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        for y in 0..<height { (dst + y * stride).update(from: src + y * sourceStride, count: width) }
    }

    /// Copies a cell's chroma plane. With an odd width (height), the last chroma column (row) covers one
    /// pixel of the photo and one of the background beside it: it is averaged with the background's chroma,
    /// as the encoder's own downsampling of an RGB sheet would, so no colour fringe shows past the photo.
    private static func copyChroma(
        _ src: UnsafePointer<UInt8>, stride sourceStride: Int, width: Int, height: Int,
        odd: (width: Bool, height: Bool), background bg: UInt8,
        into dst: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        copy(src, stride: sourceStride, width: width, height: height, into: dst, stride: stride)
        let b = Int(bg)
        if odd.width {
            for y in 0..<height {
                let d = dst + y * stride + width - 1; d.pointee = UInt8((Int(d.pointee) + b + 1) / 2)
            }
        }
        if odd.height {
            let row = dst + (height - 1) * stride
            for x in 0..<width { row[x] = UInt8((Int(row[x]) + b + 1) / 2) }
        }
        // The corner sample covers one photo pixel of four: a quarter photo, three quarters background.
        if odd.width && odd.height {
            let s = Int(src[(height - 1) * sourceStride + width - 1])
            dst[(height - 1) * stride + width - 1] = UInt8((s + 3 * b + 2) / 4)
        }
    }
}
