import CShrinkJXL
import ShrinkCore

/// One decode of a JPEG XL frame that yields rows top to bottom: libjxl decodes the whole frame into an image buffer
/// at the first read (it renders no earlier row sooner); rows are then copied out, or at 1/d summed from d rows of
/// it (``BoxReducer``).
final class JXLRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    let warnings: [String] = []

    private let decoder: JXLDecoder
    private let reducer: BoxReducer?
    /// The stored image, once decoded.
    private var image: [UInt8] = []
    private let rowBytes: Int
    private var finished = false

    init(decoder: JXLDecoder, format: PixelFormat, reduction d: Int) {
        self.decoder = decoder
        self.format = format
        let source = decoder.info.size
        size = BoxReducer.reducedSize(source, d: d)
        rowBytes = source.width * format.bytesPerPixel
        reducer = d > 1 ? BoxReducer(source: source, d: d, channels: format.channels, bandRows: d) : nil
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: !finished, path: decoder.path)
        if image.isEmpty && count > 0 { try decode() }
        let height = decoder.info.size.height
        image.withUnsafeBytes { image in
            for i in 0..<count {
                let r = nextRow + i, out = buffer + i * bytesPerRow
                guard let reducer else {
                    out.copyMemory(from: image.baseAddress! + r * rowBytes, byteCount: rowBytes)
                    continue
                }
                for y in r * reducer.d..<min(height, (r + 1) * reducer.d) {
                    reducer.add(
                        image.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * rowBytes, row: y, column: 0,
                        count: reducer.source.width)
                }
                reducer.take(row: r, into: out.assumingMemoryBound(to: UInt8.self))
            }
        }
        nextRow += count
        if nextRow == size.height { image = [] }
        return count
    }

    func finish() throws(ImageError) {
        finished = true
        image = []
    }

    /// Runs libjxl over the file once, into the image.
    private func decode() throws(ImageError) {
        image = [UInt8](repeating: 0, count: rowBytes * decoder.info.size.height)
        var message = [CChar](repeating: 0, count: 256)
        let result = image.withUnsafeMutableBytes {
            cshrink_jxl_decode(
                decoder.bytes.bytes.baseAddress, decoder.bytes.count, UInt32(format.channels),
                format == .rgba16 ? 1 : 0, $0.baseAddress, $0.count, &message, message.count)
        }
        guard result == 1 else {
            image = []
            throw ImageError(
                .corruptData, "\(decoder.path): the JPEG XL image cannot be decoded", cause: String(cBuffer: message))
        }
    }
}
