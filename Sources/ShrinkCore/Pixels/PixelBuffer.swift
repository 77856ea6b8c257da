/// Decoded pixels in one contiguous allocation: interleaved rows tightly packed, or planes one after another
/// (see ``PixelFormat/planes(for:)``).
///
/// Costs exactly `format.byteCount(for: size)` bytes of pixel storage (``byteCount``), allocated once,
/// uninitialised, at its final size.
public struct PixelBuffer: Sendable {
    /// The layout of ``bytes``.
    public let format: PixelFormat
    /// Width and height in pixels.
    public let size: PixelSize
    /// The pixel bytes, `bytesPerRow × height` of them.
    public var bytes: [UInt8]

    /// Bytes from one row to the next of an interleaved format (`width × bytesPerPixel`); the luma plane's
    /// for planar formats.
    public var bytesPerRow: Int { size.width * format.bytesPerPixel }
    /// The planes, in buffer order.
    public var planes: [PixelFormat.Plane] { format.planes(for: size) }
    /// Exact bytes held by the pixels.
    public var byteCount: Int { bytes.count }

    /// Wraps existing pixels; `bytes.count` must equal `format.byteCount(for: size)`.
    public init(format: PixelFormat, size: PixelSize, bytes: [UInt8]) {
        precondition(bytes.count == format.byteCount(for: size), "pixel byte count does not match size and format")
        self.format = format
        self.size = size
        self.bytes = bytes
    }

    /// Allocates an image whose every byte is written by `fill` (it receives the uninitialised storage).
    /// When `fill` throws, the storage is dropped and the error rethrown.
    public init(
        format: PixelFormat, size: PixelSize,
        fill: (UnsafeMutableBufferPointer<UInt8>) throws(ImageError) -> Void
    ) throws(ImageError) {
        let count = format.byteCount(for: size)
        var failure: ImageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(ImageError) {
                try fill(buffer)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        self.init(format: format, size: size, bytes: bytes)
    }

    /// The bytes of pixel (x, y) of an interleaved format (of the luma plane for planar formats).
    public func pixel(x: Int, y: Int) -> ArraySlice<UInt8> {
        let start = y * bytesPerRow + x * format.bytesPerPixel
        return bytes[start..<start + format.bytesPerPixel]
    }
}
