import CShrinkGIF
import ShrinkCore

/// A frame's rows through giflib: its LZW data read through ``GIFInput`` (no copy of the file) with `DGifGetLine`.
/// Memory: giflib's decoder state (its code tables, about 16 KiB).
final class GiflibLines: GIFLineReading {
    private let input: GIFInput
    private let gif: UnsafeMutablePointer<GifFileType>
    private let path: String

    /// Opens giflib on `frame`'s data and reads the frame's start (its minimum code size). Fails as giflib does.
    init(bytes: ImageBytes, frame: GIFFrame, path: String, name: String) throws(ImageError) {
        self.path = path
        input = GIFInput(bytes: bytes, frame: frame)
        var error: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), GIFInput.readFunction, &error) else {
            throw ImageError.gif(error, reachedEnd: input.reachedEnd, path: path, during: "opening the decoder")
        }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE, DGifGetImageDesc(gif) == GIF_OK
        else {
            let failure = ImageError.gif(
                gif.pointee.Error, reachedEnd: input.reachedEnd, path: path, during: "starting \(name)")
            DGifCloseFile(gif, &error)
            throw failure
        }
        self.gif = gif
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
    }

    func read(into line: UnsafeMutablePointer<UInt8>, count: Int, row: String) throws(ImageError) {
        guard DGifGetLine(gif, line, Int32(count)) == GIF_OK else {
            throw ImageError.gif(gif.pointee.Error, reachedEnd: input.reachedEnd, path: path, during: row)
        }
    }
}
