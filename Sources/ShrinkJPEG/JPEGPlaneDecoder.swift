import CShrinkJPEG
import ShrinkCore

/// One running libjpeg decode that yields the Y, Cb and Cr planes at the decode scale with no colour
/// conversion, row group by row group, top to bottom. For 4:2:0 files the chroma planes stay at half the
/// scaled size (libjpeg would otherwise widen them to luma size while scaling).
///
/// Memory: libjpeg's working state plus one row group per plane (2 × scale rows of luma); the input's
/// pages are released behind the decoder as for row decoding.
package final class JPEGPlaneDecoder: PlaneDecoding {
    /// Each plane's size at the decode scale.
    package let planeSizes: [PixelSize]
    /// Plane samples per luma sample, across and down (1 for luma, 0.5 for 4:2:0 chroma).
    package let factors: [(x: Double, y: Double)]
    /// Rows of each plane one group holds.
    package let rowsPerGroup: [Int]
    /// The next row of each plane the next group starts at.
    package private(set) var nextRows = [0, 0, 0]

    private let bytes: ImageBytes
    private let path: String
    private var decoder: OpaquePointer?
    /// libjpeg's warnings (see ``RowDecoding/warnings``), read when the decode ends.
    package private(set) var warnings: [String] = []

    init(bytes: ImageBytes, path: String, scaleDenominator: Int, options: DecodeOptions, maxScans: Int)
        throws(ImageError)
    {
        self.bytes = bytes
        self.path = path
        let d = try openJPEGDecoder(bytes, path: path, maxScans: maxScans)
        decoder = d
        var widths = [Int32](repeating: 0, count: 3), heights = widths, rows = widths
        var fx = [Double](repeating: 0, count: 3), fy = fx
        let status = sj_start_raw(
            d, Int32(scaleDenominator), options.memoryLimit, options.fast ? 1 : 0, options.strict ? 1 : 0,
            &widths, &heights, &rows, &fx, &fy)
        guard status == Int32(SJ_OK.rawValue) else {
            let error = ImageError.jpeg(status, decoder: d, path: path, during: "starting the planar decode")
            sj_destroy(d)
            decoder = nil
            throw error
        }
        planeSizes = (0..<3).map { PixelSize(width: Int(widths[$0]), height: Int(heights[$0])) }
        rowsPerGroup = rows.map(Int.init)
        factors = (0..<3).map { (fx[$0], fy[$0]) }
    }

    deinit {
        if let decoder { sj_destroy(decoder) }
    }

    /// Decodes the next row group and calls `body(plane, row index, row)` for each of its valid rows, plane
    /// by plane, top to bottom. Returns false at the end of the image.
    package func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool {
        guard let decoder else { throw ImageError(.invalidArgument, "\(path): decoder already finished") }
        guard nextRows[0] < planeSizes[0].height else { return false }
        try Self.readRawGroup(
            decoder, sizes: planeSizes, rowsPerGroup: rowsPerGroup, next: &nextRows, firstRow: 0, path: path, body)
        return true
    }

    /// Decodes the next row group of a libjpeg planar decode (`sj_start_raw`, `sj_start_band`) of planes of `sizes`,
    /// `rowsPerGroup` rows of each a group, and calls `body(plane, row index, row)` for each of its valid rows, plane by
    /// plane; `next` holds each plane's next row and is advanced. Errors name the image's row `firstRow + next[0]`.
    static func readRawGroup(
        _ decoder: OpaquePointer, sizes: [PixelSize], rowsPerGroup: [Int], next: inout [Int], firstRow: Int,
        path: String, _ body: (Int, Int, UnsafePointer<UInt8>) -> Void
    ) throws(ImageError) {
        var luma: Int32 = 0
        let status = sj_read_raw(decoder, &luma)
        guard status == Int32(SJ_OK.rawValue) else {
            throw ImageError.jpeg(status, decoder: decoder, path: path, during: "decoding row \(firstRow + next[0])")
        }
        guard luma > 0 else {
            throw ImageError(.truncated, "\(path): JPEG decoder produced no rows at row \(firstRow + next[0])")
        }
        for plane in 0..<3 {
            let valid = plane == 0 ? Int(luma) : min(rowsPerGroup[plane], sizes[plane].height - next[plane])
            for r in 0..<max(valid, 0) {
                body(plane, next[plane] + r, sj_raw_row(decoder, Int32(plane), Int32(r)))
            }
            next[plane] += max(valid, 0)
        }
    }

    /// Stops decoding and releases libjpeg's memory.
    package func finish() throws(ImageError) {
        guard let d = decoder else { return }
        decoder = nil
        let status = sj_finish(d)
        warnings = jpegWarnings(d)
        let complete = nextRows[0] >= planeSizes[0].height
        let error: ImageError? =
            status == Int32(SJ_OK.rawValue) || !complete
            ? nil : ImageError.jpeg(status, decoder: d, path: path, during: "finishing the image")
        sj_destroy(d)
        if let error { throw error }
    }
}
