import ShrinkCore

/// One band of a contact sheet: a row of cells and the gap below it, as rgb8 rows ready for the JPEG
/// writer. Memory: (cell + gap) × sheet width × 3 bytes, reused for every row of cells.
struct SheetBand {
    let layout: ContactSheet.Layout
    let width: Int
    private var pixels: [UInt8]

    init(layout: ContactSheet.Layout, width: Int) {
        self.layout = layout
        self.width = width
        pixels = [UInt8](repeating: 0, count: (layout.cell + layout.gap) * width * 3)
        clear()
    }

    /// Fills the band with the background.
    mutating func clear() {
        let bg = layout.background
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = bg.red; p[i + 1] = bg.green; p[i + 2] = bg.blue
                i += 3
            }
        }
    }

    /// Draws `image` centred in cell `column`, compositing any alpha over the background.
    mutating func place(_ image: PixelBuffer, column: Int) {
        let cell = layout.cell
        let w = min(image.size.width, cell), h = min(image.size.height, cell)
        let x0 = layout.gap + column * (cell + layout.gap) + (cell - w) / 2
        let y0 = (cell - h) / 2
        let alpha = image.format.hasAlpha
        let source = PixelConverter.convert(image, to: alpha ? .rgba8 : .rgb8)
        let bg = layout.background
        source.bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                Self.blit(src.baseAddress!, sourceWidth: source.size.width, channels: alpha ? 4 : 3, width: w, height: h,
                          into: dst.baseAddress! + (y0 * width + x0) * 3, stride: width * 3, background: bg)
            }
        }
    }

    /// Writes the band's rows (all of them: the cells and the gap below).
    func write(to writer: any RowEncoding) throws(ImageError) {
        try pixels.withUnsafeBytes { raw in
            Result { () throws(ImageError) in
                try writer.write(rows: raw.baseAddress!, bytesPerRow: width * 3, count: layout.cell + layout.gap)
            }
        }.get()
    }

    /// Writes the gap above the first row of cells.
    func writeTopGap(to writer: any RowEncoding) throws(ImageError) {
        guard layout.gap > 0 else { return }
        var gap = [UInt8](repeating: 0, count: width * 3)
        for x in 0..<width { gap[3 * x] = layout.background.red; gap[3 * x + 1] = layout.background.green; gap[3 * x + 2] = layout.background.blue }
        for _ in 0..<layout.gap {
            try gap.withUnsafeBytes { raw in
                Result { () throws(ImageError) in try writer.write(rows: raw.baseAddress!, bytesPerRow: width * 3, count: 1) }
            }.get()
        }
    }

    private static func blit(_ src: UnsafePointer<UInt8>, sourceWidth: Int, channels: Int, width: Int, height: Int,
                             into dst: UnsafeMutablePointer<UInt8>, stride: Int,
                             background bg: (red: UInt8, green: UInt8, blue: UInt8)) {
        for y in 0..<height {
            let s = src + y * sourceWidth * channels, d = dst + y * stride
            if channels == 3 {
                d.update(from: s, count: width * 3)
                continue
            }
            for x in 0..<width {
                let a = UInt32(s[4 * x + 3]), na = 255 - a
                d[3 * x] = UInt8((UInt32(s[4 * x]) * a + UInt32(bg.red) * na + 127) / 255)
                d[3 * x + 1] = UInt8((UInt32(s[4 * x + 1]) * a + UInt32(bg.green) * na + 127) / 255)
                d[3 * x + 2] = UInt8((UInt32(s[4 * x + 2]) * a + UInt32(bg.blue) * na + 127) / 255)
            }
        }
    }
}
