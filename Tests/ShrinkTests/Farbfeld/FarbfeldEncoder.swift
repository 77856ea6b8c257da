import Shrink

/// Writes farbfeld from any pixels (converted to rgba16 first).
struct FarbfeldEncoder: ImageEncoding {
    var format: ImageFormat { .farbfeld }
    var preferredPixels: PixelFormatRequest { .exactly(.rgba16) }

    func encode(_ pixels: PixelBuffer, metadata: ImageMetadata) throws(ImageError) -> [UInt8] {
        let rgba = pixels.converted(to: .rgba16)
        var out = FarbfeldDecoder.magic
        for v in [rgba.size.width, rgba.size.height] {
            out += (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) }
        }
        rgba.bytes.withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: UInt16.self) { out += [UInt8(sample >> 8), UInt8(sample & 0xFF)] }
        }
        return out
    }
}
