import ShrinkCore

/// One decode of a BMP (or an icon's BMP entry) that yields rows top to bottom at full size: uncompressed rows read
/// straight from the bytes wherever they are stored (a bottom-up file's last row first, its mapped pages released
/// behind the reads), run-length rows decoded from their indexed starts. Holds one row of indices at most, and for
/// RLE the row index.
final class BMPRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    private(set) var warnings: [String] = []

    private let decoder: BMPDecoder
    private let unpacker: BMPRowUnpacker
    private let runs: BMPRunLengthIndex?
    private var indices: [UInt8]
    private var isOpen = true
    /// The part of the pixel data not yet released (bottom-up files read from the end backwards).
    private var unreleased: Range<Int>

    init(decoder: BMPDecoder) {
        self.decoder = decoder
        let header = decoder.header
        size = header.size
        format = decoder.rowFormat
        unpacker = BMPRowUnpacker(header: header, format: format, appliesMask: decoder.appliesIconMask)
        let bytes = decoder.bytes.bytes
        if header.compression == .none {
            runs = nil
            indices = []
        } else {
            let index = BMPRunLengthIndex(bytes, header: header)
            runs = index
            indices = [UInt8](repeating: 0, count: header.size.width)
            if let warning = index.warning { warnings.append(warning) }
            // The runs were read once to index them; they are read again row by row.
            decoder.bytes.releaseResidentPages(in: header.pixelOffset..<bytes.count)
        }
        let end = header.compression == .none ? header.pixelOffset + header.stride * header.size.height : 0
        unreleased = header.pixelOffset..<max(header.pixelOffset, end)
    }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: isOpen, path: decoder.path)
        let header = decoder.header
        let bytes = decoder.bytes.bytes
        for i in 0..<count {
            let y = nextRow + i
            let stored = header.isTopDown ? y : header.size.height - 1 - y
            let out = (buffer + i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if let runs {
                indices.withUnsafeMutableBufferPointer { row in
                    runs.decodeRow(bytes, header: header, row: stored, into: row)
                    unpacker.unpack(UnsafeRawPointer(row.baseAddress!), indices: true, into: out)
                }
            } else {
                let at = header.pixelOffset + stored * header.stride
                unpacker.unpack(bytes.baseAddress! + at, indices: false, into: out)
                release(upTo: at, rowEnd: at + header.stride)
            }
            if decoder.appliesIconMask, let mask = header.maskOffset {
                unpacker.applyMask(
                    bytes.baseAddress! + mask + (header.size.height - 1 - y) * header.maskStride, to: out)
            }
        }
        nextRow += count
        if nextRow == size.height, decoder.bytes.wasTruncatedWhileMapped {
            throw ImageError(.truncated, "\(decoder.path): the file was truncated while it was read")
        }
        return count
    }

    func finish() throws(ImageError) {
        isOpen = false
        indices = []
    }

    /// Releases the mapped pages of rows already read once 256 KiB of them gather (a no-op for bytes in memory).
    private func release(upTo at: Int, rowEnd: Int) {
        let step = 256 << 10
        if decoder.header.isTopDown {
            if rowEnd - unreleased.lowerBound >= step {
                decoder.bytes.releaseResidentPages(in: unreleased.lowerBound..<rowEnd)
                unreleased = rowEnd..<unreleased.upperBound
            }
        } else if unreleased.upperBound - at >= step {
            decoder.bytes.releaseResidentPages(in: at..<unreleased.upperBound)
            unreleased = unreleased.lowerBound..<at
        }
    }
}
