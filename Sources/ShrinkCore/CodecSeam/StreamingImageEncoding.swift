/// An encoder that can also write a file band by band (``RowEncoding``): what a contact sheet of hundreds of
/// photos needs, since the whole sheet never exists in memory.
package protocol StreamingImageEncoding: ImageEncoding {
    /// Starts writing a `size` image of `format` rows (rgb8 or gray8, or yuv420 planes) to `path`. Memory: the encoder's state
    /// and a few rows, whatever the height.
    func startWriting(to path: String, size: PixelSize, format: PixelFormat) throws(ImageError) -> any RowEncoding
}
