/// A file being written a band of rows at a time (an image far larger than memory, encoded while it is made).
/// The file appears only when ``finish()`` succeeds.
package protocol RowEncoding: AnyObject {
    /// The image size.
    var size: PixelSize { get }
    /// Writes `count` rows (`bytesPerRow` apart) in the format the writer was started with.
    func write(rows: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(ImageError)
    /// Completes the file (every row must have been written).
    func finish() throws(ImageError)
}
