/// The codecs an ``ImageSource`` chooses from, in order: the first whose sniffer recognises a file opens
/// it. Encoders are found by format or file extension.
public struct CodecRegistry: Sendable {
    /// The registered codecs, tried in order.
    public let codecs: [Codec]

    public init(_ codecs: [Codec]) { self.codecs = codecs }

    /// The codec that recognises `bytes`, or nil.
    public func codec(sniffing bytes: UnsafeRawBufferPointer) -> Codec? {
        codecs.first { $0.sniff(bytes) }
    }

    /// The registered codec for `format`, or nil.
    public func codec(for format: ImageFormat) -> Codec? {
        codecs.first { $0.format == format }
    }

    /// The formats that can be read.
    public var readableFormats: [ImageFormat] { codecs.map(\.format) }

    /// The formats that can be written.
    public var writableFormats: [ImageFormat] { codecs.filter { $0.makeEncoder != nil }.map(\.format) }

    /// An encoder, with default settings, for the format a path's extension names (any case); nil when no
    /// registered codec writes it.
    public func encoder(forPath path: String) -> (any ImageEncoding)? {
        guard let ext = Self.pathExtension(of: path) else { return nil }
        return codecs.first { $0.makeEncoder != nil && $0.format.fileExtensions.contains(ext) }?.makeEncoder?()
    }

    /// The format a path's extension names among registered codecs, or nil.
    public func format(forPath path: String) -> ImageFormat? {
        guard let ext = Self.pathExtension(of: path) else { return nil }
        return codecs.first { $0.format.fileExtensions.contains(ext) }?.format
    }

    /// The lowercased extension of the last path component, without the dot.
    public static func pathExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}
