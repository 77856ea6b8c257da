import Shrink

/// Generated test images: deterministic patterns, encoded as JPEG with optional EXIF orientation.
public enum TestImages {
    /// An RGB pattern: smooth gradients with a distinct colour per quadrant and a bright block near the
    /// top-left corner, so every orientation looks different. No sample is below 40, so a black edge row or
    /// column in a result is detectable.
    public static func pattern(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x) / Double(max(width - 1, 1)), fy = Double(y) / Double(max(height - 1, 1))
                var r = 60 + 120 * fx, g = 60 + 120 * fy, b = 140.0
                if fx >= 0.5 { b = 60 }
                if fy >= 0.5 { r += 40 }
                if fx < 0.25 && fy < 0.25 { r = 240; g = 240; b = 60 }
                let i = (y * width + x) * 3
                bytes[i] = UInt8(min(255, r))
                bytes[i + 1] = UInt8(min(255, g))
                bytes[i + 2] = UInt8(min(255, b))
            }
        }
        return PixelBuffer(format: .rgb8, size: PixelSize(width: width, height: height), bytes: bytes)
    }

    /// A gray ramp (gray8), every sample ≥ 40.
    public static func grayRamp(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * width + x] = UInt8(40 + (x * 150 / max(width, 1) + y * 60 / max(height, 1)) % 200)
            }
        }
        return PixelBuffer(format: .gray8, size: PixelSize(width: width, height: height), bytes: bytes)
    }

    /// `pixels` as JPEG (4:4:4 by default so colour edges survive), with an `APP1 Exif` segment carrying
    /// `orientation` (and an embedded JPEG `thumbnail`) when given.
    public static func jpeg(
        _ pixels: PixelBuffer, quality: Int = 95, chroma444: Bool = true, progressive: Bool = false,
        orientation: Int? = nil, thumbnail: [UInt8]? = nil
    ) throws -> [UInt8] {
        let encoded = try JPEGEncoder(options: .init(quality: quality, chroma444: chroma444, progressive: progressive))
            .encode(pixels)
        guard orientation != nil || thumbnail != nil else { return encoded }
        return Array(encoded[0..<2]) + exifSegment(orientation: orientation, thumbnail: thumbnail)
            + Array(encoded[2...])
    }

    /// An `APP1 Exif` segment (big-endian TIFF): IFD0 with the orientation, IFD1 pointing at a thumbnail.
    public static func exifSegment(orientation: Int?, thumbnail: [UInt8]?) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        let ifd0Entries = orientation == nil ? 0 : 1
        let ifd1Offset = thumbnail == nil ? 0 : 8 + 2 + ifd0Entries * 12 + 4
        tiff += u16(ifd0Entries)
        if let orientation { tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) }
        tiff += u32(ifd1Offset)
        if let thumbnail {
            let dataOffset = ifd1Offset + 2 + 2 * 12 + 4
            tiff += u16(2)
            tiff += u16(0x0201) + u16(4) + u32(1) + u32(dataOffset)
            tiff += u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count)
            tiff += u32(0)
            tiff += thumbnail
        }
        let body = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xE1] + u16(body.count + 2) + body
    }
}
