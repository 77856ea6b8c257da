/// The codecs an `ImageSource` chooses from, in order: the first whose sniffer recognises a file opens it.
/// Encoders are found by format or file extension.
///
/// `CodecRegistry.standard` holds every codec Shrink ships (JPEG, PNG, WebP, GIF, HEIF, AVIF). A server that
/// accepts only some formats narrows it, and any other file is `.unsupportedFormat` before its header is read:
///
/// ```swift
/// let source = try ImageSource(path: upload, codecs: .standard.restricted(to: [.jpeg, .png]))
/// ```
public struct CodecRegistry: Sendable {
    /// The registered codecs, tried in order.
    package let codecs: [Codec]

    /// A registry of `codecs`, sniffed in this order.
    package init(_ codecs: [Codec]) { self.codecs = codecs }

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

    /// The formats that can be written.
    public var writableFormats: [ImageFormat] { codecs.filter { $0.makeEncoder != nil }.map(\.format) }

    /// An encoder, with default settings, for the format a path's extension names (any case); nil when no
    /// registered codec writes it.
    package func encoder(forPath path: String) -> (any ImageEncoding)? {
        guard let ext = Self.pathExtension(of: path) else { return nil }
        return codecs.first { $0.makeEncoder != nil && $0.format.fileExtensions.contains(ext) }?.makeEncoder?()
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
