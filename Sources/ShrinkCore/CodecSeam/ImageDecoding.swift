/// A codec's view of one encoded image: its header, how it can scale while decoding, and the route a decode
/// of it takes.
///
/// Codecs expose capabilities and costs; only the planner in `Shrink` decides how to combine prescale,
/// resampling and format. Everything a decode does goes through ``route(_:)``.
public protocol ImageDecoding: Sendable {
    /// Everything the header says.
    var info: ImageInfo { get }
    /// The decode-time scale denominators supported for this image (`[1]` when it cannot scale while decoding).
    var scaleDenominators: [Int] { get }
    /// The size of a decode at 1/`denominator`.
    func scaledSize(denominator: Int) -> PixelSize
    /// True when each reduced size is a finished image its maker filtered down (an icon's smaller entries, a
    /// pyramid's levels), not a decode-time approximation: the planner takes the smallest that covers the output.
    var reducedImagesAreFiltered: Bool { get }
    /// The 8-bit format results are delivered in (gray8, rgb8 or rgba8) when no other is asked for; rows
    /// may be richer (16-bit) and are converted after reduction.
    var outputFormat: PixelFormat { get }
    /// The ICC profile and EXIF block as stored (copied out; a few KiB normally).
    func metadata() throws(ImageError) -> ImageMetadata
    /// How a decode for `request` runs and what it holds, from the header alone; never allocates pixels.
    func route(_ request: RouteRequest) -> DecodeRoute
    /// Lossless rewrites of the encoded data (rotation, crop) when the format has them; nil otherwise.
    var losslessTransforms: (any LosslessTransforming)? { get }
    /// The encoded bytes of a preview embedded in the file (an EXIF thumbnail), stored like the main image,
    /// when there is one; it opens as an image of the same format.
    func embeddedThumbnailBytes() -> [UInt8]?
    /// A preview stored in the file as an image of its own (HEIF's `thmb` item), as a decoder over the same
    /// bytes, when there is one that shows what the image shows (``ImageInfo/embeddedThumbnail`` is its size).
    func embeddedThumbnail() -> (any ImageDecoding)?
    /// A frame-by-frame decode of the animation, when the file holds more than one frame and the codec decodes
    /// them (nil otherwise: the image is its first frame). Fails like the first frame's decode would.
    func animation(options: DecodeOptions, monitor: DecodeMonitor?) throws(ImageError) -> (any AnimationDecoding)?
    /// Each frame's duration in milliseconds as the file stores it, read from the container without decoding a pixel
    /// (at most `limit` of them); empty for a still image or a codec that does not say.
    func frameDurations(limit: Int) -> [Int]
    /// The file's pages (a multi-page TIFF's, counted from the header), 1 for a file of one image. An animation's
    /// frames are not pages.
    var pageCount: Int { get }
    /// A decoder over page `index` (0 is this image), read from its header like this one. Fails with
    /// `.invalidArgument` when the file has no such page.
    func page(_ index: Int) throws(ImageError) -> any ImageDecoding
}

extension ImageDecoding {
    /// False, by default: decode-time scaling (DCT, box sums, a codec's scaler) approximates.
    public var reducedImagesAreFiltered: Bool { false }
    /// None, by default.
    public var losslessTransforms: (any LosslessTransforming)? { nil }
    /// None, by default.
    public func embeddedThumbnailBytes() -> [UInt8]? { nil }
    /// None, by default.
    public func embeddedThumbnail() -> (any ImageDecoding)? { nil }
    /// None.
    public func frameDurations(limit: Int) -> [Int] { [] }
    /// One.
    public var pageCount: Int { 1 }
    /// This image for page 0; no other.
    public func page(_ index: Int) throws(ImageError) -> any ImageDecoding {
        guard index == 0 else {
            throw ImageError(
                .invalidArgument, "page \(index) asked for, but the file has one page (pages count from 0)")
        }
        return self
    }
    /// No animation: the image is its first frame.
    public func animation(options: DecodeOptions, monitor: DecodeMonitor?) throws(ImageError)
        -> (any AnimationDecoding)?
    { nil }
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
    /// How CMYK ink becomes RGB (a colour-managed transform); `NaiveInk` when nil.
    public var inkConverter: (any InkConverting)?
    /// Threads the decode may borrow while cores would idle (a grid's or a TIFF's tiles or strips decode on them);
    /// nil: the calling thread decodes alone. `nil` by default.
    public var helpers: (any DecodeHelping)?

    /// Options with the defaults above.
    public init(
        fast: Bool = false, strict: Bool = false, memoryLimit: Int = 0, inkConverter: (any InkConverting)? = nil,
        helpers: (any DecodeHelping)? = nil
    ) {
        self.fast = fast
        self.strict = strict
        self.memoryLimit = memoryLimit
        self.inkConverter = inkConverter
        self.helpers = helpers
    }
}
