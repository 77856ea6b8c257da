import ShrinkCore

/// A HEIC image as rgb8 rows (gray8 for monochrome), converted from the bands of ``HEIFBands`` with the
/// matrix and range the file signals (chroma shared by the pixels it covers). Costs a band; rows are
/// converted as they are read.
final class HEIFRowDecoder: RowDecoding {
    let size: Size
    let format: PixelFormat
    private(set) var nextRow = 0
    private var bands: HEIFBands?
    private var alpha: HEIFBands?
    private let path: String

    /// With `alpha`, rows are rgba8: colour from `bands`, alpha from the alpha image's luma.
    init(bands: HEIFBands, alpha: HEIFBands? = nil, path: String) {
        self.bands = bands
        self.alpha = alpha
        size = Size(width: bands.window.width, height: bands.window.height)
        format = alpha != nil ? .rgba8 : bands.planeCount == 1 ? .gray8 : .rgb8
        self.path = path
    }

    func readRows(startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
                  maxRows: Int) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: bands != nil, path: path)
        guard let bands else { return 0 }
        var written = 0
        while written < count {
            let y = row + written + bands.window.y                  // the coded row (the window starts lower)
            if y >= bands.bandStart[0] + bands.bandRows[0] || bands.bandRows[0] == 0 {
                guard try bands.decodeNextRow() else { break }
                continue
            }
            let out = (buffer + written * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if let alpha {
                while y >= alpha.bandStart[0] + alpha.bandRows[0] || alpha.bandRows[0] == 0 {
                    guard try alpha.decodeNextRow() else { throw ImageError(.truncated, "\(path): the HEIF alpha image ends at row \(y)") }
                }
                convert(bands, row: y, into: out, channels: 4)
                let a = alpha.row(0, y) + (bands.window.x - alpha.window.x)     // the alpha image's window holds the colour's
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
                if channels == 1 { out[x] = g } else { out[channels * x] = g; out[channels * x + 1] = g; out[channels * x + 2] = g }
            }
            return
        }
        let cy = max(bands.bandStart[1], min(y / bands.subsampling.y, bands.bandStart[1] + bands.bandRows[1] - 1))
        let cb = bands.row(1, cy), cr = bands.row(2, cy)
        let (kr, kb) = YCbCrMatrix.coefficients(matrix: bands.matrix)
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
}
