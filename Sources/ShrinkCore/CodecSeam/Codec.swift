/// One codec as the registry knows it: the format, what it can do, how to recognise its files, how to open
/// one (a header read, nothing of pixel size allocated), and its writer when it writes the format too. A codec module
/// exports one of these; registering it is one line (``CodecRegistry``).
package struct Codec: Sendable {
    /// The format it reads.
    package let format: ImageFormat
    /// What it can do.
    package let capabilities: CodecCapabilities
    private let sniffer: @Sendable (UnsafeRawBufferPointer) -> Bool
    private let opener: @Sendable (ImageBytes, String, ImageLimits) throws(ImageError) -> any ImageDecoding
    /// Its writer, when it writes the format too.
    package let writer: ImageWriter?

    package init(
        format: ImageFormat, capabilities: CodecCapabilities,
        sniff: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        open: @escaping @Sendable (ImageBytes, String, ImageLimits) throws(ImageError) -> any ImageDecoding,
        writer: ImageWriter? = nil
    ) {
        self.format = format
        self.capabilities = capabilities
        self.sniffer = sniff
        self.opener = open
        self.writer = writer
    }

    /// True when `bytes` start like a file of this format.
    package func sniff(_ bytes: UnsafeRawBufferPointer) -> Bool { sniffer(bytes) }

    /// Reads the header of the image in `bytes`; `name` is used in errors. Checks `limits` from the header.
    package func open(_ bytes: ImageBytes, name: String, limits: ImageLimits) throws(ImageError) -> any ImageDecoding {
        try opener(bytes, name, limits)
    }
}
