import Shrink

/// Writes binary PPM (P6, maximum value 255): RGB samples as they are; gray, YUV and 16-bit pixels are converted
/// to rgb8 first, and alpha is dropped. No metadata is kept (PPM has none). Memory: the output (3 bytes a pixel
/// and a short header), and an rgb8 copy of pixels in another format.
public struct PPMEncoder: ImageEncoding {
    public var format: ImageFormat { .ppm }
    /// RGB rows, unconverted.
    public var preferredPixels: PixelFormatRequest { .exactly(.rgb8) }

    /// An encoder (PPM has no options).
    public init() {}

    public func encode(_ pixels: PixelBuffer, metadata: ImageMetadata) throws(ImageError) -> [UInt8] {
        let rgb = pixels.converted(to: .rgb8)
        var out = Array("P6\n\(rgb.size.width) \(rgb.size.height)\n255\n".utf8)
        out.reserveCapacity(out.count + rgb.bytes.count)
        out += rgb.bytes
        return out
    }
}
