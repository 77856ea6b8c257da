import ShrinkCore

/// Chooses who decodes a frame's LZW data: giflib for the minimum code sizes it takes (1 to 8, every GIF a usual
/// encoder writes), Shrink's own decoder (``GIFLZWLines``) for 9 to 11, which the format allows (codes stay within
/// 12 bits) and Pillow and libvips decode but giflib refuses. A size of 12 or more leaves no room for a code table
/// within 12-bit codes: `.corruptData` (libvips refuses it too). Size 0 is the callers' (its pixels read as index 0).
enum GIFLines {
    /// The reader of `frame`'s data in `bytes`; `name` ("the first frame", "frame 3") names the frame in errors.
    static func reader(bytes: ImageBytes, frame: GIFFrame, path: String, name: String) throws(ImageError)
        -> any GIFLineReading
    {
        switch frame.lzwMinimumCodeSize {
        case 1...8: return try GiflibLines(bytes: bytes, frame: frame, path: path, name: name)
        case 9...11: return GIFLZWLines(bytes: bytes, frame: frame, path: path)
        default:
            throw ImageError(
                .corruptData,
                "\(path): invalid GIF LZW minimum code size \(frame.lzwMinimumCodeSize) in \(name) (codes are at most 12 bits)"
            )
        }
    }
}
