import ShrinkCore

/// Rows of a TIFF's own samples (``TIFFPage/readsSamples``) turned into gray8, rgb8 or rgba8: 16-bit samples
/// rounded to 8, 32-bit integers clipped to 0…255 (as Pillow reads them), 32-bit floats taken as 0…1, min-is-white
/// inverted, ink (CMYK) through the ink converter, associated alpha un-premultiplied.
final class TIFFSampleRows {
    let page: TIFFPage
    let format: PixelFormat
    let ink: any InkConverting
    /// One row of 8-bit samples (every stored sample), of packed ink and of RGB from ink, reused.
    private var eight: [UInt8]
    private var packed: [UInt8]
    private var rgb: [UInt8]

    /// Rows `width` pixels wide (the page's, or a tile's).
    let width: Int
    /// The stored samples are the output's bytes (8-bit unsigned min-is-black gray or RGB, no extra sample).
    private let isCopy: Bool

    init(page: TIFFPage, format: PixelFormat, ink: any InkConverting, width: Int? = nil) {
        self.page = page
        self.format = format
        self.ink = ink
        let width = width ?? page.size.width
        self.width = width
        isCopy =
            page.bitsPerSample == 8 && page.sampleFormat == 1 && (page.photometric == 1 || page.photometric == 2)
            && page.extraSamples == 0 && page.samplesPerPixel == format.channels
        eight = [UInt8](repeating: 0, count: width * page.samplesPerPixel)
        rgb = page.photometric == 5 ? [UInt8](repeating: 0, count: width * 3) : []
        packed = page.photometric == 5 && page.samplesPerPixel != 4 ? [UInt8](repeating: 0, count: width * 4) : []
    }

    /// Converts one stored row at `source` into `out`.
    func convert(_ source: UnsafeRawPointer, into out: UnsafeMutablePointer<UInt8>) {
        let page = page, ink = ink, format = format
        if isCopy {
            out.update(from: source.assumingMemoryBound(to: UInt8.self), count: width * format.channels)
            return
        }
        let width = width, spp = page.samplesPerPixel, colour = page.colourSamples
        let count = width * spp
        eight.withUnsafeMutableBufferPointer { e in
            Self.toEightBit(
                source, bits: page.bitsPerSample, format: page.sampleFormat, count: count, into: e.baseAddress!)
            if page.photometric == 0 {
                for x in 0..<width { e[x * spp] = 255 - e[x * spp] }
            }
            if page.photometric == 5 {
                // Ink: four samples a pixel to RGB (the extra alpha sample, if any, stays behind).
                if spp == 4 {
                    rgb.withUnsafeMutableBufferPointer {
                        ink.convert(e.baseAddress!, inverted: false, into: $0.baseAddress!, count: width)
                    }
                } else {
                    packed.withUnsafeMutableBufferPointer { p in
                        for x in 0..<width { for c in 0..<4 { p[4 * x + c] = e[x * spp + c] } }
                        rgb.withUnsafeMutableBufferPointer { r in
                            ink.convert(p.baseAddress!, inverted: false, into: r.baseAddress!, count: width)
                        }
                    }
                }
            }
            rgb.withUnsafeBufferPointer { r in
                let channels = format.channels
                for x in 0..<width {
                    let o = out + x * channels
                    let alpha = page.hasAlpha ? Int(e[x * spp + colour]) : 255
                    for c in 0..<min(channels, 3) {
                        let v: Int
                        if page.photometric == 5 {
                            v = Int(r[3 * x + c])
                        } else {
                            v = Int(e[x * spp + (colour == 1 ? 0 : c)])
                        }
                        o[c] = UInt8(
                            page.alphaIsAssociated && alpha < 255
                                ? (alpha == 0 ? 0 : min(255, (v * 255 + alpha / 2) / alpha)) : v)
                    }
                    if channels == 4 { o[3] = UInt8(alpha) }
                }
            }
        }
    }

    /// `count` samples of `bits` bits (SampleFormat `format`) at `source` as 8-bit values.
    static func toEightBit(
        _ source: UnsafeRawPointer, bits: Int, format: Int, count: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
        switch (bits, format) {
        case (8, 2):
            for i in 0..<count { out[i] = UInt8(max(0, Int(source.load(fromByteOffset: i, as: Int8.self)))) }
        case (8, _):
            out.update(from: source.assumingMemoryBound(to: UInt8.self), count: count)
        case (16, 2):
            for i in 0..<count {
                out[i] = UInt8(max(0, Int(source.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))) >> 7)
            }
        case (16, _):
            for i in 0..<count {
                out[i] = UInt8((Int(source.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) + 128) / 257)
            }
        case (32, 3):
            for i in 0..<count {
                let v = source.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)
                out[i] = v.isNaN ? 0 : UInt8(max(0, min(255, (v * 255).rounded())))
            }
        case (32, 2):
            for i in 0..<count {
                out[i] = UInt8(max(0, min(255, Int(source.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))))
            }
        default:
            for i in 0..<count {
                out[i] = UInt8(min(255, source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
        }
    }
}
