import ShrinkCore
import ShrinkJPEG
import ShrinkPNG

/// A file format to encode a result as, with its settings.
public enum EncodedFormat: Sendable {
    case jpeg(JPEGEncoder.Options)
    case png(PNGEncoder.Options)

    /// The format a path's extension names (`.jpg`, `.jpeg`, `.png`, any case) with default settings.
    public init?(pathExtensionOf path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "jpg", "jpeg": self = .jpeg(JPEGEncoder.Options())
        case "png": self = .png(PNGEncoder.Options())
        default: return nil
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }

    /// Encodes `pixels` in this format, with the parts of `metadata` the format's options keep.
    public func encode(_ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        switch self {
        case .jpeg(let options): try JPEGEncoder(options: options).encode(pixels, metadata: metadata)
        case .png(let options): try PNGEncoder(options: options).encode(pixels, metadata: metadata)
        }
    }
}
