/// A file being written a band of rows at a time (an image far larger than memory, encoded while it is made).
/// The file appears only when ``finish()`` succeeds.
package protocol RowEncoding: AnyObject {
    /// The image size.
    var size: PixelSize { get }
    /// Writes `count` rows (`bytesPerRow` apart) in the format the writer was started with.
    func write(rows: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(ImageError)
    /// Writes `count` rows of a writer started with yuv420: luma rows `lumaStride` apart, and the
    /// (count + 1) / 2 rows of each chroma plane that go with them, `chromaStride` apart. Every call but the
    /// last passes an even count, so each band starts on an even row.
    func write(
        luma: UnsafePointer<UInt8>, lumaStride: Int, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
        chromaStride: Int, count: Int) throws(ImageError)
    /// Completes the file (every row must have been written).
    func finish() throws(ImageError)
}
