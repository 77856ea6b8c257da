/// An image file format: its name, MIME type and file extensions. Open: a codec module declares its own
/// format as a static member (`extension ImageFormat { static let webp = … }`) without changing this file;
/// the common web formats are here so that files no registered codec reads can still be named in errors.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// A short lowercase name (`jpeg`, `png`, `webp`…): what `--json` and error messages print.
    public let name: String
    /// The MIME type (`image/jpeg`).
    public let mimeType: String
    /// File extensions without the dot, the usual one first (`["jpg", "jpeg"]`).
    public let fileExtensions: [String]

    /// A format named `name` (lower case; what `f:` and `--format` take), served as `mimeType`, whose files end
    /// in one of `fileExtensions` (the first is the one written).
    public init(name: String, mimeType: String, fileExtensions: [String]) {
        self.name = name
        self.mimeType = mimeType
        self.fileExtensions = fileExtensions
    }

    /// JPEG (`image/jpeg`): read and written.
    public static let jpeg = ImageFormat(
        name: "jpeg", mimeType: "image/jpeg", fileExtensions: ["jpg", "jpeg", "jpe", "jfif"])
    /// PNG (`image/png`): read and written.
    public static let png = ImageFormat(name: "png", mimeType: "image/png", fileExtensions: ["png"])
    /// WebP (`image/webp`): read and written (lossy, lossless, animated).
    public static let webp = ImageFormat(name: "webp", mimeType: "image/webp", fileExtensions: ["webp"])
    /// GIF (`image/gif`): read and written (stills and animations).
    public static let gif = ImageFormat(name: "gif", mimeType: "image/gif", fileExtensions: ["gif"])
    /// HEIF/HEIC (`image/heif`): read (HEVC tiles through libde265, loaded on first use).
    public static let heif = ImageFormat(name: "heif", mimeType: "image/heif", fileExtensions: ["heic", "heif"])
    /// AVIF (`image/avif`): read (AV1 through dav1d, loaded on first use).
    public static let avif = ImageFormat(name: "avif", mimeType: "image/avif", fileExtensions: ["avif"])
    /// TIFF (`image/tiff`): read (libtiff, loaded on first use; strips and tiles a band at a time, pyramids).
    public static let tiff = ImageFormat(name: "tiff", mimeType: "image/tiff", fileExtensions: ["tif", "tiff"])
    /// BMP (`image/bmp`): read (1- to 32-bit, RLE, bit fields, OS/2 and Windows headers).
    public static let bmp = ImageFormat(name: "bmp", mimeType: "image/bmp", fileExtensions: ["bmp"])
    /// JPEG XL (`image/jxl`): read (libjxl, loaded on first use; a lossy image's thumbnail from its 1:8 image).
    public static let jxl = ImageFormat(name: "jxl", mimeType: "image/jxl", fileExtensions: ["jxl"])
    /// ICO and CUR (`image/x-icon`): read (each entry a PNG or a BMP; the smallest that covers a thumbnail).
    public static let ico = ImageFormat(name: "ico", mimeType: "image/x-icon", fileExtensions: ["ico", "cur"])
    /// SVG (`image/svg+xml`): named, not read or written.
    public static let svg = ImageFormat(name: "svg", mimeType: "image/svg+xml", fileExtensions: ["svg"])

    /// The formats named here, whether or not a codec reads or writes them: so that a request for one is told
    /// it is not supported (a 415) rather than unknown.
    public static let known: [ImageFormat] = [.jpeg, .png, .webp, .gif, .heif, .avif, .tiff, .bmp, .jxl, .ico, .svg]

    /// The usual file extension, without the dot.
    public var fileExtension: String { fileExtensions.first ?? name }

    public var description: String { name }

    /// Formats are the same when their names are.
    public static func == (a: ImageFormat, b: ImageFormat) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Names a file from the magic bytes of the common image formats, whether or not a codec reads it (the
    /// codec registry decides that): for messages such as "TIFF is not supported". nil when unknown.
    public init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(_ magic: [UInt8], at offset: Int) -> Bool {
            guard bytes.count >= offset + magic.count else { return false }
            for (i, b) in magic.enumerated() where bytes[offset + i] != b { return false }
            return true
        }
        guard
            let (format, _) = Self.signatures.first(where: { _, any in
                any.contains { all in all.allSatisfy { starts($0.bytes, at: $0.offset) } }
            })
        else { return nil }
        self = format
    }

    /// The magic bytes of the common formats, tried in order: a format matches when every part of one of its
    /// signatures is where it says (AVIF's brand before HEIF's bare `ftyp`).
    private static let signatures: [(ImageFormat, [[(offset: Int, bytes: [UInt8])]])] = [
        (.jpeg, [[(0, [0xFF, 0xD8, 0xFF])]]),
        (.png, [[(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]]),
        (.webp, [[(0, Array("RIFF".utf8)), (8, Array("WEBP".utf8))]]),
        (.gif, [[(0, Array("GIF8".utf8))]]),
        (.tiff, [[(0, [0x49, 0x49, 0x2A, 0x00])], [(0, [0x4D, 0x4D, 0x00, 0x2A])]]),
        (.bmp, [[(0, Array("BM".utf8))]]),
        (
            .avif,
            [[(4, Array("ftyp".utf8)), (8, Array("avif".utf8))], [(4, Array("ftyp".utf8)), (8, Array("avis".utf8))]]
        ),
        (.heif, [[(4, Array("ftyp".utf8))]]),
    ]
}
