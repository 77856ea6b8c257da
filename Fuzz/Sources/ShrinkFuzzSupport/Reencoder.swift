import Shrink

/// Encodes a fuzzed decode's result as JPEG or PNG, keeping its ICC profile and EXIF block: hostile
/// metadata read from the input reaches the encoders' marker and chunk writers.
public enum Reencoder {
    /// Encodes `image` as `choice` says: bit 0 off → not at all; bit 1 → PNG (16-bit with bit 2), else
    /// JPEG (progressive with bit 2). Errors are expected and dropped.
    public static func encode(_ image: DecodedImage, choice: UInt8) {
        guard choice & 1 != 0 else { return }
        let format: EncodedFormat
        if choice & 2 != 0 {
            format = .png(PNGEncoder.Options(compressionLevel: 1, bitDepth: choice & 4 != 0 ? 16 : nil, keepEXIF: true))
        } else {
            var options = JPEGEncoder.Options(quality: 75, progressive: choice & 4 != 0)
            options.keepEXIF = true
            format = .jpeg(options)
        }
        _ = try? image.encoded(as: format)
    }
}
