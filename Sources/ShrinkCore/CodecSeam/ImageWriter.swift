/// A codec's writing half, as the registry knows it: what it takes, which ``OutputSettings`` it reads, the
/// options of its own, how to make its encoder from settings, and what an encode is predicted to hold. A codec
/// that writes its format registers one with its ``Codec``; nothing outside its folder names its encoder to
/// write a file.
public struct ImageWriter: Sendable {
    /// Kinds of pixels the encoder takes as they are.
    public struct Accepts: OptionSet, Sendable {
        /// The kinds as bits.
        public let rawValue: Int
        /// The kinds `rawValue`'s bits name.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// YUV 4:2:0 planes, written without an RGB image in between.
        public static let yuvPlanes = Accepts(rawValue: 1 << 0)
        /// An alpha channel, kept.
        public static let alpha = Accepts(rawValue: 1 << 1)
        /// 16 bits a sample, kept.
        public static let sixteenBit = Accepts(rawValue: 1 << 2)
        /// More than one frame.
        public static let animation = Accepts(rawValue: 1 << 3)
    }

    /// The settings of ``OutputSettings`` beyond the format that change what it writes.
    public enum Setting: String, Sendable, CaseIterable {
        /// ``OutputSettings/quality``.
        case quality
        /// ``OutputSettings/lossless``.
        case lossless
        /// ``OutputSettings/progressive``.
        case progressive
        /// ``OutputSettings/optimizeCoding``.
        case optimizeCoding
        /// ``OutputSettings/chroma444``.
        case chroma444
        /// ``OutputSettings/compressionLevel``.
        case compressionLevel
        /// ``OutputSettings/bitDepth``.
        case bitDepth
        /// ``OutputSettings/background``.
        case background
        /// ``OutputSettings/keepICCProfile``.
        case keepICCProfile
        /// ``OutputSettings/keepEXIF``.
        case keepEXIF
    }

    /// Kinds of pixels it keeps.
    public let accepts: Accepts
    /// The settings it reads; the rest do not change its bytes.
    public let reads: Set<Setting>
    /// Options of its own (``OutputSettings/formatOptions``) by name, with the values each takes, its default first.
    public let formatOptions: [String: [String]]
    private let maker: @Sendable (OutputSettings) -> any ImageEncoding
    private let defaultMaker: @Sendable () -> any ImageEncoding
    private let predictor: @Sendable (PixelSize, OutputSettings) -> Int

    /// A writer whose encoder `make` builds from settings (`makeDefault` with the encoder's own defaults, for a
    /// file named by its extension alone); `predictedBytes` gives the bytes an encode of a result of that size
    /// holds beyond the result's own pixels (converted copies, the output, encoder state).
    public init(
        accepts: Accepts, reads: Set<Setting>, formatOptions: [String: [String]] = [:],
        make: @escaping @Sendable (OutputSettings) -> any ImageEncoding,
        makeDefault: @escaping @Sendable () -> any ImageEncoding,
        predictedBytes: @escaping @Sendable (PixelSize, OutputSettings) -> Int
    ) {
        self.accepts = accepts
        self.reads = reads
        self.formatOptions = formatOptions
        self.maker = make
        self.defaultMaker = makeDefault
        self.predictor = predictedBytes
    }

    /// The encoder with its own defaults.
    public func defaultEncoder() -> any ImageEncoding { defaultMaker() }

    /// The encoder `settings` describe.
    public func encoder(for settings: OutputSettings) -> any ImageEncoding { maker(settings) }

    /// The encoder `settings` describe when it can also write a file band by band (``StreamingImageEncoding``:
    /// what a contact sheet needs); nil otherwise.
    package func streamingEncoder(for settings: OutputSettings) -> (any StreamingImageEncoding)? {
        maker(settings) as? any StreamingImageEncoding
    }

    /// Bytes an encode of a `size` result holds beyond the result's pixels.
    public func predictedBytes(for size: PixelSize, settings: OutputSettings) -> Int { predictor(size, settings) }
}
