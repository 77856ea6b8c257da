import ShrinkCore

/// A `grid` item's payload: tiles in rows and columns (from its `dimg` references, row by row) composed into
/// an output of the given size (the tiles may cover more; the rest is cropped).
package struct HEIFGrid: Sendable, Equatable {
    package let rows: Int
    package let columns: Int
    package let outputWidth: Int
    package let outputHeight: Int

    /// Parses a grid payload: version 0, flags (bit 0: 32-bit sizes), rows − 1, columns − 1, output size.
    init(_ data: UnsafeRawBufferPointer, range: Range<Int>, path: String) throws(ImageError) {
        var r = BoxReader(data, range: range, path: path)
        let version = try r.u8("grid version")
        guard version == 0 else { throw ImageError(.unsupportedFeature, "\(path): HEIF grid version \(version)") }
        let flags = try r.u8("grid flags")
        rows = try r.u8("grid rows") + 1
        columns = try r.u8("grid columns") + 1
        let fieldSize = flags & 1 == 0 ? 2 : 4
        outputWidth = try r.uint(size: fieldSize, "grid width")
        outputHeight = try r.uint(size: fieldSize, "grid height")
        guard outputWidth > 0, outputHeight > 0 else {
            throw ImageError(.corruptData, "\(path): HEIF grid of \(outputWidth)x\(outputHeight)")
        }
    }
}
