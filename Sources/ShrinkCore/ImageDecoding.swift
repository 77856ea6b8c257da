/// A codec's view of one encoded image: its header, what it can do, and how to start a decode.
///
/// Codecs expose capabilities (the prescales they support, the working memory they need); only the planner
/// in `Shrink` decides how to combine prescale, resampling and format.
public protocol ImageDecoding: Sendable {
    /// Everything the header says.
    var info: ImageInfo { get }
    /// The decode-time scale denominators supported (`[1]` when the codec cannot scale while decoding).
    var scaleDenominators: [Int] { get }
    /// The size of a decode at 1/`denominator`.
    func scaledSize(denominator: Int) -> Size
    /// Working memory a decode at 1/`scaleDenominator` needs beyond a few rows, predicted from the header:
    /// a progressive JPEG's coefficient buffer (whatever the scale), an interlaced PNG's pass grid.
    func workingBytes(scaleDenominator: Int) -> Int
    /// The codec library's own state during a decode at 1/`scaleDenominator`: tables, row buffers, the
    /// decompressor's window. An estimate calibrated against measured heap growth; 0 when unknown.
    func stateBytes(scaleDenominator: Int) -> Int
    /// The 8-bit format results are delivered in (gray8, rgb8 or rgba8); decoded rows may be richer
    /// (16-bit, or gray carried as RGBA) and are converted after reduction.
    var outputFormat: PixelFormat { get }
    /// The ICC profile and EXIF block as stored (copied out; a few KiB normally).
    func metadata() throws(ImageError) -> ImageMetadata
    /// Starts a decode at 1/`scaleDenominator`; rows come out top to bottom.
    func startDecoding(scaleDenominator: Int, options: DecodeOptions) throws(ImageError) -> any RowDecoding
    /// Starts a decode of (at least) `window`, in prescaled pixels: a codec that can skip rows and columns
    /// outside it returns a decoder whose ``RowDecoding/origin`` says where its rows start. The default
    /// decodes everything.
    func startDecoding(scaleDenominator: Int, options: DecodeOptions, window: Rect) throws(ImageError) -> any RowDecoding
}

extension ImageDecoding {
    public func stateBytes(scaleDenominator: Int) -> Int { 0 }

    public func startDecoding(scaleDenominator: Int, options: DecodeOptions, window: Rect) throws(ImageError) -> any RowDecoding {
        try startDecoding(scaleDenominator: scaleDenominator, options: options)
    }
}

/// How a codec runs a decode.
public struct DecodeOptions: Sendable {
    /// Faster, slightly softer decoding (JPEG: integer IDCT, plain upsampling). `false` by default.
    public var fast: Bool
    /// Reject data the decoder could only step over (corrupt segments, premature end) instead of reporting
    /// it as a warning. `false` by default.
    public var strict: Bool
    /// Cap on the decoder's working memory in bytes, enforced inside the codec; 0 = none. `0` by default.
    public var memoryLimit: Int

    public init(fast: Bool = false, strict: Bool = false, memoryLimit: Int = 0) {
        self.fast = fast
        self.strict = strict
        self.memoryLimit = memoryLimit
    }
}
