import Shrink

/// Rows of a binary PPM, copied from the file's bytes top to bottom, samples scaled to 0–255 when the file's
/// maximum value is below 255.
final class PPMRowDecoder: RowDecoding {
    let format = PixelFormat.rgb8
    private(set) var nextRow = 0
    private var isOpen = true
    private let file: PPMFile
    private let monitor: DecodeMonitor?

    init(_ file: PPMFile, monitor: DecodeMonitor?) {
        self.file = file
        self.monitor = monitor
    }

    var size: PixelSize { file.header.size }

    func readRows(startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(ImageError) -> Int
    {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: isOpen, path: file.name)
        let rowBytes = size.width * 3
        let header = file.header, source = file.bytes.bytes
        for i in 0..<count {
            let from = header.dataOffset + (row + i) * rowBytes
            let to = buffer.advanced(by: i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            if header.maxValue == 255 {
                to.update(
                    from: source.baseAddress!.advanced(by: from).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            } else {
                let maxValue = header.maxValue
                for x in 0..<rowBytes {
                    to[x] = UInt8((min(Int(source[from + x]), maxValue) * 255 + maxValue / 2) / maxValue)
                }
            }
        }
        nextRow += count
        try monitor?.checkpoint(row: nextRow)
        return count
    }

    func finish() throws(ImageError) { isOpen = false }
}
