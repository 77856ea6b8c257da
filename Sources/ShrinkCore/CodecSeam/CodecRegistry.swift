/// The codecs an `ImageSource` chooses from, in order: the first whose sniffer recognises a file opens it.
/// Encoders are found by format or file extension.
///
/// `CodecRegistry.standard` holds every codec Shrink ships (JPEG, PNG, WebP, GIF, HEIF, AVIF). A server that
/// accepts only some formats narrows it, and any other file is `.unsupportedFormat` before its header is read:
///
/// ```swift
/// let source = try ImageSource(path: upload, codecs: .standard.restricted(to: [.jpeg, .png]))
/// ```
///
/// A codec of an app's own (a ``Codec`` made from its ``ImageDecoding`` and ``ImageWriter``) is added the same
/// way, and reads and writes wherever the registry is passed (`ImageSource`, the pipeline's configuration):
///
/// ```swift
/// let codecs = CodecRegistry.standard.adding(.ppm)
/// ```
public struct CodecRegistry: Sendable {
    /// The registered codecs, tried in order.
    public let codecs: [Codec]

    /// A registry of `codecs`, sniffed in this order.
    public init(_ codecs: [Codec]) { self.codecs = codecs }

    /// The same registry with `codec` added, sniffed after the others; it replaces a codec of the same format.
    public func adding(_ codec: Codec) -> CodecRegistry {
        CodecRegistry(codecs.filter { $0.format != codec.format } + [codec])
    }

    /// The same registry with only the codecs of `formats` (in this registry's order).
    public func restricted(to formats: [ImageFormat]) -> CodecRegistry {
        CodecRegistry(codecs.filter { formats.contains($0.format) })
    }

    /// The codec that recognises `bytes`, or nil.
    package func codec(sniffing bytes: UnsafeRawBufferPointer) -> Codec? {
        codecs.first { $0.sniff(bytes) }
    }

    /// The registered codec for `format`, or nil.
    package func codec(for format: ImageFormat) -> Codec? {
        codecs.first { $0.format == format }
    }

    /// The formats that can be read.
    public var readableFormats: [ImageFormat] { codecs.map(\.format) }

    /// The formats whose writers take YUV 4:2:0 planes band by band (``ImageWriter/streamingEncoder(for:)``): what
    /// a contact sheet far larger than memory is written in.
    package var bandWritableFormats: [ImageFormat] {
        codecs.compactMap { codec in
            guard let writer = codec.writer, writer.accepts.contains(.yuvPlanes),
                writer.streamingEncoder(for: OutputSettings(format: codec.format)) != nil
            else { return nil }
            return codec.format
        }
    }

    /// The format a thumbnail of a `source` file is written in when a request names none: what its codec says
    /// (``Codec/thumbnailFormat``), else its own when the registry writes it, else the first format the
    /// registry writes (JPEG in the standard one).
    package func thumbnailFormat(for source: ImageFormat?) -> ImageFormat {
        if let codec = source.flatMap({ codec(for: $0) }) {
            if let chosen = codec.thumbnailFormat { return chosen }
            if codec.writer != nil { return codec.format }
        }
        return writableFormats.first ?? .jpeg
    }

    /// The formats that can be written.
    public var writableFormats: [ImageFormat] { codecs.filter { $0.writer != nil }.map(\.format) }

    /// The writer of `format`, or nil when no registered codec writes it.
    package func writer(for format: ImageFormat) -> ImageWriter? {
        codec(for: format)?.writer
    }

    /// The encoder `settings` describe; `.unsupportedFormat` when no registered codec writes their format.
    package func encoder(for settings: OutputSettings) throws(ImageError) -> any ImageEncoding {
        try checkedWriter(for: settings).encoder(for: settings)
    }

    /// Bytes an encode of a `size` result as `settings` say holds beyond the result's pixels (the format's
    /// writer's own figure).
    package func predictedEncodeBytes(for size: PixelSize, settings: OutputSettings) throws(ImageError) -> Int {
        try checkedWriter(for: settings).predictedBytes(for: size, settings: settings)
    }

    /// The writer of `settings.format`, or `.unsupportedFormat` naming the formats that can be written.
    package func checkedWriter(for settings: OutputSettings) throws(ImageError) -> ImageWriter {
        guard let writer = writer(for: settings.format) else {
            let names = writableFormats.map { $0.name.uppercased() }
            let list = names.listed()
            throw ImageError(
                .unsupportedFormat, "Shrink cannot write \(settings.format.name.uppercased()) (it writes \(list))")
        }
        return writer
    }

    /// An encoder, with default settings, for the format a path's extension names (any case); nil when no
    /// registered codec writes it.
    package func encoder(forPath path: String) -> (any ImageEncoding)? {
        writableFormat(forPath: path).flatMap { writer(for: $0)?.defaultEncoder() }
    }

    /// The writable format a path's extension names (any case), or nil.
    package func writableFormat(forPath path: String) -> ImageFormat? {
        guard let ext = Self.pathExtension(of: path) else { return nil }
        return codecs.first { $0.writer != nil && $0.format.fileExtensions.contains(ext) }?.format
    }

    /// The format a path's extension names among registered codecs, or nil.
    package func format(forPath path: String) -> ImageFormat? {
        guard let ext = Self.pathExtension(of: path) else { return nil }
        return codecs.first { $0.format.fileExtensions.contains(ext) }?.format
    }

    /// The lowercased extension of the last path component, without the dot.
    package static func pathExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}
