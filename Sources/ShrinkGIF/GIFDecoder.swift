import ShrinkCore

/// A GIF file's header and the way its first frame decodes, read by ``GIFStructure``'s walk without decoding any
/// LZW data.
///
/// Only the first frame is decoded (later frames are counted, never decoded: no DGifSlurp). It is placed on the
/// canvas at its offset; outside it the canvas is the transparent index when the frame has one, else palette
/// index 0 — what Pillow shows for frame 0 (it does not paint the background colour). A non-interlaced frame
/// streams: Shrink's LZW decoder (``GIFLZWLines``) decodes one row into a line buffer and it is expanded through the colour table straight into
/// the caller's row. An interlaced frame's indices are buffered (1 byte per frame pixel) and rows handed out in
/// order.
package struct GIFDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    /// The block structure: screen, first frame, frame count.
    package let structure: GIFStructure
    /// Header values.
    package let info: ImageInfo
    /// The limits the file was opened with.
    package let limits: ImageLimits

    /// Walks the file's blocks. Fails with `.limitExceeded` (screen or canvas above `limits.maxPixels`, checked
    /// before anything is allocated), `.truncated` or `.corruptData` (see ``GIFStructure``).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        let s = try GIFStructure(bytes: bytes, path: path, limits: limits)
        structure = s
        var warnings = s.warnings
        var iccBytes = s.iccProfile?.length ?? 0
        if iccBytes > limits.maxChunkBytes {
            warnings.append("ICC profile of \(iccBytes) bytes is above the limit of \(limits.maxChunkBytes); ignored")
            iccBytes = 0
        }
        info = ImageInfo(
            format: .gif, size: s.canvas, colorModel: .palette, bitsPerComponent: 8,
            hasAlpha: s.firstFrame.transparentIndex != nil, isProgressive: s.firstFrame.isInterlaced,
            iccProfileBytes: iccBytes, features: s.features, frameCount: s.frameCount, loopCount: s.loopCount,
            warnings: warnings, layout: s.firstFrame.isInterlaced ? "interlaced" : "non-interlaced")
    }

    /// The ICC profile of an `ICCRGBG1012` application extension before the first frame, when there is one (and it
    /// is within `limits.maxChunkBytes`); GIF has no EXIF.
    package func metadata() throws(ImageError) -> ImageMetadata {
        guard let icc = structure.iccProfile, info.iccProfileBytes > 0 else { return ImageMetadata() }
        let b = bytes.bytes
        var profile: [UInt8] = []
        profile.reserveCapacity(icc.length)
        var q = icc.offset
        while q < b.count, b[q] != 0, profile.count < icc.length {
            let size = Int(b[q])
            guard q + 1 + size <= b.count else { break }
            profile += b[q + 1..<q + 1 + size]
            q += 1 + size
        }
        return ImageMetadata(iccProfile: profile)
    }

    /// GIF decodes at full size only.
    package var scaleDenominators: [Int] { [1] }

    package func scaledSize(denominator: Int) -> PixelSize {
        let d = max(1, denominator)
        return PixelSize(width: (info.size.width + d - 1) / d, height: (info.size.height + d - 1) / d)
    }

    /// rgba8 when the first frame has a transparent index, else rgb8: rows and results alike.
    package var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : .rgb8 }

    /// An interlaced first frame holds its indices, 1 byte per frame pixel; a non-interlaced one streams: 0.
    package var workingBytes: Int { structure.firstFrame.isInterlaced ? structure.firstFrame.size.pixelCount : 0 }

    /// The LZW reader (``GIFLZWLines/heldBytes``: its code table, carry-over and window of sub-block bytes) and the
    /// colour table (1 KiB); a line of the frame's width when rows stream; and for a mapped input the pages read and
    /// not yet released (``GIFLZWLines/dropStep`` plus a 64 KiB fault-around block). An interlaced frame's indices
    /// are ``workingBytes``, not state.
    package var stateBytes: Int {
        let input = bytes.isPageAlignedMapping ? GIFLZWLines.dropStep + 64 << 10 : 0
        let line = structure.firstFrame.isInterlaced ? 0 : structure.firstFrame.size.width
        return GIFLZWLines.heldBytes + 1 << 10 + line + input
    }

    /// The route: the first frame's rows streamed onto the canvas (``DecodePath/firstFrameRows``), or for an
    /// interlaced frame its indices buffered first (``DecodePath/interlacedFrame``). Always the whole canvas at
    /// full size (no scaling; a window is cut by the renderer).
    package func route(_ request: RouteRequest) -> DecodeRoute {
        DecodeRoute(
            path: structure.firstFrame.isInterlaced ? .interlacedFrame : .firstFrameRows, output: .rows(outputFormat),
            decodedSize: info.size, workingBytes: workingBytes, stateBytes: stateBytes, decoder: "shrink"
        ) { [self] options, monitor throws(ImageError) in
            .rows(try GIFRowDecoder(decoder: self, options: options, monitor: monitor))
        }
    }

    /// The frame-by-frame decode of an animated GIF (``GIFAnimation``); nil for a single frame. The limits'
    /// animation caps are checked by the caller (``ImageLimits/animationRefusal(frames:canvas:)``).
    package func animation(options: DecodeOptions, monitor: DecodeMonitor?) throws(ImageError)
        -> (any AnimationDecoding)?
    {
        guard structure.frameCount > 1 else { return nil }
        if options.strict, let first = structure.warnings.first {
            throw ImageError(
                structure.isTruncated ? .truncated : .corruptData, "\(path): \(first) (strict decoding)")
        }
        return GIFAnimation(decoder: self, monitor: monitor)
    }

    /// The delays of the graphics control extensions, in milliseconds, found by walking the blocks (no LZW decoded).
    package func frameDurations(limit: Int) -> [Int] {
        guard structure.frameCount > 1 else { return [] }
        var durations = [structure.firstFrame.delay * 10]
        var walker = GIFFrameWalker(
            bytes: bytes, globalPalette: structure.globalPalette, from: structure.afterFirstFrame)
        while durations.count < limit, let frame = walker.next() { durations.append(frame.delay * 10) }
        return durations
    }

    /// Starts a row decode of the first frame on its canvas.
    package func startDecoding(options: DecodeOptions = DecodeOptions()) throws(ImageError) -> any RowDecoding {
        try GIFRowDecoder(decoder: self, options: options, monitor: nil)
    }
}
