import ShrinkCore

/// A HEIC or AVIF image's Y, Cb, Cr planes (of its window: the clean aperture, or a crop's tiles), a row of tiles at a time (``HEIFBands``), widened (``VideoRange``) to the
/// full range of Shrink's yuv420 when the file codes limited range (BT.601 matrices only: the planes are
/// handed out as they are). Costs a band and one row.
final class HEIFPlaneDecoder: PlaneDecoding {
    let planeSizes: [PixelSize]
    let factors: [(x: Double, y: Double)]
    private(set) var nextRows: [Int]
    let warnings: [String] = []
    private var bands: HEIFBands?
    private var row: [UInt8]

    init(bands: HEIFBands) {
        self.bands = bands
        let size = PixelSize(width: bands.window.width, height: bands.window.height), s = bands.subsampling
        let chroma = PixelSize(width: (size.width + s.x - 1) / s.x, height: (size.height + s.y - 1) / s.y)
        planeSizes = [size, chroma, chroma]
        let fx = 1 / Double(bands.subsampling.x), fy = 1 / Double(bands.subsampling.y)
        factors = [(1, 1), (fx, fy), (fx, fy)]
        nextRows = [0, 0, 0]
        row = [UInt8](repeating: 0, count: max(1, bands.window.width))
    }

    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard let bands else { throw ImageError(.invalidArgument, "HEIF planes: decoder already finished") }
        guard try bands.decodeNextRow() else { return false }
        for p in 0..<3 {
            // The window's part of the band (its origin is even on subsampled axes: see the route).
            let width = planeSizes[p].width
            let y0 = p == 0 ? bands.window.y : bands.window.y / bands.subsampling.y
            row.withUnsafeMutableBufferPointer { out in
                for y in 0..<bands.bandRows[p] {
                    let shown = bands.bandStart[p] + y - y0
                    guard shown >= 0 && shown < planeSizes[p].height else { continue }
                    let source = bands.row(p, bands.bandStart[p] + y)
                    if bands.fullRange {
                        body(p, shown, source)
                    } else {
                        VideoRange.widen(source, count: width, chroma: p > 0, into: out.baseAddress!)
                        body(p, shown, UnsafePointer(out.baseAddress!))
                    }
                }
            }
            nextRows[p] = min(planeSizes[p].height, max(0, bands.bandStart[p] + bands.bandRows[p] - y0))
        }
        return true
    }

    func finish() throws(ImageError) { bands = nil }
}
