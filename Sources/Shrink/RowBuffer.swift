import ShrinkCore

/// One row of scratch space for converting rows to the output format; a pass-through when the formats match.
final class RowBuffer {
    private let format: PixelFormat
    private let output: PixelFormat
    private let width: Int
    private let storage: UnsafeMutablePointer<UInt8>

    init(format: PixelFormat, output: PixelFormat, width: Int) {
        self.format = format
        self.output = output
        self.width = width
        storage = .allocate(capacity: format == output ? 1 : width * output.bytesPerPixel)
    }

    deinit { storage.deallocate() }

    /// `row` in the output format (the same pointer when no conversion is needed).
    func convert(_ row: UnsafeRawPointer) -> UnsafePointer<UInt8> {
        guard format != output else { return row.assumingMemoryBound(to: UInt8.self) }
        RowConverter.convert(row, from: format, to: storage, as: output, width: width)
        return UnsafePointer(storage)
    }
}
