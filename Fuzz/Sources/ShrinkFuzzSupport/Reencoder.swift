import Shrink

/// Encodes a fuzzed decode's result as JPEG, PNG or WebP, keeping its ICC profile and EXIF block: hostile
/// metadata read from the input reaches the encoders' marker and chunk writers.
public enum Reencoder {
    /// Encodes `image` as `choice` says: bit 0 off → not at all; bit 3 → WebP (lossless with bit 2); bit 1 →
    /// PNG (16-bit with bit 2); else JPEG (progressive with bit 2, optimised Huffman tables with bit 4). Errors
    /// are expected and dropped.
    public static func encode(_ image: DecodedImage, choice: UInt8) {
        guard choice & 1 != 0 else { return }
        let encoder: any ImageEncoding
        if choice & 8 != 0 {
            encoder = WebPEncoder(options: .init(quality: 75, lossless: choice & 4 != 0, method: 0, keepEXIF: true))
        } else if choice & 2 != 0 {
            encoder = PNGEncoder(
                options: .init(compressionLevel: 1, bitDepth: choice & 4 != 0 ? 16 : nil, keepEXIF: true))
        } else {
            var options = JPEGEncoder.Options(
                quality: 75, progressive: choice & 4 != 0, optimizeHuffmanTables: choice & 16 != 0)
            options.keepEXIF = true
            encoder = JPEGEncoder(options: options)
        }
        _ = try? image.encoded(as: encoder)
    }
}
