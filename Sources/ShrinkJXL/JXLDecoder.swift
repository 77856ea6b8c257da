import CShrinkJXL
import ShrinkCore

/// A JPEG XL file's first frame and the ways it can be decoded, read through libjxl without decoding a pixel.
///
/// libjxl (0.7, Debian 12's) decodes a frame whole: into an image buffer, whose rows are then summed into the size
/// asked for (``BoxReducer``). Its progressive flush of a lossy image's 1:8 (DC) image renders at full size and
/// costs what the full decode costs, so a thumbnail does not stop there (BENCHMARKS.md has the figures).
package struct JXLDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    package let info: ImageInfo
    let header: cshrink_jxl_info

    /// Reads the headers (size, samples, colour, orientation). Fails with `.corruptData` (not a JPEG XL file libjxl
    /// reads, or cut short before its colour), `.limitExceeded` (the pixel limit, from the header) or
    /// `.unsupportedFeature` (libjxl is not installed).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        try JXLLibrary.load(for: path)
        var header = cshrink_jxl_info()
        var message = [CChar](repeating: 0, count: 256)
        guard cshrink_jxl_read_info(bytes.bytes.baseAddress, bytes.count, &header, &message, message.count) == 1
        else {
            throw ImageError(
                .corruptData, "\(path): not a JPEG XL image libjxl can read", cause: String(cBuffer: message))
        }
        self.header = header
        let size = PixelSize(width: Int(header.width), height: Int(header.height))
        try limits.check(size, path: path)
        guard header.has_color == 1 else {
            let text = String(cBuffer: message)
            throw ImageError(.corruptData, "\(path): the JPEG XL header is incomplete", cause: text)
        }
        let hasAlpha = header.alpha_bits > 0
        let gray = header.color_channels == 1
        var features = [header.uses_original_profile == 0 ? "lossy (XYB)" : "original colour space"]
        if header.exponent_bits > 0 { features.append("\(header.bits_per_sample)-bit float") }
        if header.have_animation != 0 { features.append("animated (the first frame is decoded)") }
        if header.has_black != 0 { features.append("CMYK (black channel)") }
        if header.has_spot != 0 { features.append("spot colours (rendered)") }
        if header.have_preview != 0 { features.append("preview frame") }
        info = ImageInfo(
            format: .jxl, size: size, orientation: ImageOrientation(exifValue: Int(header.orientation)),
            colorModel: gray ? (hasAlpha ? .grayAlpha : .gray) : (hasAlpha ? .rgba : .rgb),
            bitsPerComponent: Int(header.bits_per_sample), hasAlpha: hasAlpha,
            iccProfileBytes: header.is_srgb != 0 ? 0 : header.icc_size, features: features,
            layout: header.have_container != 0 ? "container" : "codestream", orientationSource: "JPEG XL")
    }

    /// The decoded pixels' colour as an ICC profile (libjxl writes one for an encoded colour space), unless it is
    /// sRGB.
    package func metadata() throws(ImageError) -> ImageMetadata {
        var metadata = ImageMetadata()
        guard info.iccProfileBytes > 0 else { return metadata }
        var profile = [UInt8](repeating: 0, count: info.iccProfileBytes)
        var message = [CChar](repeating: 0, count: 256)
        let ok = profile.withUnsafeMutableBytes {
            cshrink_jxl_read_icc(
                bytes.bytes.baseAddress, bytes.count, $0.baseAddress, $0.count, &message, message.count) == 1
        }
        if ok { metadata.iccProfile = profile }
        return metadata
    }

    /// Any factor up to 64: the decoded image's rows summed into 1/d.
    package var scaleDenominators: [Int] { Array(1...64) }

    package func scaledSize(denominator d: Int) -> PixelSize { BoxReducer.reducedSize(info.size, d: d) }

    /// gray8 for gray, rgba8 with alpha, rgb8 otherwise.
    package var outputFormat: PixelFormat {
        if info.hasAlpha { return .rgba8 }
        return header.color_channels == 1 ? .gray8 : .rgb8
    }

    /// The frame decoded whole into an image buffer (gray8, rgb8 or rgba8; rgba16 when 16 bits are asked for, the
    /// file stores more than 8 and nothing is reduced), its rows then summed into 1/d as they are read. Holds the
    /// image and, at 1/d, a few reduced rows of sums; libjxl's own state grows with the image (its group caches and
    /// the frame's side information).
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let d = max(1, request.scaleDenominator)
        let format: PixelFormat =
            d == 1 && request.wantsSixteenBit && info.bitsPerComponent > 8 ? .rgba16 : outputFormat
        let reduced = d > 1 ? BoxReducer.bytes(source: info.size, d: d, channels: format.channels, bandRows: d) : 0
        return DecodeRoute(
            path: .jxlFrame, output: .rows(format), decodedSize: scaledSize(denominator: d),
            workingBytes: info.size.pixelCount * format.bytesPerPixel + reduced,
            stateBytes: stateBytes, geometry: .blocks, decoder: Self.library
        ) { [self] _, _ throws(ImageError) in
            .rows(JXLRowDecoder(decoder: self, format: format, reduction: d))
        }
    }

    /// libjxl's own memory for a decode: a fixed part and a part per pixel, measured over the conformance files and
    /// photographs (docs/FORMATS.md). Without extra channels (lossy or lossless colour or gray) it renders group by
    /// group; with alpha, black or spot channels libjxl 0.7 holds every channel of the frame as 32-bit planes.
    var stateBytes: Int {
        header.extra_channels == 0
            ? (24 << 20) + info.size.pixelCount * 4 : (32 << 20) + info.size.pixelCount * 64
    }

    /// `libjxl` and its version.
    static let library = "libjxl " + String(cString: cshrink_jxl_version())
}

extension DecodePath {
    /// A JPEG XL frame decoded whole by libjxl, its rows summed to the decoded size as they are read.
    public static let jxlFrame = DecodePath("jxlFrame")
}
