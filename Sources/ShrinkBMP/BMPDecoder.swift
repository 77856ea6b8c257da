import ShrinkCore

/// A BMP file's header and its one route: rows streamed at full size into the resampler (BMP has no reduced
/// decode; an uncompressed row is read where it lies, so a bottom-up file costs no more than a top-down one).
/// Also decodes an icon's BMP entry (``init(entryIn:at:path:limits:)``): a DIB without a file header, whose AND mask
/// gives the alpha.
package struct BMPDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    /// What the headers say.
    let header: BMPHeader
    package let info: ImageInfo
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    package var bitCount: Int { header.bitCount }
    /// An icon entry whose transparency comes from its AND mask (every icon but a 32-bit one with alpha bytes).
    let appliesIconMask: Bool

    /// Reads a BMP file's headers. Fails with `.corruptData`, `.truncated`, `.unsupportedFeature` or
    /// `.limitExceeded` (the pixel limit checked from the header, before anything is allocated).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        let raw = bytes.bytes
        guard raw.count >= 18, raw[0] == 0x42, raw[1] == 0x4D else {
            throw ImageError(raw.count < 18 ? .truncated : .unsupportedFormat, "\(path): not a BMP file")
        }
        let offset = Int(raw[10]) | Int(raw[11]) << 8 | Int(raw[12]) << 16 | Int(raw[13]) << 24
        try self.init(
            bytes: bytes, path: path,
            header: BMPHeader(raw, dib: 14, pixelOffset: offset, isIcon: false, path: path, limits: limits))
    }

    /// Reads the BMP entry of an icon whose DIB header starts at `offset` in `bytes`.
    package init(entryIn bytes: ImageBytes, at offset: Int, path: String, limits: ImageLimits) throws(ImageError) {
        try self.init(
            bytes: bytes, path: path,
            header: BMPHeader(bytes.bytes, dib: offset, pixelOffset: nil, isIcon: true, path: path, limits: limits))
    }

    private init(bytes: ImageBytes, path: String, header: BMPHeader) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.header = header
        appliesIconMask = header.maskOffset != nil && !Self.hasAlphaBytes(header, bytes.bytes)
        let alpha = header.hasAlpha || header.maskOffset != nil
        var features = ["\(header.bitCount)-bit"]
        if header.bitCount <= 8 { features.append("palette of \(header.paletteCount)") }
        if header.compression != .none { features.append(header.compression == .rle8 ? "RLE8" : "RLE4") }
        if header.maskOffset != nil { features.append(appliesIconMask ? "AND mask" : "alpha") }
        if header.iccProfile != nil { features.append("ICC") }
        info = ImageInfo(
            format: .bmp, size: header.size,
            colorModel: header.bitCount > 8
                ? (alpha ? .rgba : .rgb) : (header.paletteIsGray && !alpha ? .gray : .palette),
            bitsPerComponent: 8, hasAlpha: alpha,
            iccProfileBytes: header.iccProfile?.count ?? 0, features: features,
            layout: "\(header.isTopDown ? "top-down" : "bottom-up"), \(Self.headerName(header.headerSize))")
    }

    /// A 32-bit icon entry's alpha bytes say something (some writers leave them all zero and rely on the mask).
    private static func hasAlphaBytes(_ header: BMPHeader, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard header.bitCount == 32, header.alpha.isPresent, header.compression == .none else { return false }
        let alpha = header.alpha
        for row in 0..<header.size.height {
            let start = header.pixelOffset + row * header.stride
            for x in 0..<header.size.width {
                let at = start + 4 * x
                let pixel =
                    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
                    | UInt32(bytes[at + 3]) << 24
                if alpha.value(pixel) != 0 { return true }
            }
        }
        return false
    }

    private static func headerName(_ size: Int) -> String {
        switch size {
        case 12: "OS/2 1.x header"
        case 40: "BITMAPINFOHEADER"
        case 52, 56: "BITMAPV\(size == 52 ? 2 : 3)INFOHEADER"
        case 108: "BITMAPV4HEADER"
        case 124: "BITMAPV5HEADER"
        default: "OS/2 2.x header"
        }
    }

    /// The embedded ICC profile (a version 5 header's), copied out.
    package func metadata() throws(ImageError) -> ImageMetadata {
        var metadata = ImageMetadata()
        if let range = header.iccProfile { metadata.iccProfile = Array(bytes.bytes[range]) }
        return metadata
    }

    /// Full size only: rows stream to the resampler.
    package var scaleDenominators: [Int] { [1] }

    package func scaledSize(denominator: Int) -> PixelSize { info.size }

    /// Rows as they come out: gray8 for a gray palette, rgba8 with alpha, rgb8 otherwise.
    var rowFormat: PixelFormat {
        if info.hasAlpha { return .rgba8 }
        return header.bitCount <= 8 && header.paletteIsGray ? .gray8 : .rgb8
    }

    package var outputFormat: PixelFormat { rowFormat }

    /// Rows streamed at full size; nothing grows with the image but an RLE file's row index. The state is one
    /// row of indices and the palette.
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let rle = header.compression != .none
        return DecodeRoute(
            path: .rows, output: .rows(rowFormat), decodedSize: info.size,
            workingBytes: rle ? BMPRunLengthIndex.bytes(height: info.size.height) : 0,
            stateBytes: 4 << 10 + (rle ? info.size.width : 0), decoder: "Shrink (BMP)"
        ) { [self] _, _ throws(ImageError) in
            .rows(BMPRowDecoder(decoder: self))
        }
    }
}
