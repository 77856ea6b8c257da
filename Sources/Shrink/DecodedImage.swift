import ShrinkCore

/// The result of a decode: displayed-orientation pixels and the plan that made them.
public struct DecodedImage: Sendable {
    /// The pixels, orientation already applied.
    public let pixels: PixelBuffer
    /// How they were made (source size, orientation, prescale, output size).
    public let plan: ThumbnailPlan
    /// The peak bytes this decode was predicted to hold before it ran (see
    /// ``ImageSource/predictedPeakBytes(for:options:)``).
    public let predictedPeakBytes: Int
    /// The ICC profile the pixels are in (none after conversion to sRGB, Display P3's, or the source's when
    /// kept) and the source's EXIF block, EXIF orientation already reset to 1 (the pixels are upright).
    /// Encoders embed the ICC profile and drop EXIF unless told otherwise.
    public let metadata: ImageMetadata
    /// The machinery that decoded it (nil when not decoded from a source, e.g. built by hand).
    public let decodePath: DecodePath?
    /// The library that decoded it, as its route names it (`libjpeg-turbo`, `dav1d 1.0.0`…), when known.
    public let decoder: String?
    /// The working memory of the decoder's route (``DecodeRoute/workingBytes``: a coefficient buffer, an
    /// interlaced grid), 0 when rows streamed or when not decoded from a source.
    package let workingBytes: Int
    /// What each thread lent to the decode was predicted to hold (``DecodeRoute/helperBytes``), 0 when none could be.
    package let helperBytes: Int
    /// Damage stepped over while reading the header and decoding (see ``ImageInfo/warnings`` and
    /// ``ThumbnailOptions/strict``), one line each; empty for a clean file.
    public let warnings: [String]
    /// What colour management did (``ThumbnailOptions/color``): nil when the profile was kept as it is.
    public let colorConversion: ColorConversion?

    /// An image of `pixels` made by `plan`, with what its decode reported. Decodes make their own; this is for
    /// tests and fakes (``ThumbnailPlan/init(size:)`` gives a plan for pixels shown as they are).
    public init(
        pixels: PixelBuffer, plan: ThumbnailPlan, metadata: ImageMetadata = ImageMetadata(),
        predictedPeakBytes: Int = 0,
        decodePath: DecodePath? = nil, decoder: String? = nil, warnings: [String] = [],
        colorConversion: ColorConversion? = nil
    ) {
        self.init(
            pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: predictedPeakBytes,
            decodePath: decodePath, decoder: decoder, workingBytes: 0, warnings: warnings,
            colorConversion: colorConversion)
    }

    /// An image with everything a decode reports (the decode stage makes these).
    package init(
        pixels: PixelBuffer, plan: ThumbnailPlan, metadata: ImageMetadata, predictedPeakBytes: Int,
        decodePath: DecodePath?, decoder: String?, workingBytes: Int, helperBytes: Int = 0, warnings: [String],
        colorConversion: ColorConversion?
    ) {
        self.workingBytes = workingBytes
        self.helperBytes = helperBytes
        self.warnings = warnings
        self.colorConversion = colorConversion
        self.pixels = pixels
        self.plan = plan
        self.decodePath = decodePath
        self.decoder = decoder
        self.predictedPeakBytes = predictedPeakBytes
        self.metadata = metadata
    }

    /// The same image carrying `metadata` instead.
    package func with(metadata: ImageMetadata) -> DecodedImage {
        DecodedImage(
            pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: predictedPeakBytes,
            decodePath: decodePath, decoder: decoder, workingBytes: workingBytes, helperBytes: helperBytes,
            warnings: warnings, colorConversion: colorConversion)
    }

    /// The displayed size.
    public var size: PixelSize { pixels.size }

    /// The encoded bytes, written by `encoder` (e.g. `.jpeg(.init(quality: 90))`).
    public func encoded(as encoder: some ImageEncoding) throws(ImageError) -> [UInt8] {
        try encoder.encode(pixels, metadata: metadata)
    }

    /// Encodes and writes the image to `path` (atomically, via a temporary file) with the encoder, default
    /// settings, of the format the path's extension names among `codecs`. Fails with `.invalidArgument` for
    /// an extension no codec writes.
    public func write(to path: String, codecs: CodecRegistry = .standard) throws(ImageError) {
        guard let encoder = codecs.encoder(forPath: path) else {
            let known = codecs.writableFormats.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: ", ")
            throw ImageError(.invalidArgument, "\(path): cannot tell the output format (use \(known))", name: path)
        }
        try write(to: path, as: encoder)
    }

    /// Encodes with `encoder` and writes the image to `path` (atomically, via a temporary file).
    public func write(to path: String, as encoder: some ImageEncoding) throws(ImageError) {
        do {
            try FileOutput.write(try encoded(as: encoder), to: path)
        } catch {
            throw error.naming(path)
        }
    }
}
