import ShrinkCore

/// A HEIC or AVIF image as rgb8 rows (gray8 for monochrome, rgba8 with alpha), converted from the bands of
/// ``HEIFBands`` with the matrix and range the file signals (chroma shared by the pixels it covers); rgba16
/// rows, converted at full precision, from bands that keep a deeper image's samples. Costs a band; rows are
/// converted as they are read.
final class HEIFRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    private var bands: HEIFBands?
    private var alpha: HEIFBands?
    private let path: String

    /// With `alpha`, rows are rgba8: colour from `bands`, alpha from the alpha image's luma. Bands of 16-bit
    /// samples make rgba16 rows (opaque without `alpha`).
    init(bands: HEIFBands, alpha: HEIFBands? = nil, path: String) {
        self.bands = bands
        self.alpha = alpha
        size = PixelSize(width: bands.window.width, height: bands.window.height)
        format = bands.sampleBytes == 2 ? .rgba16 : alpha != nil ? .rgba8 : bands.planeCount == 1 ? .gray8 : .rgb8
        self.path = path
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: bands != nil, path: path)
        guard let bands else { return 0 }
        var written = 0
        while written < count {
            let y = row + written + bands.window.y // the coded row (the window starts lower)
            if y >= bands.bandStart[0] + bands.bandRows[0] || bands.bandRows[0] == 0 {
                guard try bands.decodeNextRow() else { break }
                continue
            }
            if format == .rgba16 {
                let out = (buffer + written * bytesPerRow).assumingMemoryBound(to: UInt16.self)
                convertDeep(bands, row: y, into: out)
                if let alpha {
                    try advance(alpha, to: y)
                    Self.alphaDeep(alpha, row: y, x0: bands.window.x, count: size.width, into: out)
                }
                written += 1
                continue
            }
            let out = (buffer + written * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if let alpha {
                try advance(alpha, to: y)
                convert(bands, row: y, into: out, channels: 4)
                // the alpha image's window holds the colour's
                let a = alpha.row(0, y) + (bands.window.x - alpha.window.x)
                for x in 0..<size.width {
                    let v = Int(a[x])
                    out[4 * x + 3] = alpha.fullRange ? UInt8(v) : VideoRange.lumaTable[v]
                }
            } else {
                convert(bands, row: y, into: out, channels: format.channels)
            }
            written += 1
        }
        nextRow += written
        return written
    }

    /// Decodes rows of tiles of the alpha image until its band holds coded row `y`. Fails with `.truncated`
    /// when the alpha image ends first.
    private func advance(_ alpha: HEIFBands, to y: Int) throws(ImageError) {
        while y >= alpha.bandStart[0] + alpha.bandRows[0] || alpha.bandRows[0] == 0 {
            guard try alpha.decodeNextRow() else {
                throw ImageError(.truncated, "\(path): the HEIF alpha image ends at row \(y)")
            }
        }
    }

    func finish() throws(ImageError) {
        bands = nil
        alpha = nil
    }

    /// Row `y` (inside the current band) as gray8 (`channels` 1) or RGB in `channels`-byte pixels (3 or 4; the
    /// fourth byte is left for alpha).
    private func convert(_ bands: HEIFBands, row y: Int, into out: UnsafeMutablePointer<UInt8>, channels: Int) {
        let w = size.width, x0 = bands.window.x
        let full = bands.fullRange
        let luma = bands.row(0, y)
        if bands.planeCount == 1 {
            for x in 0..<w {
                let v = Int(luma[x])
                let g = full ? UInt8(v) : VideoRange.lumaTable[v]
                if channels == 1 {
                    out[x] = g
                } else {
                    out[channels * x] = g; out[channels * x + 1] = g; out[channels * x + 2] = g
                }
            }
            return
        }
        let cy = max(bands.bandStart[1], min(y / bands.subsampling.y, bands.bandStart[1] + bands.bandRows[1] - 1))
        let cb = bands.row(1, cy), cr = bands.row(2, cy)
        if YCbCrMatrix.isIdentity(bands.matrix) {
            // GBR: green in the luma plane, blue and red in the chroma planes, each a luma-range sample.
            for x in 0..<w {
                let c = (x + x0) / bands.subsampling.x - x0 / bands.subsampling.x
                let (r, g, b) = (Int(cr[c]), Int(luma[x]), Int(cb[c]))
                out[channels * x] = full ? UInt8(r) : VideoRange.lumaTable[r]
                out[channels * x + 1] = full ? UInt8(g) : VideoRange.lumaTable[g]
                out[channels * x + 2] = full ? UInt8(b) : VideoRange.lumaTable[b]
            }
            return
        }
        let (kr, kb) = YCbCrMatrix.coefficients(matrix: bands.matrix, primaries: bands.primaries)
        let kg = 1 - kr - kb
        let yScale = full ? 1.0 : 255.0 / 219, yOffset = full ? 0.0 : 16.0, cScale = full ? 1.0 : 255.0 / 224
        @inline(__always) func clamp(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        for x in 0..<w {
            let l = (Double(luma[x]) - yOffset) * yScale
            let c = (x + x0) / bands.subsampling.x - x0 / bands.subsampling.x
            let u = (Double(cb[c]) - 128) * cScale, v = (Double(cr[c]) - 128) * cScale
            let r = l + 2 * (1 - kr) * v, b = l + 2 * (1 - kb) * u
            out[channels * x] = clamp(r)
            out[channels * x + 1] = clamp((l - kr * r - kb * b) / kg)
            out[channels * x + 2] = clamp(b)
        }
    }

    /// Row `y` of 16-bit bands as rgba16 (opaque): samples at the bands' depth, range widened and converted
    /// with the file's matrix in floating point, scaled to 0…65535.
    private func convertDeep(_ bands: HEIFBands, row y: Int, into out: UnsafeMutablePointer<UInt16>) {
        let w = size.width, x0 = bands.window.x
        let shift = Double(1 << (bands.bitDepth - 8))
        let top = Double((1 << bands.bitDepth) - 1), mid = Double(1 << (bands.bitDepth - 1))
        let full = bands.fullRange
        let yOffset = full ? 0 : 16 * shift, yScale = full ? 1 / top : 1 / (219 * shift),
            cScale = full ? 1 / top : 1 / (224 * shift)
        @inline(__always) func sample(_ row: UnsafePointer<UInt8>, _ x: Int) -> Double {
            Double(UnsafeRawPointer(row).loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
        }
        @inline(__always) func word(_ v: Double) -> UInt16 { UInt16(min(max((v * 65535).rounded(), 0), 65535)) }
        let luma = bands.row(0, y)
        if bands.planeCount == 1 {
            for x in 0..<w {
                let g = word((sample(luma, x) - yOffset) * yScale)
                (out[4 * x], out[4 * x + 1], out[4 * x + 2], out[4 * x + 3]) = (g, g, g, 65535)
            }
            return
        }
        let cy = max(bands.bandStart[1], min(y / bands.subsampling.y, bands.bandStart[1] + bands.bandRows[1] - 1))
        let cb = bands.row(1, cy), cr = bands.row(2, cy)
        if YCbCrMatrix.isIdentity(bands.matrix) {
            for x in 0..<w {
                let c = (x + x0) / bands.subsampling.x - x0 / bands.subsampling.x
                (out[4 * x], out[4 * x + 1], out[4 * x + 2], out[4 * x + 3]) = (
                    word((sample(cr, c) - yOffset) * yScale), word((sample(luma, x) - yOffset) * yScale),
                    word((sample(cb, c) - yOffset) * yScale), 65535
                )
            }
            return
        }
        let (kr, kb) = YCbCrMatrix.coefficients(matrix: bands.matrix, primaries: bands.primaries)
        let kg = 1 - kr - kb
        for x in 0..<w {
            let l = (sample(luma, x) - yOffset) * yScale
            let c = (x + x0) / bands.subsampling.x - x0 / bands.subsampling.x
            let u = (sample(cb, c) - mid) * cScale, v = (sample(cr, c) - mid) * cScale
            let r = l + 2 * (1 - kr) * v, b = l + 2 * (1 - kb) * u
            (out[4 * x], out[4 * x + 1], out[4 * x + 2], out[4 * x + 3]) = (
                word(r), word((l - kr * r - kb * b) / kg), word(b), 65535
            )
        }
    }

    /// Alpha of row `y` (the alpha image's luma, 8- or 16-bit, range widened) into the fourth word of `count`
    /// rgba16 pixels from coded column `x0`.
    private static func alphaDeep(
        _ alpha: HEIFBands, row y: Int, x0: Int, count: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        let a = UnsafeRawPointer(alpha.row(0, y)) + (x0 - alpha.window.x) * alpha.sampleBytes
        let shift = Double(1 << (alpha.bitDepth - 8)), top = Double((1 << alpha.bitDepth) - 1)
        let offset = alpha.fullRange ? 0 : 16 * shift, scale = alpha.fullRange ? 65535 / top : 65535 / (219 * shift)
        for x in 0..<count {
            let v =
                alpha.sampleBytes == 2
                ? Double(a.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                : Double(a.load(fromByteOffset: x, as: UInt8.self))
            out[4 * x + 3] = UInt16(min(max(((v - offset) * scale).rounded(), 0), 65535))
        }
    }
}
