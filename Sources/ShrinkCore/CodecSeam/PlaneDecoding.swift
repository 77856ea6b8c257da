/// A decode in progress that hands out Y, Cb and Cr planes (no colour conversion), row group by row group,
/// top to bottom. Chroma planes keep the file's subsampling.
public protocol PlaneDecoding: AnyObject {
    /// Each plane's size at the decode scale (Y, Cb, Cr).
    var planeSizes: [PixelSize] { get }
    /// Plane samples per luma sample, across and down (1 for luma, 0.5 for 4:2:0 chroma).
    var factors: [(x: Double, y: Double)] { get }
    /// The next row of each plane.
    var nextRows: [Int] { get }
    /// Decodes the next group and calls `body(plane, row index, row)` for each of its rows, plane by plane,
    /// top to bottom. Returns false at the end of the image.
    func readGroup(_ body: (Int, Int, UnsafePointer<UInt8>) -> Void) throws(ImageError) -> Bool
    /// Stops decoding and releases the decoder's memory.
    func finish() throws(ImageError)
    /// Damage stepped over (see ``RowDecoding/warnings``); read after ``finish()``.
    var warnings: [String] { get }
}
