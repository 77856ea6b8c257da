import CShrinkWebP
import ShrinkCore

/// A WebP file's header and the ways it can be decoded, read without decoding any pixel (a container walk
/// with libwebp's demuxer and a frame-header read).
///
/// Lossy frames decode through libwebp's own scaler to any size: straight to Y, U, V planes when the result
/// is YUV, else to RGB or RGBA rows, so the full-size image never exists (libwebp keeps a few rows of the
/// coded width; an alpha plane is held at full size, 1 B/px). Lossless (VP8L) frames are held whole by
/// libwebp while they decode (4 B/px at full size): that cost is predicted and charged. Animations decode
/// their first frame only, placed on the canvas.
package struct WebPDecoder: ImageDecoding {
    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    /// Header values.
    package let info: ImageInfo
    let container: WebPContainer

    /// Reads the container and the first frame's header. Fails with `.corruptData`, `.truncated` or
    /// `.limitExceeded` (the canvas against `limits`, before anything is allocated).
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        let container = try WebPContainer(bytes: bytes.bytes, path: path, limits: limits)
        self.container = container
        var orientation = ImageOrientation.up
        var warnings: [String] = []
        if let range = container.exifRange {
            let exif = ExifReader(tiff: Self.tiff(in: UnsafeRawBufferPointer(rebasing: bytes.bytes[range])))
            orientation = exif.orientation
            if let problem = exif.problem { warnings.append("\(problem); EXIF ignored") }
        }
        // An animation's canvas is transparent where its first frame does not reach.
        let alpha = container.frameHasAlpha || !container.frameCoversCanvas
        info = ImageInfo(
            format: .webp, size: container.canvas, orientation: orientation,
            colorModel: container.isLossless ? (alpha ? .rgba : .rgb) : .yCbCr,
            hasAlpha: alpha, chromaSubsampling: container.isLossless ? nil : .s420,
            iccProfileBytes: container.iccRange?.count ?? 0, exifBytes: container.exifRange?.count ?? 0,
            features: container.features, frameCount: container.frameCount, loopCount: container.loopCount,
            warnings: warnings, layout: container.isLossless ? "lossless (VP8L)" : "lossy (VP8)")
    }

    /// An EXIF chunk is a TIFF structure; some writers put JPEG's `Exif\0\0` prefix in front.
    static func tiff(in exif: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let prefix: [UInt8] = Array("Exif\0\0".utf8)
        guard exif.count >= 6, zip(exif.prefix(6), prefix).allSatisfy({ $0 == $1 }) else { return exif }
        return UnsafeRawBufferPointer(rebasing: exif[6...])
    }

    package func metadata() throws(ImageError) -> ImageMetadata {
        ImageMetadata(
            iccProfile: container.iccRange.map { Array(bytes.bytes[$0]) },
            exif: container.exifRange.map { Array(Self.tiff(in: UnsafeRawBufferPointer(rebasing: bytes.bytes[$0]))) })
    }

    /// Any integer reduction while decoding (libwebp's scaler) when the first frame fills the canvas; an
    /// animation frame smaller than its canvas decodes at full size.
    package var scaleDenominators: [Int] { container.frameCoversCanvas ? Array(1...64) : [1] }

    /// The size libwebp's scaler is asked for at 1/`denominator`: each side divided and rounded, at least 1.
    package func scaledSize(denominator d: Int) -> PixelSize {
        PixelSize(width: max(1, (info.size.width + d / 2) / d), height: max(1, (info.size.height + d / 2) / d))
    }

    package var outputFormat: PixelFormat { info.hasAlpha ? .rgba8 : .rgb8 }

    /// The route for `request`: only the window's part of the frame when one is given (libwebp crops before
    /// it scales); Y, U, V planes from libwebp's scaler for an opaque lossy frame when planes are wanted
    /// (`scaledPlanes`); RGB or RGBA rows from it otherwise (`scaledRows`); for lossless frames
    /// the same rows after libwebp has held the whole image (`wholeImage`). Working memory: the scaled frame,
    /// plus the full-size alpha plane (1 B/px) of a lossy frame with alpha or the full-size ARGB image
    /// (4 B/px) of a lossless one. A compressed alpha plane is itself a lossless bitstream, which libwebp decodes
    /// through 1 or 4 bytes per pixel (by content) plus its Huffman tables, beside the plane; the route charges 7 B/px
    /// for a compressed plane instead of 1 (calibrated against the allocator's high-water mark: BENCHMARKS.md, "Figures
    /// behind the code").
    /// The `ANMF` chunks' durations, read by libwebp's demuxer.
    package func frameDurations(limit: Int) -> [Int] {
        guard container.frameCount > 1, let base = bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return []
        }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demux = WebPDemux(&data) else { return [] }
        defer { WebPDemuxDelete(demux) }
        var durations: [Int] = []
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iterator) != 0 else { return [] }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            durations.append(Int(iterator.duration))
        } while durations.count < limit
            && WebPDemuxNextFrame(&iterator) != 0
        return durations
    }

    /// The frame-by-frame decode of an animated WebP (``WebPAnimation``); nil for a still image.
    package func animation(options: DecodeOptions, monitor: DecodeMonitor?) throws(ImageError)
        -> (any AnimationDecoding)?
    {
        guard container.frameCount > 1 else { return nil }
        return try WebPAnimation(bytes: bytes, path: path, monitor: monitor)
    }

    package func route(_ request: RouteRequest) -> DecodeRoute {
        let d = scaleDenominators.contains(request.scaleDenominator) ? request.scaleDenominator : 1
        let canvas = scaledSize(denominator: d)
        let frameRect = container.frameRect
        let coded = PixelSize(width: frameRect.width, height: frameRect.height)
        // A window (a crop or a cover fit) of a frame that fills the canvas: libwebp emits only that part,
        // scaled by the same factor (its rows above are decoded, not kept).
        let crop =
            container.frameCoversCanvas
            ? request.window.flatMap { WebPCrop(covering: $0, scaled: canvas, of: coded) } : nil
        let frameSize: PixelSize =
            if let crop {
                PixelSize(
                    width: max(1, Int((Double(crop.width) * Double(canvas.width) / Double(coded.width)).rounded())),
                    height: max(1, Int((Double(crop.height) * Double(canvas.height) / Double(coded.height)).rounded())))
            } else {
                container.frameCoversCanvas ? canvas : coded
            }
        let planes = request.wantsPlanes && !container.isLossless && !info.hasAlpha
        // Lossy frames with alpha scale as YUVA (premultiplied inside libwebp's scaler), the rest as RGB(A).
        let mode: WebPFrame.Mode =
            planes
            ? .yuv
            : !info.hasAlpha
                ? .rgb
                : !container.isLossless && container.frameHasAlpha && frameSize != coded ? .yuva : .rgba
        var working = WebPFrame.byteCount(of: frameSize, mode: mode)
        if container.isLossless {
            working += coded.pixelCount * 4
        } else if container.frameHasAlpha {
            working += coded.pixelCount * (container.alphaIsCompressed ? 7 : 1)
        }
        let path: DecodePath = container.isLossless ? .wholeImage : planes ? .scaledPlanes : .scaledRows
        let (bytes, name, range) = (bytes, self.path, container.frameData)
        let origin = container.frameCoversCanvas ? (x: 0, y: 0) : (x: frameRect.x, y: frameRect.y)
        let rowsSize = crop == nil ? canvas : frameSize
        return DecodeRoute(
            path: path, output: planes ? .planes : .rows(mode == .rgb ? .rgb8 : .rgba8), decodedSize: rowsSize,
            workingBytes: working, stateBytes: stateBytes(codedWidth: coded.width, outputWidth: frameSize.width),
            geometry: .uniform, sourceRect: crop?.rect, decoder: "libwebp"
        ) { options, monitor throws(ImageError) in
            let frame = try WebPFrame(
                bytes: bytes, range: range, codedSize: coded, crop: crop, size: frameSize, mode: mode,
                fast: options.fast, monitor: monitor, path: name)
            return planes
                ? .planes(WebPPlaneDecoder(frame: frame, path: name))
                : .rows(WebPRowDecoder(frame: frame, canvas: rowsSize, at: origin, path: name))
        }
    }

    /// libwebp's own state while decoding: tables and per-macroblock context, the row cache of the coded width (rows of
    /// YUV plus filter and intra-prediction rows) and the scaler's accumulators: charged as 160 KiB plus 112 B per
    /// coded column plus 48 B per output column, at or above a fit to the allocator's high-water mark (glibc told not
    /// to map or trim) on lossy files of many widths (BENCHMARKS.md, "Figures behind the code").
    func stateBytes(codedWidth: Int, outputWidth: Int) -> Int {
        160 << 10 + 112 * codedWidth + 48 * outputWidth
    }
}
