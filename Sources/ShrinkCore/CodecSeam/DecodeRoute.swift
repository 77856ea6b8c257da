/// How one decode will run, chosen by the codec from the header for a ``RouteRequest``: the machinery, what
/// it delivers, and what it holds. The same value is read by the memory predictor and started by the
/// renderer, so what is predicted is what runs.
public struct DecodeRoute: Sendable {
    /// What the decode delivers.
    public enum Output: Sendable, Equatable {
        /// Interleaved rows of this format (gray8, rgb8, rgba8 or rgba16).
        case rows(PixelFormat)
        /// Y, Cb, Cr planes (``PlaneDecoding``).
        case planes
    }

    /// How decoded pixels map onto source pixels.
    public enum Geometry: Sendable, Equatable {
        /// Decoded pixel `i` covers source pixels `[i·d, (i+1)·d)` at scale 1/`d`, the last one partly (DCT
        /// scaling, box sums of interlaced passes).
        case blocks
        /// The decoded size spans the source exactly: each decoded pixel covers `source / decoded` source
        /// pixels on each axis (a resampling scaler inside the codec).
        case uniform
    }

    /// The machinery, as reported.
    public let path: DecodePath
    /// Rows or planes.
    public let output: Output
    /// The size of the whole image at this route's scale.
    public let decodedSize: PixelSize
    /// Memory that grows with the image, held for the whole decode: a coefficient buffer, an interlaced
    /// grid, a scaled frame or a full-size lossless image. 0 when rows stream.
    public let workingBytes: Int
    /// The codec library's own state (tables, row caches, the input window), calibrated against measured
    /// heap growth.
    public let stateBytes: Int
    /// How decoded pixels map onto source pixels.
    public let geometry: Geometry
    /// With `.uniform` geometry, the part of the stored image the decoded rows span (a codec that crops
    /// before scaling); nil for the whole image.
    public let sourceRect: FractionalRect?
    /// The library that decodes, with its version when the library says (`libjpeg-turbo`, `dav1d 1.0.0`), as
    /// telemetry reports it; nil when the codec does not name one.
    public let decoder: String?
    /// What each thread lent to the decode holds (``DecodeOptions/helpers``: a decoder, the piece it decodes, a
    /// second band), charged to the helper when it is lent; 0 for a route that decodes on the calling thread alone.
    public let helperBytes: Int
    private let starter: @Sendable (DecodeOptions, DecodeMonitor?) throws(ImageError) -> DecodeStream

    /// A route as a codec describes it: its figures, from the header, and `start`, which begins the decode (called
    /// once, when the decode is admitted). The planner reads the figures to predict the peak; the same route runs.
    public init(
        path: DecodePath, output: Output, decodedSize: PixelSize, workingBytes: Int, stateBytes: Int,
        geometry: Geometry = .blocks, sourceRect: FractionalRect? = nil, decoder: String? = nil, helperBytes: Int = 0,
        start: @escaping @Sendable (DecodeOptions, DecodeMonitor?) throws(ImageError) -> DecodeStream
    ) {
        self.path = path
        self.output = output
        self.decodedSize = decodedSize
        self.workingBytes = workingBytes
        self.stateBytes = stateBytes
        self.geometry = geometry
        self.sourceRect = sourceRect
        self.decoder = decoder
        self.helperBytes = helperBytes
        self.starter = start
    }

    /// Starts the decode. A `monitor` may be checked by codecs that decode a long way before the first row.
    public func start(options: DecodeOptions, monitor: DecodeMonitor? = nil) throws(ImageError) -> DecodeStream {
        try starter(options, monitor)
    }

    /// The interleaved row format, or nil for planes.
    public var rowFormat: PixelFormat? {
        if case .rows(let format) = output { return format }
        return nil
    }
}
