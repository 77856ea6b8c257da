/// A decode in progress that hands out rows strictly top to bottom.
///
/// Decoders never seek backwards: asking for any row but ``nextRow`` is an error (`.invalidArgument`),
/// not a silent re-decode. Rows are interleaved 8-bit samples in ``format``.
public protocol RowDecoding: AnyObject {
    /// The size of the image being produced (after any decode-time prescale; a window's size when the
    /// decoder produces only part of the image).
    var size: PixelSize { get }
    /// Where row 0, column 0 of what this decoder produces sits in the whole (prescaled) image: (0, 0)
    /// unless it decodes a window.
    var origin: (x: Int, y: Int) { get }
    /// The layout of each row (gray8 or rgb8 today).
    var format: PixelFormat { get }
    /// The index of the next row ``readRows(startingAt:into:bytesPerRow:maxRows:)`` will produce.
    var nextRow: Int { get }

    /// Decodes up to `maxRows` rows starting at `row`, which must equal ``nextRow``, into `buffer`
    /// (`bytesPerRow` apart). Returns how many rows were written (0 only at the end of the image).
    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int

    /// Stops decoding and releases the decoder's working memory; rows not read are never decoded.
    func finish() throws(ImageError)

    /// Damage the decoder stepped over so far (corrupt entropy data, missing rows filled in, a bad
    /// checksum), one line each, without the file name; empty for a clean file. Read it after ``finish()``.
    var warnings: [String] { get }
}

extension RowDecoding {
    /// The top left corner, by default.
    public var origin: (x: Int, y: Int) { (0, 0) }
    /// None, by default.
    public var warnings: [String] { [] }

    /// How many rows a call asking for `maxRows` at `row` may produce, after checking the order: `row` must
    /// be ``nextRow`` and the decoder still open. Fails with `.invalidArgument` naming `path`.
    public func rowsToRead(startingAt row: Int, maxRows: Int, isOpen: Bool, path: String) throws(ImageError) -> Int {
        guard isOpen else { throw ImageError(.invalidArgument, "\(path): decoder already finished") }
        guard row == nextRow else {
            throw ImageError(
                .invalidArgument, "\(path): rows are decoded top to bottom; asked for row \(row), next is \(nextRow)")
        }
        return max(0, min(maxRows, size.height - nextRow))
    }
}
