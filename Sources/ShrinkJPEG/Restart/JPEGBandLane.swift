import CShrinkJPEG
import ShrinkCore

/// What one thread decodes restart bands with (``JPEGRestartBands``): a libjpeg decoder over the whole file, started
/// again for each band, and its own copy of the headers, patched to the band's height.
///
/// Memory: libjpeg's state at the decode's scale (its tables and one row group of planes), as
/// ``JPEGDecoder/libjpegStateBytes(scaleDenominator:)`` counts it, and the headers. The lane releases none of the
/// mapped input's pages it reads (its owner does, behind every band).
final class JPEGBandLane {
    /// How bands are decoded: the scale and ``DecodeOptions``' settings.
    struct Settings {
        let scaleDenominator: Int
        let memoryLimit: Int
        let fast: Bool
        let strict: Bool
    }

    private let decoder: OpaquePointer
    /// The headers libjpeg reads first, patched to the band's height (read by libjpeg while a band starts).
    private let header: UnsafeMutableBufferPointer<UInt8>
    private let layout: JPEGRestartLayout
    /// libjpeg's warnings on the bands this lane has decoded since they were last taken.
    private(set) var warnings: [String] = []
    /// Each plane's rows of the band decoded last.
    private(set) var rows = [0, 0, 0]
    /// libjpeg's "data ran out at a marker" state when the band decoded last ended (after the restart that ends it).
    private(set) var endedInsufficient = false

    /// A lane over `bytes`, the file `layout` was read from; nil when libjpeg's decoder cannot be made.
    init?(bytes: ImageBytes, layout: JPEGRestartLayout, maxScans: Int) {
        guard
            let d = sj_create(
                bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                0, Int32(clamping: maxScans))
        else { return nil }
        decoder = d
        header = .allocate(capacity: layout.header.count)
        _ = header.initialize(from: layout.header)
        self.layout = layout
    }

    deinit {
        sj_destroy(decoder)
        header.deallocate()
    }

    /// Each plane's size over the whole image at `settings`' scale, its rows in one of libjpeg's row groups, and its
    /// samples per luma sample, across and down (libjpeg started on the headers as one band, no data read).
    func planes(_ settings: Settings, path: String) throws(ImageError) -> (
        sizes: [PixelSize], perGroup: [Int], factors: [(x: Double, y: Double)]
    ) {
        try start(
            height: layout.imageHeight, at: layout.dataStart, firstRestart: 0, insufficient: false,
            headerWarnings: false, settings, path)
    }

    /// Decodes band `b`, whose data starts at `offset`, into `planes` (rows `strides[p]` bytes apart, at most
    /// `capacity[p]` rows); ``rows`` then says how many rows of each plane it filled. A band then reads the restart
    /// marker that ends it, the last one on to the file's EOI, so damage there is found as one decoder finds it.
    func decode(
        band b: Int, offset: Int, insufficient: Bool, into planes: [UnsafeMutablePointer<UInt8>], strides: [Int],
        capacity: [Int], _ settings: Settings, path: String
    ) throws(ImageError) {
        rows = [0, 0, 0]
        endedInsufficient = false
        let (sizes, perGroup, _) = try start(
            height: layout.height(ofBand: b), at: offset, firstRestart: b * layout.intervalsPerBand,
            insufficient: insufficient, headerWarnings: b == 0, settings, path)
        let firstRow = b * layout.bandHeight / settings.scaleDenominator
        guard (0..<3).allSatisfy({ sizes[$0].width <= strides[$0] && sizes[$0].height <= capacity[$0] }) else {
            throw ImageError(.corruptData, "\(path): a restart band decodes larger than its place")
        }
        var done = [0, 0, 0]
        while done[0] < sizes[0].height {
            try JPEGPlaneDecoder.readRawGroup(
                decoder, sizes: sizes, rowsPerGroup: perGroup, next: &done, firstRow: firstRow, path: path
            ) { p, y, row in
                (planes[p] + y * strides[p]).update(from: row, count: sizes[p].width)
            }
        }
        rows = done
        let last = b == layout.bands - 1
        var ended: Int32 = 0
        let status = last ? sj_finish(decoder) : sj_end_band(decoder, &ended)
        endedInsufficient = ended != 0
        guard status == Int32(SJ_OK.rawValue) else {
            throw ImageError.jpeg(
                status, decoder: decoder, path: path,
                during: last ? "finishing the image" : "decoding row \(firstRow + done[0])")
        }
        warnings += jpegWarnings(decoder)
    }

    /// Takes the warnings gathered so far.
    func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    /// Starts libjpeg on a band `height` rows tall whose data starts at `offset`: each plane's size, rows a group and
    /// samples per luma sample. The header's own warnings are the first band's alone (`headerWarnings`).
    private func start(
        height: Int, at offset: Int, firstRestart: Int, insufficient: Bool, headerWarnings: Bool, _ settings: Settings,
        _ path: String
    ) throws(ImageError) -> (sizes: [PixelSize], perGroup: [Int], factors: [(x: Double, y: Double)]) {
        header[layout.heightOffset] = UInt8(height >> 8)
        header[layout.heightOffset + 1] = UInt8(height & 255)
        var widths = [Int32](repeating: 0, count: 3), heights = widths, rows = widths
        var fx = [Double](repeating: 0, count: 3), fy = fx
        let status = sj_start_band(
            decoder, header.baseAddress, header.count, offset, Int32(firstRestart & 7), insufficient ? 1 : 0,
            headerWarnings ? 1 : 0,
            Int32(settings.scaleDenominator), settings.memoryLimit, settings.fast ? 1 : 0, settings.strict ? 1 : 0,
            &widths, &heights, &rows, &fx, &fy)
        guard status == Int32(SJ_OK.rawValue) else {
            throw ImageError.jpeg(status, decoder: decoder, path: path, during: "starting a restart band")
        }
        return (
            (0..<3).map { PixelSize(width: Int(widths[$0]), height: Int(heights[$0])) }, rows.map(Int.init),
            (0..<3).map { (fx[$0], fy[$0]) }
        )
    }
}
