import CShrinkJPEG
import ShrinkCore

/// One running libjpeg decode that yields gray8 or rgb8 rows strictly top to bottom.
///
/// Memory: libjpeg's working state (a few rows of the scaled width; the whole coefficient buffer for
/// progressive files), plus, for CMYK files, one strip of CMYK samples converted to RGB as it goes
/// (``DecodeOptions/inkConverter``; inverted when the file has an Adobe marker, as browsers read it). Pages of
/// a mapped input are released behind the decoder.
package final class JPEGRowDecoder: RowDecoding {
    package let size: PixelSize
    package let format: PixelFormat
    package private(set) var nextRow = 0
    package let origin: (x: Int, y: Int)

    private let bytes: ImageBytes // keeps the mapping alive while libjpeg reads it
    private let path: String
    private let cmyk: Bool
    private let inkInverted: Bool
    private let ink: any InkConverting
    private var decoder: OpaquePointer?
    /// libjpeg's warnings (see ``RowDecoding/warnings``), read when the decode ends.
    package private(set) var warnings: [String] = []
    private var cmykStrip: [UInt8] = []

    init(
        bytes: ImageBytes, path: String, scaleDenominator: Int, options: DecodeOptions, gray: Bool, cmyk: Bool,
        inkInverted: Bool, window: FractionalRect? = nil, maxScans: Int
    ) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.cmyk = cmyk
        self.inkInverted = inkInverted
        ink = options.inkConverter ?? NaiveInk()
        let d = try openJPEGDecoder(bytes, path: path, maxScans: maxScans)
        decoder = d
        var status: Int32
        var w: Int32 = 0, h: Int32 = 0, c: Int32 = 0
        status = sj_start(
            d, Int32(scaleDenominator), gray ? 1 : 0, cmyk ? 1 : 0, options.memoryLimit,
            options.fast ? 1 : 0, options.strict ? 1 : 0, &w, &h, &c)
        guard status == Int32(SJ_OK.rawValue) else {
            let error = ImageError.jpeg(status, decoder: d, path: path, during: "starting the decode")
            sj_destroy(d)
            decoder = nil
            throw error
        }
        format = gray ? .gray8 : .rgb8
        if let window {
            // libjpeg widens the columns to iMCU boundaries and tells us where they start; skipped rows are
            // entropy-decoded only.
            let top = max(0, min(Int(h) - 1, Int(window.y.rounded(.down))))
            let left = max(0, Int(window.x.rounded(.down)))
            var x = UInt32(min(left, Int(w) - 1))
            var width = UInt32(max(1, min(Int(w), Int((window.x + window.width).rounded(.up))) - Int(x)))
            status = sj_window(d, &x, &width, UInt32(top))
            guard status == Int32(SJ_OK.rawValue) else {
                let error = ImageError.jpeg(status, decoder: d, path: path, during: "skipping to the region")
                sj_destroy(d)
                decoder = nil
                throw error
            }
            size = PixelSize(width: Int(width), height: Int(h) - top)
            origin = (Int(x), top)
        } else {
            size = PixelSize(width: Int(w), height: Int(h))
            origin = (0, 0)
        }
        let expected = gray ? 1 : cmyk ? 4 : 3
        guard Int(c) == expected else {
            sj_destroy(d)
            decoder = nil
            throw ImageError(.unsupportedFeature, "\(path): JPEG decodes to \(c) components, expected \(expected)")
        }
    }

    deinit {
        if let decoder { sj_destroy(decoder) }
    }

    package func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: decoder != nil, path: path)
        guard count > 0, let decoder else { return 0 }
        var got: Int32 = 0
        let status: Int32
        if cmyk {
            let stride = size.width * 4
            if cmykStrip.count < stride * count { cmykStrip = [UInt8](repeating: 0, count: stride * count) }
            status = cmykStrip.withUnsafeMutableBufferPointer {
                sj_read_rows(decoder, $0.baseAddress, stride, Int32(count), &got)
            }
            let (width, rgb) = (size.width, buffer.assumingMemoryBound(to: UInt8.self))
            cmykStrip.withUnsafeBufferPointer { src in
                for y in 0..<Int(got) {
                    ink.convert(
                        src.baseAddress! + y * stride, inverted: inkInverted, into: rgb + y * bytesPerRow, count: width)
                }
            }
        } else {
            status = sj_read_rows(decoder, buffer.assumingMemoryBound(to: UInt8.self), bytesPerRow, Int32(count), &got)
        }
        guard status == Int32(SJ_OK.rawValue) else {
            throw ImageError.jpeg(status, decoder: decoder, path: path, during: "decoding row \(nextRow + Int(got))")
        }
        guard got > 0 else {
            throw ImageError(.truncated, "\(path): JPEG decoder produced no rows at row \(nextRow)")
        }
        nextRow += Int(got)
        return Int(got)
    }

    package func finish() throws(ImageError) {
        guard let d = decoder else { return }
        decoder = nil
        let status = sj_finish(d)
        warnings = jpegWarnings(d)
        let error: ImageError? =
            status == Int32(SJ_OK.rawValue) || nextRow < size.height
            ? nil : ImageError.jpeg(status, decoder: d, path: path, during: "finishing the image")
        sj_destroy(d)
        if let error { throw error }
    }
}
