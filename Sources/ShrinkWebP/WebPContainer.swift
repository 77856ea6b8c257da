import CShrinkWebP
import ShrinkCore

/// What a WebP file's RIFF container says, read with libwebp's demuxer (which indexes chunks without
/// decoding and keeps pointers into the input): the canvas, the first frame's place and coding, frame and
/// loop counts, and where the EXIF and ICC chunks are. Costs one small index (freed before `init` returns).
struct WebPContainer {
    /// The canvas size (the image size for a still file).
    let canvas: PixelSize
    /// Where the first frame's coded data (ALPH + VP8, or VP8L) sits in the file.
    let frameData: Range<Int>
    /// The first frame's rectangle on the canvas.
    let frameRect: (x: Int, y: Int, width: Int, height: Int)
    /// True for VP8L (lossless) coding of the first frame; false for VP8 (lossy).
    let isLossless: Bool
    /// True when the first frame carries alpha (an ALPH chunk, or VP8L alpha).
    let frameHasAlpha: Bool
    /// True when a lossy frame's ALPH chunk is compressed (a lossless bitstream), false when raw.
    let alphaIsCompressed: Bool
    /// Frames in the file (1 for a still image).
    let frameCount: Int
    /// The animation's loop count (0 = forever); nil for a still image.
    let loopCount: Int?
    /// Where the EXIF and ICC chunk payloads are, when present.
    let exifRange: Range<Int>?
    let iccRange: Range<Int>?
    /// Chunk names present (`VP8X`, `ANIM`, `ALPH`, `ICCP`, `EXIF`, `XMP`), for `info`.
    let features: [String]

    /// True when the first frame covers the whole canvas (every still image).
    var frameCoversCanvas: Bool {
        frameRect.x == 0 && frameRect.y == 0 && frameRect.width == canvas.width && frameRect.height == canvas.height
    }

    /// The compression method of the first ALPH chunk in a frame's chunks (bits 0–1 of its first byte: 0
    /// raw, 1 lossless); 1 when the chunk cannot be found (the costlier assumption).
    static func alphaCompression(in frame: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset + 8 <= frame.count {
            let size =
                Int(frame[offset + 4]) | Int(frame[offset + 5]) << 8 | Int(frame[offset + 6]) << 16 | Int(
                    frame[offset + 7]) << 24
            // "ALPH"
            if frame[offset] == 0x41, frame[offset + 1] == 0x4C, frame[offset + 2] == 0x50, frame[offset + 3] == 0x48 {
                return size > 0 && offset + 8 < frame.count ? Int(frame[offset + 8] & 3) : 1
            }
            offset += 8 + size + (size & 1)
        }
        return 1
    }

    /// Parses the container of `bytes`. A file that ends early is `.truncated`; one whose chunks do not
    /// parse is `.corruptData`; the canvas is checked against `limits` before anything else is read.
    init(bytes: UnsafeRawBufferPointer, path: String, limits: ImageLimits) throws(ImageError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError(.truncated, "\(path): empty WebP file")
        }
        try WebPLibrary.load(for: path)
        var data = WebPData(bytes: base, size: bytes.count)
        var state = WEBP_DEMUX_PARSE_ERROR
        guard let demux = WebPDemuxPartial(&data, &state) else {
            throw ImageError(.corruptData, "\(path): not a valid WebP file (its RIFF chunks do not parse)")
        }
        defer { WebPDemuxDelete(demux) }
        guard state == WEBP_DEMUX_DONE else {
            throw ImageError(.truncated, "\(path): the WebP file ends before its last chunk")
        }
        let canvas = PixelSize(
            width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
            height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
        guard canvas.width > 0, canvas.height > 0 else {
            throw ImageError(.corruptData, "\(path): WebP canvas is empty")
        }
        try limits.check(canvas, path: path)
        self.canvas = canvas
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        let animated = flags & UInt32(ANIMATION_FLAG.rawValue) != 0
        loopCount = animated ? Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)) : nil

        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iterator) != 0 else {
            throw ImageError(.corruptData, "\(path): the WebP file has no image data")
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        guard iterator.complete != 0, let fragment = iterator.fragment.bytes, iterator.fragment.size > 0 else {
            throw ImageError(.truncated, "\(path): the first WebP frame is incomplete")
        }
        let start = UnsafeRawPointer(fragment) - UnsafeRawPointer(base)
        guard start >= 0, start + iterator.fragment.size <= bytes.count else {
            throw ImageError(.corruptData, "\(path): the first WebP frame lies outside the file")
        }
        frameData = start..<(start + iterator.fragment.size)
        let rect = (
            x: Int(iterator.x_offset), y: Int(iterator.y_offset), width: Int(iterator.width),
            height: Int(iterator.height)
        )
        guard rect.width > 0, rect.height > 0, rect.x + rect.width <= canvas.width,
            rect.y + rect.height <= canvas.height
        else {
            throw ImageError(
                .corruptData,
                "\(path): the first WebP frame (\(rect.width)x\(rect.height) at \(rect.x),\(rect.y)) is outside the \(canvas) canvas"
            )
        }
        frameRect = rect
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(fragment, iterator.fragment.size, &features)
        guard status == VP8_STATUS_OK else {
            throw WebPDecoder.error(status, path: path, during: "reading the first frame's header")
        }
        guard Int(features.width) == rect.width, Int(features.height) == rect.height else {
            throw ImageError(
                .corruptData,
                "\(path): the WebP frame header says \(features.width)x\(features.height), its chunk \(rect.width)x\(rect.height)"
            )
        }
        isLossless = features.format == 2
        frameHasAlpha = features.has_alpha != 0
        alphaIsCompressed =
            !isLossless && frameHasAlpha
            && Self.alphaCompression(in: UnsafeRawBufferPointer(rebasing: bytes[frameData])) != 0

        func chunk(_ fourCC: String) -> Range<Int>? {
            var chunk = WebPChunkIterator()
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard WebPDemuxGetChunk(demux, fourCC, 1, &chunk) != 0, let p = chunk.chunk.bytes else { return nil }
            let offset = UnsafeRawPointer(p) - UnsafeRawPointer(base)
            guard offset >= 0, offset + chunk.chunk.size <= bytes.count else { return nil }
            return offset..<(offset + chunk.chunk.size)
        }
        exifRange = chunk("EXIF")
        iccRange = chunk("ICCP")
        var names: [String] = []
        if flags != 0 || animated { names.append("VP8X") }
        if animated { names += ["ANIM", "animated"] }
        if !isLossless && frameHasAlpha { names.append("ALPH") }
        names.append(isLossless ? "VP8L" : "VP8")
        if iccRange != nil { names.append("ICCP") }
        if exifRange != nil { names.append("EXIF") }
        if chunk("XMP ") != nil { names.append("XMP") }
        self.features = names
    }
}
