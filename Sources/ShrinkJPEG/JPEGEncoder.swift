import CShrinkJPEG
import ShrinkCore

/// Encodes gray8 or rgb8 pixels as baseline or progressive JPEG with libjpeg-turbo; rgba8 pixels are
/// first flattened onto ``Options/background`` (JPEG has no alpha).
///
/// Memory: the encoded output plus libjpeg's working rows (the input is read in place); progressive output
/// and optimised Huffman tables also buffer every DCT coefficient (2 bytes per sample after subsampling).
public struct JPEGEncoder: ImageEncoding {
    /// Encoder settings.
    public struct Options: Sendable {
        /// libjpeg quality, 1–100. `85` by default.
        public var quality: Int
        /// Keep full-resolution chroma (4:4:4) instead of 4:2:0. `false` by default.
        public var chroma444: Bool
        /// Write a progressive JPEG (buffers every coefficient of the image). `false` by default.
        public var progressive: Bool
        /// Compute optimal Huffman tables for this image: the same pixels in a smaller file, for a second
        /// entropy-coding pass (libjpeg buffers every coefficient, 2 bytes per sample after subsampling, counts their
        /// symbols in a first pass and codes them in a second; sizes and CPU: BENCHMARKS.md, "Figures behind the
        /// code"). `false` by default, as libvips and libjpeg write; progressive output always optimises.
        public var optimizeHuffmanTables: Bool

        /// Write the source's ICC profile, so colours stay right in colour-managed viewers. `true` by default.
        public var keepICCProfile = true
        /// Write the source's EXIF block (orientation reset to 1). `false` by default: EXIF may carry GPS.
        public var keepEXIF = false
        /// The colour transparent pixels are composited onto. White by default.
        public var background: (red: UInt8, green: UInt8, blue: UInt8) = (255, 255, 255)

        /// Options with the defaults above, or the values given.
        public init(
            quality: Int = 85, chroma444: Bool = false, progressive: Bool = false,
            optimizeHuffmanTables: Bool = false
        ) {
            self.quality = quality
            self.chroma444 = chroma444
            self.progressive = progressive
            self.optimizeHuffmanTables = optimizeHuffmanTables
        }
    }

    /// How this encoder writes.
    public var options: Options

    /// An encoder with `options` (quality 85, 4:2:0, baseline by default).
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The JPEG bytes of `image`, with the parts of `metadata` the options keep. Fails with `.invalidArgument` for formats other than gray8/rgb8 or a
    /// quality outside 1–100, `.encodingFailed` when libjpeg fails.
    public func encode(_ image: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> [UInt8] {
        switch image.format {
        case .gray8, .rgb8: break
        case .rgba8: return try encode(PixelConverter.flattened(image, over: options.background), metadata: metadata)
        case .yuv420 where !options.chroma444: return try encodePlanes(image, metadata: metadata)
        case .nv12 where !options.chroma444:
            return try encodePlanes(PixelConverter.convert(image, to: .yuv420), metadata: metadata)
        case .yuv420, .nv12: return try encode(PixelConverter.convert(image, to: .rgb8), metadata: metadata)
        default:
            return try encode(
                PixelConverter.convert(image, to: image.format.hasAlpha ? .rgba8 : .rgb8), metadata: metadata)
        }
        guard (1...100).contains(options.quality) else {
            throw ImageError(.invalidArgument, "JPEG quality must be 1–100, not \(options.quality)")
        }
        guard image.size.width <= 65500, image.size.height <= 65500 else {
            throw ImageError(.invalidArgument, "JPEG cannot hold \(image.size) (max 65500 per side)")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let icc = options.keepICCProfile ? metadata.iccProfile ?? [] : []
        let exif = options.keepEXIF ? metadata.exif ?? [] : []
        guard exif.count <= 65527 else {
            throw ImageError(.invalidArgument, "EXIF block of \(exif.count) bytes does not fit one JPEG marker")
        }
        let status = image.bytes.withUnsafeBufferPointer { pixels in
            icc.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exif in
                    sj_encode(
                        pixels.baseAddress, Int32(image.size.width), Int32(image.size.height), image.bytesPerRow,
                        Int32(image.format.channels), Int32(options.quality), options.chroma444 ? 1 : 0,
                        options.progressive ? 1 : 0, optimizesHuffmanTables ? 1 : 0,
                        icc.baseAddress, UInt32(icc.count), exif.baseAddress, UInt32(exif.count),
                        &out, &length, &message, message.count)
                }
            }
        }
        return try Self.result(status, out, length, message)
    }

    /// Whether libjpeg computes Huffman tables for the image: when asked, and always for progressive output.
    private var optimizesHuffmanTables: Bool { options.progressive || options.optimizeHuffmanTables }

    /// The encoded bytes libjpeg wrote (freed here), or the error it reported.
    private static func result(
        _ status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ length: UInt,
        _ message: [CChar]
    ) throws(ImageError) -> [UInt8] {
        guard status == Int32(SJ_OK.rawValue), let out else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw ImageError(.encodingFailed, "JPEG encoding failed", cause: text)
        }
        defer { sj_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// yuv420 planes straight into a 4:2:0 JPEG: no colour conversion, no RGB image.
    private func encodePlanes(_ image: PixelBuffer, metadata: ImageMetadata) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(options.quality) else {
            throw ImageError(.invalidArgument, "JPEG quality must be 1–100, not \(options.quality)")
        }
        let planes = image.planes
        let icc = options.keepICCProfile ? metadata.iccProfile ?? [] : []
        let exif = options.keepEXIF ? metadata.exif ?? [] : []
        var out: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.bytes.withUnsafeBufferPointer { p in
            icc.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exif in
                    sj_encode_yuv420(
                        p.baseAddress!, p.baseAddress! + planes[1].offset, p.baseAddress! + planes[2].offset,
                        Int32(image.size.width), Int32(image.size.height), Int32(options.quality),
                        options.progressive ? 1 : 0, optimizesHuffmanTables ? 1 : 0,
                        icc.baseAddress, UInt32(icc.count), exif.baseAddress, UInt32(min(exif.count, 65527)),
                        &out, &length, &message, message.count)
                }
            }
        }
        return try Self.result(status, out, length, message)
    }
}
