import ShrinkCore

/// A finished, encoded result: the bytes of a file, what they are, and a strong validator.
public struct EncodedImage: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The format written.
    public let format: ImageFormat
    /// The pixel size of the image in ``bytes``.
    public let size: PixelSize
    /// A strong validator of ``bytes``: the first 32 hex digits of their SHA-256 (equal bytes, equal
    /// validator; an ETag can be built on it).
    public let validator: String

    /// Wraps encoded `bytes`; the validator is computed from them: one SHA-256 pass over the bytes, its cost
    /// linear in their count (measured: BENCHMARKS.md, "Figures behind the code").
    public init(bytes: [UInt8], format: ImageFormat, size: PixelSize) {
        self.bytes = bytes
        self.format = format
        self.size = size
        self.validator = String(SHA256.hex(bytes).prefix(32))
    }

    /// The MIME type of ``format`` (`image/jpeg`).
    public var mimeType: String { format.mimeType }
}
