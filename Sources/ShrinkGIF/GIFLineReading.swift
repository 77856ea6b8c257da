import ShrinkCore

/// A frame's LZW data read a row of palette indices at a time, rows in the order the file stores them (an interlaced
/// frame's four passes one after another). Made for a frame by ``GIFLines/reader(bytes:frame:path:name:)``.
protocol GIFLineReading: AnyObject {
    /// Decodes the next `count` indices (one frame row) into `line`; `row` names it in errors. Fails with
    /// `.truncated` when the data ends first, `.corruptData` for an invalid code.
    func read(into line: UnsafeMutablePointer<UInt8>, count: Int, row: String) throws(ImageError)
}
