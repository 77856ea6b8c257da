import CShrinkHeif
import ShrinkCore

/// The rows of an image libheif decoded whole (``LibheifContext/decode(alpha:decoder:path:)``): interleaved
/// rgb8 or rgba8, copied out a row at a time. Holds libheif's RGB(A) image (3 or 4 B/px) until finished.
final class LibheifRowDecoder: RowDecoding {
    let size: PixelSize
    let format: PixelFormat
    private(set) var nextRow = 0
    private var image: OpaquePointer?
    private let pixels: UnsafePointer<UInt8>
    private let stride: Int
    private let path: String

    /// Takes `image` (released when finished). Fails with `.corruptData` when its plane is not `size` as
    /// `format`.
    init(image: OpaquePointer, size: PixelSize, format: PixelFormat, path: String) throws(ImageError) {
        self.image = image
        self.size = size
        self.format = format
        self.path = path
        var stride: Int32 = 0
        let width = shrink_heif_image_get_width(image, heif_channel_interleaved)
        let height = shrink_heif_image_get_height(image, heif_channel_interleaved)
        guard let plane = shrink_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            Int(width) == size.width, Int(height) == size.height, Int(stride) >= size.width * format.bytesPerPixel
        else {
            shrink_heif_image_release(image)
            throw ImageError(
                .corruptData, "\(path): libheif decoded \(width)x\(height), not the \(size) its header gives")
        }
        pixels = plane
        self.stride = Int(stride)
    }

    deinit { if let image { shrink_heif_image_release(image) } }

    func readRows(
        startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int,
        maxRows: Int
    ) throws(ImageError) -> Int {
        let count = try rowsToRead(startingAt: row, maxRows: maxRows, isOpen: image != nil, path: path)
        let width = size.width * format.bytesPerPixel
        for i in 0..<count {
            (buffer + i * bytesPerRow).copyMemory(from: pixels + (row + i) * stride, byteCount: width)
        }
        nextRow += count
        return count
    }

    func finish() throws(ImageError) {
        if let image { shrink_heif_image_release(image) }
        image = nil
    }
}
