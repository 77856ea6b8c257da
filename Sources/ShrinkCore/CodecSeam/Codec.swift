/// One codec as the registry knows it: the format, what it can do, how to recognise its files, how to open
/// one (a header read, nothing of pixel size allocated), and its writer when it writes the format too. A codec module
/// exports one of these; registering it is one line (``CodecRegistry``).
public struct Codec: Sendable {
    /// The format it reads.
    public let format: ImageFormat
    /// What it can do.
    public let capabilities: CodecCapabilities
    private let sniffer: @Sendable (UnsafeRawBufferPointer) -> Bool
    private let opener: @Sendable (ImageBytes, String, ImageLimits) throws(ImageError) -> any ImageDecoding
    /// Its writer, when it writes the format too.
    public let writer: ImageWriter?
    /// The format a thumbnail of one of its files is written in when a request names none, when not its own
    /// (AVIF: JPEG, which every client decodes); nil for the registry's rule (`thumbnailFormat(for:)`).
    public let thumbnailFormat: ImageFormat?

    /// A codec of `format`: `sniff` tells its files from the first bytes (it sees at least what the file has, up
    /// to a few hundred bytes), `open` reads a header (nothing of pixel size allocated; `limits` checked from it), and
    /// `writer`, when given, writes the format; `thumbnailFormat`, when given, is what its thumbnails are
    /// written in when a request names no format.
    public init(
        format: ImageFormat, capabilities: CodecCapabilities,
        sniff: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        open: @escaping @Sendable (ImageBytes, String, ImageLimits) throws(ImageError) -> any ImageDecoding,
        writer: ImageWriter? = nil, thumbnailFormat: ImageFormat? = nil
    ) {
        self.thumbnailFormat = thumbnailFormat
        self.format = format
        self.capabilities = capabilities
        self.sniffer = sniff
        self.opener = open
        self.writer = writer
    }

    /// True when `bytes` start like a file of this format.
    public func sniff(_ bytes: UnsafeRawBufferPointer) -> Bool { sniffer(bytes) }

    /// Reads the header of the image in `bytes`; `name` is used in errors. Checks `limits` from the header.
    public func open(_ bytes: ImageBytes, name: String, limits: ImageLimits) throws(ImageError) -> any ImageDecoding {
        try opener(bytes, name, limits)
    }
}
