import CShrinkJPEG
import ShrinkCore

/// A JPEG file's header and the ways it can be decoded, read without decoding any pixel.
///
/// Creating one costs a libjpeg header parse (a few KiB, freed before `init` returns) and a bounds-checked
/// walk over the metadata markers. Each ``startDecoding(_:)`` creates its own libjpeg decoder, so one
/// `JPEGDecoder` can serve many decodes.
package struct JPEGDecoder: ImageDecoding {
    /// What libjpeg-turbo can scale by while decoding (1/1, 1/2, 1/4, 1/8).
    package var scaleDenominators: [Int] { [1, 2, 4, 8] }

    /// The encoded bytes (kept alive for every decode).
    package let bytes: ImageBytes
    /// The name used in error messages.
    package let path: String
    /// Header values.
    package let info: ImageInfo
    /// True for arithmetic-coded files.
    package let isArithmeticCoded: Bool
    /// True when libjpeg must buffer every DCT coefficient of the image before producing a row:
    /// progressive files and non-interleaved (multi-scan) baseline files.
    package let buffersWholeImage: Bool
    /// True for CMYK and YCCK files with an Adobe (APP14) marker, whose ink Adobe's applications store inverted.
    let inkInverted: Bool
    /// Restart interval in MCUs (0 when none).
    package let restartInterval: Int
    /// The limits decodes of this file run under (``ImageLimits/maxScans`` is enforced while decoding).
    package let limits: ImageLimits
    private let colorSpace: Int32
    private let samplingH: [Int]
    private let samplingV: [Int]
    private let dcFirstCache = ReadOnce<DCFirstDecoder>()
    private let dcOnlyCache = ReadOnce<BaselineDCDecoder>()
    private let restartCache = ReadOnce<JPEGRestartLayout>()

    /// Reads the header of the JPEG in `bytes`. Fails with `.corruptData`, `.truncated` or
    /// `.unsupportedFeature` when libjpeg cannot read the frame header.
    package init(bytes: ImageBytes, path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        var header = sj_header()
        guard
            let d = sj_create(
                bytes.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, 0,
                Int32(clamping: limits.maxScans))
        else {
            throw ImageError(.outOfMemory, "\(path): cannot create a JPEG decoder")
        }
        defer { sj_destroy(d) }
        let status = sj_read_header(d, &header)
        guard status == Int32(SJ_OK.rawValue) else {
            throw ImageError.jpeg(status, decoder: d, path: path, during: "reading the header")
        }
        var warnings = jpegWarnings(d)
        guard header.precision == 8 else {
            throw ImageError(.unsupportedFeature, "\(path): \(header.precision)-bit JPEG is not supported")
        }
        let components = Int(header.components)
        let h = withUnsafeBytes(of: header.h_samp) {
            Array($0.bindMemory(to: Int32.self).prefix(components)).map(Int.init)
        }
        let v = withUnsafeBytes(of: header.v_samp) {
            Array($0.bindMemory(to: Int32.self).prefix(components)).map(Int.init)
        }
        samplingH = h
        samplingV = v
        colorSpace = header.color_space
        isArithmeticCoded = header.arithmetic != 0
        buffersWholeImage = header.multi_scan != 0
        inkInverted = header.saw_adobe != 0
        restartInterval = Int(header.restart_interval)

        let markers = JPEGMarkers(scanning: bytes.bytes)
        var orientation = ImageOrientation.up
        var exifBytes = 0
        var thumbnail: PixelSize?
        if let range = markers.exifRange {
            exifBytes = range.count
            let tiff = UnsafeRawBufferPointer(rebasing: bytes.bytes[range])
            let exif = ExifReader(tiff: tiff)
            orientation = exif.orientation
            if let problem = exif.problem { warnings.append("\(problem); EXIF ignored") }
            if let t = exif.thumbnailRange {
                thumbnail = JPEGMarkers(scanning: UnsafeRawBufferPointer(rebasing: tiff[t])).frameSize
            }
        }
        warnings += markers.iccWarnings
        let model: ColorModel
        switch Int(header.color_space) {
        case Int(SJ_CS_GRAY): model = .gray
        case Int(SJ_CS_RGB): model = .rgb
        case Int(SJ_CS_CMYK): model = .cmyk
        case Int(SJ_CS_YCCK): model = .ycck
        default: model = .yCbCr
        }
        info = ImageInfo(
            format: .jpeg,
            size: PixelSize(width: Int(header.width), height: Int(header.height)),
            orientation: orientation,
            colorModel: model,
            bitsPerComponent: Int(header.precision),
            hasAlpha: false,
            isProgressive: header.progressive != 0,
            chromaSubsampling: model == .yCbCr ? ChromaSubsampling(horizontal: h, vertical: v) : nil,
            iccProfileBytes: markers.iccProfileBytes,
            exifBytes: exifBytes,
            embeddedThumbnail: thumbnail,
            features: (header.arithmetic != 0 ? ["arithmetic"] : [])
                + (header.restart_interval > 0 ? ["restart markers"] : [])
                + (header.multi_scan != 0 && header.progressive == 0 ? ["multi-scan"] : [])
                + (header.saw_adobe != 0 ? ["Adobe transform \(header.adobe_transform)"] : []),
            warnings: warnings,
            layout: header.progressive != 0 ? "progressive" : "baseline"
        )
    }

    /// The JPEG thumbnail embedded in the EXIF block (IFD1), copied out; nil when there is none. Its pixels
    /// are stored like the main image's, so the main image's EXIF orientation applies to it too.
    package func embeddedThumbnailBytes() -> [UInt8]? {
        let markers = JPEGMarkers(scanning: bytes.bytes)
        guard let range = markers.exifRange else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: bytes.bytes[range])
        guard let t = ExifReader(tiff: tiff).thumbnailRange, t.upperBound <= tiff.count else { return nil }
        return Array(tiff[t])
    }

    package func metadata() throws(ImageError) -> ImageMetadata {
        let markers = JPEGMarkers(scanning: bytes.bytes)
        return ImageMetadata(
            iccProfile: markers.iccProfile(in: bytes.bytes),
            exif: markers.exifRange.map { Array(bytes.bytes[$0]) })
    }

    /// The pixel format decoded rows come in: gray8 for gray files, rgb8 for everything else.
    package var outputFormat: PixelFormat { info.colorModel == .gray ? .gray8 : .rgb8 }

    /// The size libjpeg produces at 1/`denominator` (it rounds up, so no axis reaches 0).
    package func scaledSize(denominator: Int) -> PixelSize {
        PixelSize(
            width: (info.size.width + denominator - 1) / denominator,
            height: (info.size.height + denominator - 1) / denominator)
    }

    /// Bytes libjpeg allocates to buffer the whole image's DCT coefficients on its routes (progressive and
    /// multi-scan files; whatever the scale), or 0 for single-scan files that stream. The DC-first routes hold
    /// their own (``route(_:)`` reads ``DCFirstDecoder/workingBytes``).
    package var libjpegWorkingBytes: Int {
        buffersWholeImage ? coefficientBytes(of: info.size) : 0
    }

    /// Bytes of DCT coefficients for an image of `size` sampled like this file: 64 coefficients of 2 bytes per
    /// block of every component, blocks rounded up to whole MCUs (what libjpeg's virtual arrays hold).
    package func coefficientBytes(of size: PixelSize) -> Int {
        let maxH = samplingH.max() ?? 1, maxV = samplingV.max() ?? 1
        var total = 0
        for (h, v) in zip(samplingH, samplingV) {
            let blocksWide = (size.width * h + 8 * maxH - 1) / (8 * maxH)
            let blocksHigh = (size.height * v + 8 * maxV - 1) / (8 * maxV)
            let roundedWide = (blocksWide + h - 1) / h * h
            let roundedHigh = (blocksHigh + v - 1) / v * v
            total += roundedWide * roundedHigh * 64 * 2
        }
        return total
    }

    /// Bytes a lossless transform holds at its peak, from the header: TurboJPEG reads every coefficient of
    /// the source, then builds the destination's (the crop's, or the whole image again for a rotation or
    /// flip), and writes an output about the input's size.
    package func transformBytes(_ operation: JPEGTransform.Operation, cropSize: PixelSize? = nil) -> Int {
        let source = coefficientBytes(of: info.size)
        let destination = cropSize.map(coefficientBytes(of:)) ?? (operation == .none ? 0 : source)
        return source + destination + bytes.count
    }

    /// This JPEG transformed losslessly (see ``JPEGTransform/apply(_:to:path:trim:crop:)``), after checking
    /// from the header what it would cost: the pixel limit (`.limitExceeded`), the scan limit
    /// (`.limitExceeded`, counted by a walk over the markers) and `memoryBudget` against
    /// ``transformBytes(_:cropSize:)`` (`.memoryBudgetExceeded`), all before anything is allocated.
    package func transformed(
        _ operation: JPEGTransform.Operation, trim: Bool = false,
        crop: (x: Int, y: Int, width: Int, height: Int)? = nil,
        memoryBudget: Int
    ) throws(ImageError) -> [UInt8] {
        try limits.check(info.size, path: path)
        let scans = JPEGMarkers.scanCount(in: bytes.bytes, upTo: limits.maxScans + 1)
        guard scans <= limits.maxScans else {
            throw ImageError.tooManyScans(path: path, limit: limits.maxScans)
        }
        let needed = transformBytes(operation, cropSize: crop.map { PixelSize(width: $0.width, height: $0.height) })
        try ImageLimits.check(
            workingBytes: needed, limit: memoryBudget, for: "a lossless transform (its DCT coefficients)", path: path)
        return try JPEGTransform.apply(operation, to: bytes, path: path, trim: trim, crop: crop)
    }

    /// The DC-first decoder for this file: progressive Huffman, gray or YCbCr 4:4:4 or 4:2:0, every
    /// component with a DC scan; nil otherwise (libjpeg decodes it, and refuses a file with too many scans with
    /// the same limit). Reading the scan script walks the file once; the result is cached.
    var dcFirst: DCFirstDecoder? {
        let bytes = bytes, path = path, maxScans = limits.maxScans
        return dcFirstCache.value(
            eligible: info.isProgressive && !isArithmeticCoded
                && (info.colorModel == .gray || info.colorModel == .yCbCr)
        ) {
            () throws(ImageError) in
            try DCFirstDecoder(
                bytes: bytes.bytes, path: path, maxScans: maxScans,
                release: { bytes.releaseResidentPages(in: 0..<max(0, $0)) })
        }
    }

    /// The DC-only decoder for this file's 1/8 planes (``BaselineDCDecoder``): sequential Huffman YCbCr that
    /// decodes to planes, in one interleaved scan; nil otherwise. Reads the headers up to the scan once.
    var dcOnly: BaselineDCDecoder? {
        let bytes = bytes, path = path
        return dcOnlyCache.value(eligible: !info.isProgressive && !isArithmeticCoded && decodesToPlanes) {
            () throws(ImageError) in
            try BaselineDCDecoder(bytes: bytes.bytes, path: path)
        }
    }

    /// Where this file's restart markers cut it into bands that decode on several threads (``JPEGRestartBands``): a
    /// sequential Huffman file that decodes to planes, has restart markers and at least
    /// ``JPEGRestartLayout/minimumPixels``; nil otherwise. Walks the headers once; the result is cached.
    var restartLayout: JPEGRestartLayout? {
        let bytes = bytes
        return restartCache.value(
            eligible: !info.isProgressive && !isArithmeticCoded && !buffersWholeImage && restartInterval > 0
                && decodesToPlanes && info.size.pixelCount >= JPEGRestartLayout.minimumPixels
        ) { () throws(ImageError) in
            guard let layout = JPEGRestartLayout(bytes: bytes.bytes), layout.size == info.size,
                layout.interval == restartInterval, layout.sampling.map(\.h) == samplingH,
                layout.sampling.map(\.v) == samplingV
            else {
                throw ImageError(.unsupportedFeature, "restart intervals do not cut this file into bands")
            }
            return layout
        }
    }

    /// True when a 1/8 decode of this file takes the DC-first path (``startDCFirst(options:monitor:)``): it
    /// holds a few bytes per block instead of libjpeg's whole-image coefficient buffer.
    package var decodesDCFirst: Bool { dcFirst != nil }

    /// Starts a 1/8 decode through the DC-first path. Fails with `.unsupportedFeature` when the file does
    /// not allow it (see ``decodesDCFirst``).
    package func startDCFirst(options: DecodeOptions = DecodeOptions(), monitor: DecodeMonitor? = nil)
        throws(ImageError) -> JPEGDCRowDecoder
    {
        guard let dc = dcFirst else { throw ImageError(.unsupportedFeature, "\(path): no DC-first path for this file") }
        return JPEGDCRowDecoder(bytes: bytes, decoder: dc, strict: options.strict, monitor: monitor)
    }

    /// libjpeg's own allocations while decoding at 1/`scaleDenominator`: tables and controllers plus its row-group
    /// sample buffers, per decoded column (calibrated against measured heap growth: BENCHMARKS.md, "Memory
    /// prediction").
    package func libjpegStateBytes(scaleDenominator: Int) -> Int {
        16 << 10 + 64 * scaledSize(denominator: scaleDenominator).width
    }

    /// Of a mapped input, the pages one libjpeg decoder has touched and not yet released: up to a release step behind
    /// its window, the window, and 96 KiB the kernel maps around its faults (calibrated against measured resident
    /// pages: BENCHMARKS.md, "Memory prediction"); 0 for bytes in memory, counted with the input.
    var residentInputBytes: Int {
        bytes.isPageAlignedMapping ? Int(SJ_RELEASE_STEP) + Int(SJ_WINDOW) + 96 << 10 : 0
    }

    /// The route for `request`: at 1/8 with planes wanted, Shrink's DC-only decoder for a sequential file; the
    /// DC-first decoder at 1/8 when the file allows it (its DC values straight as
    /// planes when planes are wanted); Y, Cb, Cr planes when
    /// they are wanted and the sampling allows them; libjpeg rows otherwise — with its whole-image coefficient
    /// buffer for progressive and multi-scan files, and only the window's columns and rows when one is given.
    package func route(_ request: RouteRequest) -> DecodeRoute {
        let d = request.scaleDenominator
        let size = scaledSize(denominator: d)
        if d == 8, request.wantsPlanes, let dc = dcOnly {
            // Planes wanted from a sequential file: each block's DC value is its sample; the AC codes are skipped.
            let bytes = bytes
            return DecodeRoute(
                path: .dcOnly, output: .planes, decodedSize: size, workingBytes: 0,
                stateBytes: dc.stateBytes(mapped: bytes.isPageAlignedMapping), decoder: "shrink"
            ) { options, monitor in
                .planes(JPEGDCOnlyPlaneDecoder(bytes: bytes, decoder: dc, strict: options.strict, monitor: monitor))
            }
        }
        if d == 8, let dc = dcFirst {
            let bytes = bytes
            if request.wantsPlanes && decodesToPlanes {
                // Planes wanted: the DC values are the planes (4:2:0 chroma already at half size); no AC scan is read.
                return DecodeRoute(
                    path: .dcFirst, output: .planes, decodedSize: size, workingBytes: dc.dcPlanesWorkingBytes,
                    stateBytes: dc.dcPlanesStateBytes(mapped: bytes.isPageAlignedMapping), decoder: "shrink"
                ) { options, monitor throws(ImageError) in
                    .planes(JPEGDCPlaneDecoder(bytes: bytes, decoder: dc, strict: options.strict, monitor: monitor))
                }
            }
            return DecodeRoute(
                path: .dcFirst, output: .rows(outputFormat), decodedSize: size, workingBytes: dc.workingBytes,
                stateBytes: dc.stateBytes(mapped: bytes.isPageAlignedMapping), decoder: "shrink"
            ) { options, monitor throws(ImageError) in
                .rows(JPEGDCRowDecoder(bytes: bytes, decoder: dc, strict: options.strict, monitor: monitor))
            }
        }
        let working = libjpegWorkingBytes, decoderState = libjpegStateBytes(scaleDenominator: d)
        let state = decoderState + residentInputBytes
        if request.wantsPlanes && request.helped, let layout = restartLayout {
            // Bands cut at the restart markers, decoded on the reader's thread and on helpers lent while cores idle:
            // two rows of bands are held, and of a mapped input a release step beside the codes of the bands in
            // flight (looked through before they are decoded: an average band's codes, half as much again for bands
            // of more detail than the average; an estimate, not a bound); each helper holds a libjpeg decoder like
            // the reader's.
            let band = JPEGRestartBands.bandBytes(
                lumaWidth: size.width, layout: layout, scaleDenominator: d,
                subsampled: samplingH == [2, 1, 1] && samplingV == [2, 1, 1])
            let codes = (bytes.count - layout.dataStart) / layout.bands + 1
            let input =
                bytes.isPageAlignedMapping
                ? JPEGRestartBands.releaseStep + 3 * JPEGRestartBands.bandsPerRow * codes : 0
            let (bytes, path, maxScans) = (bytes, path, limits.maxScans)
            let helperBytes = decoderState + layout.header.count
            return DecodeRoute(
                path: .restartBands, output: .planes, decodedSize: size,
                workingBytes: 2 * JPEGRestartBands.bandsPerRow * band + input, stateBytes: decoderState,
                decoder: "libjpeg-turbo", helperBytes: helperBytes
            ) { options, _ throws(ImageError) in
                .planes(
                    try JPEGRestartBands(
                        layout: layout, bytes: bytes, path: path, scaleDenominator: d, options: options,
                        maxScans: maxScans, helpers: options.helpers, helperBytes: helperBytes))
            }
        }
        if request.wantsPlanes && decodesToPlanes {
            return DecodeRoute(
                path: .dctScaledPlanes, output: .planes, decodedSize: size, workingBytes: working,
                stateBytes: state, decoder: "libjpeg-turbo"
            ) { [self] options, _ throws(ImageError) in
                .planes(try startPlanes(scaleDenominator: d, options: options))
            }
        }
        let window = request.window
        return DecodeRoute(
            path: buffersWholeImage ? .coefficientBuffer : .dctScaledRows, output: .rows(outputFormat),
            decodedSize: size, workingBytes: working, stateBytes: state, decoder: "libjpeg-turbo"
        ) { [self] options, _ throws(ImageError) in
            .rows(try startRows(scaleDenominator: d, options: options, window: window))
        }
    }

    /// DCT-domain rotations and crops (TurboJPEG), cost-checked from the header.
    package var losslessTransforms: (any LosslessTransforming)? { JPEGLosslessTransforms(decoder: self) }

    /// The iMCU size in pixels (8 × the largest sampling factors): lossless crops start on its multiples.
    package var iMCUSize: (width: Int, height: Int) { (8 * (samplingH.max() ?? 1), 8 * (samplingV.max() ?? 1)) }

    /// True when the file can be decoded straight to Y, Cb, Cr planes: three-component YCbCr whose luma is
    /// the most sampled component both ways and whose chroma components share one sampling (every usual
    /// subsampling; exotic ones such as Y 4×1 with Cb 2×1 and Cr 2×2 take the RGB path).
    package var decodesToPlanes: Bool {
        info.colorModel == .yCbCr && samplingH.count == 3
            && samplingH[0] == samplingH.max() && samplingV[0] == samplingV.max()
            && samplingH[1] == samplingH[2] && samplingV[1] == samplingV[2]
    }

    /// Starts a planar decode at 1/`scaleDenominator`: Y, Cb and Cr with no colour conversion.
    package func startPlanes(scaleDenominator: Int, options: DecodeOptions = DecodeOptions()) throws(ImageError)
        -> JPEGPlaneDecoder
    {
        guard decodesToPlanes else { throw ImageError(.invalidArgument, "\(path): not a YCbCr JPEG") }
        guard scaleDenominators.contains(scaleDenominator) else {
            throw ImageError(
                .invalidArgument, "\(path): JPEG scale must be 1/1, 1/2, 1/4 or 1/8, not 1/\(scaleDenominator)")
        }
        return try JPEGPlaneDecoder(
            bytes: bytes, path: path, scaleDenominator: scaleDenominator, options: options,
            maxScans: limits.maxScans)
    }

    /// Starts a row decode at 1/`scaleDenominator`: with a `window`, only the columns of it (widened to iMCU
    /// boundaries) are produced and the rows above it are skipped (jpeg_crop_scanline, jpeg_skip_scanlines).
    package func startRows(
        scaleDenominator: Int, options: DecodeOptions = DecodeOptions(),
        window: FractionalRect? = nil
    ) throws(ImageError) -> JPEGRowDecoder {
        guard scaleDenominators.contains(scaleDenominator) else {
            throw ImageError(
                .invalidArgument, "\(path): JPEG scale must be 1/1, 1/2, 1/4 or 1/8, not 1/\(scaleDenominator)")
        }
        return try JPEGRowDecoder(
            bytes: bytes, path: path, scaleDenominator: scaleDenominator, options: options,
            gray: info.colorModel == .gray, cmyk: info.colorModel.isInk, inkInverted: inkInverted, window: window,
            maxScans: limits.maxScans)
    }
}
