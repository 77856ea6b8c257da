import ShrinkCore
import ShrinkColor

/// What one request cost: where the image came from, the bytes and the time.
public struct ImageTelemetry: Sendable {
    /// Where the pixels came from.
    public enum Origin: String, Sendable {
        /// Decoded from the source.
        case decoded
        /// Found in the memory cache (no decode, no charge).
        case memoryCache
        /// From the disk cache: an encoded thumbnail decoded again for pixels, or the stored bytes as they
        /// are for a request for bytes.
        case diskCache
        /// From the ``SharedResultStore`` (an object store other nodes write too): the stored bytes as they are.
        case sharedStore
    }

    /// Where the result came from.
    public var origin: Origin
    /// True when this request shared a decode another request had started.
    public var coalesced = false
    /// Encoded bytes the decode read: the source file's size, or the disk cache entry's (0 from memory).
    public var bytesRead = 0
    /// The DCT prescale denominator used (1, 2, 4 or 8).
    public var prescale = 1
    /// nil when the requested plan fitted the decode budget; otherwise the cheaper plan that was run instead
    /// (`fast mode`, `DCT scale 1/8 (DC-first)`, …).
    public var fallback: String?
    /// The machinery that decoded the image (nil for memory cache hits and disk cache entries).
    public var decodePath: DecodePath?
    /// The library that decoded it (`libjpeg-turbo`, `dav1d 1.0.0`…; nil when not decoded here).
    public var decoder: String?
    /// The result's pixel format (nil for bytes served from a cache, which were never pixels here).
    public var pixelFormat: PixelFormat?
    /// What colour management did (``DecodedImage/colorConversion``; nil when not decoded here or kept).
    public var colorConversion: ColorConversion?
    /// The result's buffer bytes (what the memory cache charges).
    public var bufferBytes = 0
    /// The peak bytes predicted from the header and charged against the decode budget.
    public var predictedPeakBytes = 0
    /// The heap growth measured between strips while decoding (process-wide: it includes concurrent decodes,
    /// so it is exact only when one decode runs at a time). 0 when not measured.
    public var measuredPeakBytes = 0
    /// Time between the decode being ready to start (header read, charge known) and starting.
    public var queueWait: Duration = .zero
    /// Time spent decoding (and, on a miss with a disk cache, encoding the entry).
    public var decodeTime: Duration = .zero
    /// For a request for bytes: time spent encoding them (zero when they came from a cache).
    public var encodeTime: Duration = .zero
    /// For a request for bytes: the encoded size.
    public var encodedBytes = 0
    /// For a request for bytes encoded here: the library that wrote them (``ImageEncoding/library``: `libavif
    /// 0.11.1, aom v3.6.0`); nil when they came from a cache.
    public var encoder: String?
    /// For an animation written frame by frame: how many frames (0 otherwise).
    public var frames = 0

    /// Telemetry of a result from `origin`, in `pixelFormat` (the rest zero): for tests and for code that
    /// stands in for a pipeline.
    public init(origin: Origin, pixelFormat: PixelFormat?) {
        self.origin = origin
        self.pixelFormat = pixelFormat
    }
}
