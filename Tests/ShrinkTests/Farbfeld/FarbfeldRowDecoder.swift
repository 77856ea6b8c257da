import Shrink

/// farbfeld rows, big-endian samples turned to host order, top to bottom.
final class FarbfeldRowDecoder: RowDecoding {
    let size: PixelSize
    let format = PixelFormat.rgba16
    private(set) var nextRow = 0
    private var isOpen = true
    private let bytes: ImageBytes
    private let name: String

    init(bytes: ImageBytes, size: PixelSize, name: String) {
        self.bytes = bytes
        self.size = size
        self.name = name
    }

    func readRows(startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(ImageError) -> Int
    {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: isOpen, path: name)
        let samples = size.width * 4, source = bytes.bytes
        for i in 0..<count {
            let row = buffer.advanced(by: i * bytesPerRow).assumingMemoryBound(to: UInt16.self)
            let from = 16 + (nextRow + i) * samples * 2
            for s in 0..<samples { row[s] = UInt16(source[from + 2 * s]) << 8 | UInt16(source[from + 2 * s + 1]) }
        }
        nextRow += count
        return count
    }

    func finish() throws(ImageError) { isOpen = false }
}
