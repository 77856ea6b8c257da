import ShrinkCore

/// The result of a decode: displayed-orientation pixels and the plan that made them.
public struct DecodedImage: Sendable {
    /// The pixels, orientation already applied.
    public let pixels: PixelBuffer
    /// How they were made (prescale, source size, orientation, region).
    public let plan: ThumbnailPlan
    /// The peak bytes this decode was predicted to hold before it ran (see
    /// ``ImageSource/predictedPeakBytes(for:format:)``).
    public let predictedPeakBytes: Int
    /// The source's ICC profile and EXIF block, EXIF orientation already reset to 1 (the pixels are upright).
    /// Encoders keep the ICC profile and drop EXIF unless told otherwise.
    public let metadata: ImageMetadata
    /// The machinery that decoded it (nil when not decoded from a source, e.g. built by hand).
    public let decodePath: DecodePath?
    /// Damage stepped over while reading the header and decoding (see ``ImageInfo/warnings`` and
    /// ``ThumbnailOptions/strict``), one line each; empty for a clean file.
    public let warnings: [String]

    public init(pixels: PixelBuffer, plan: ThumbnailPlan, metadata: ImageMetadata = ImageMetadata(), predictedPeakBytes: Int = 0,
                decodePath: DecodePath? = nil, warnings: [String] = []) {
        self.warnings = warnings
        self.pixels = pixels
        self.plan = plan
        self.decodePath = decodePath
        self.predictedPeakBytes = predictedPeakBytes
        self.metadata = metadata
    }

    /// The displayed size.
    public var size: Size { pixels.size }

    /// The encoded bytes in `format`.
    public func encoded(as format: EncodedFormat) throws(ImageError) -> [UInt8] {
        try format.encode(pixels, metadata: metadata)
    }

    /// Encodes and writes the image to `path` (atomically, via a temporary file), in `format` or, when nil,
    /// the format the path's extension names. Fails with `.invalidArgument` for an unknown extension.
    public func write(to path: String, as format: EncodedFormat? = nil) throws(ImageError) {
        guard let format = format ?? EncodedFormat(pathExtensionOf: path) else {
            throw ImageError(.invalidArgument, "\(path): cannot tell the output format (use .jpg, .jpeg or .png)")
        }
        try FileOutput.write(try encoded(as: format), to: path)
    }
}
