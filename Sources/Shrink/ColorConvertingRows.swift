import ShrinkCore
import ShrinkColor

/// Rows of another decoder with a colour transform applied as they are read (``ColorRowTransform``): the
/// conversion before the resampler that steep profiles need. Holds nothing of its own.
final class ColorConvertingRows: RowDecoding {
    private let rows: any RowDecoding
    let transform: ColorRowTransform
    /// Time spent transforming so far.
    private(set) var elapsed: Duration = .zero

    init(_ rows: any RowDecoding, transform: ColorRowTransform) {
        self.rows = rows
        self.transform = transform
    }

    var size: PixelSize { rows.size }
    var origin: (x: Int, y: Int) { rows.origin }
    var format: PixelFormat { rows.format }
    var nextRow: Int { rows.nextRow }
    var warnings: [String] { rows.warnings }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rows.readRows(startingAt: row, into: buffer, bytesPerRow: bytesPerRow, maxRows: maxRows)
        let clock = ContinuousClock(), start = clock.now
        for i in 0..<count { transform.apply(buffer + i * bytesPerRow, count: size.width) }
        elapsed += clock.now - start
        return count
    }

    func finish() throws(ImageError) { try rows.finish() }
}
