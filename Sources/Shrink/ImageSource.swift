import ShrinkCore
import ShrinkResample

/// An encoded image and everything its header tells, like `CGImageSource`: create one from a file (memory
/// mapped, never read into the heap) or from bytes, read ``info`` for free, then ask for a thumbnail.
///
/// Creating a source reads only the header: no pixel is decoded and nothing of pixel size is allocated.
/// A thumbnail is decoded at (about) the size it will be shown — JPEG DCT prescaling, then a streaming
/// Lanczos reduction of rows as they leave the decoder — so the full-size bitmap never exists.
///
/// ```swift
/// let source = try ImageSource(path: "photo.jpg")
/// print(source.info.displayedSize, source.info.decodedBytes(as: .rgba8))
/// let thumb = try source.thumbnail(maxPixelSize: 400)
/// try thumb.write(to: "thumb.jpg")
/// ```
public final class ImageSource: Sendable {
    /// The file's path, or the name given to bytes in memory (`<memory>` by default); errors name it.
    public let name: String
    /// The encoded bytes.
    public let bytes: ImageBytes
    /// Everything the header says.
    public let info: ImageInfo
    /// The registered codec that recognised the file.
    public let codec: Codec
    /// The codec's reading of this image.
    public let decoder: any ImageDecoding
    /// The limits this source was opened with (checked from the header, again when planning).
    public let limits: ImageLimits

    /// Opens the image file at `path` (mapped read-only). Fails with `.fileNotFound`, `.io`,
    /// `.unsupportedFormat`, `.limitExceeded`, or the codec's header errors.
    public convenience init(path: String, limits: ImageLimits = ImageLimits(), codecs: CodecRegistry = .standard) throws(ImageError) {
        let bytes: ImageBytes
        do throws(ImageError) { bytes = try ImageBytes(mapping: path) } catch { throw error.naming(path) }
        try self.init(bytes: bytes, name: path, limits: limits, codecs: codecs)
    }

    /// An image from bytes in memory (copied once); `name` is used in error messages.
    public convenience init(bytes: [UInt8], name: String = "<memory>", limits: ImageLimits = ImageLimits(),
                            codecs: CodecRegistry = .standard) throws(ImageError) {
        try self.init(bytes: ImageBytes(bytes, path: name), name: name, limits: limits, codecs: codecs)
    }

    /// An image from bytes already mapped or loaded (by a ``DataLoading``); `name` is used in error messages.
    /// The first codec of `codecs` that recognises the bytes reads them.
    public init(bytes: ImageBytes, name: String, limits: ImageLimits = ImageLimits(), codecs: CodecRegistry = .standard) throws(ImageError) {
        self.name = name
        self.bytes = bytes
        self.limits = limits
        do throws(ImageError) {
            try limits.check(inputBytes: bytes.count, path: name)
        } catch {
            throw error.naming(name)
        }
        guard bytes.count > 0 else { throw ImageError(.unsupportedFormat, "\(name): empty file, not an image", name: name) }
        guard let codec = codecs.codec(sniffing: bytes.bytes) else {
            let readable = codecs.readableFormats.map { $0.name.uppercased() }.joined(separator: ", ")
            if let known = ImageFormat(sniffing: bytes.bytes) {
                throw ImageError(.unsupportedFormat, "\(name): \(known.name.uppercased()) decoding is not supported (Shrink reads \(readable))", name: name)
            }
            throw ImageError(.unsupportedFormat, "\(name): not a supported image format (unrecognised signature; Shrink reads \(readable))", name: name)
        }
        self.codec = codec
        do throws(ImageError) {
            decoder = try codec.open(bytes, name: name, limits: limits)
        } catch {
            throw (bytes.wasTruncatedWhileMapped ? Self.truncatedWhileReading(name) : error).naming(name)
        }
        info = decoder.info
        if bytes.wasTruncatedWhileMapped { throw Self.truncatedWhileReading(name).naming(name) }
    }

    /// A source over a decoder already opened on `bytes` (an embedded thumbnail stored as an image of its own).
    init(decoder: any ImageDecoding, bytes: ImageBytes, name: String, limits: ImageLimits, codec: Codec) {
        self.name = name
        self.bytes = bytes
        self.limits = limits
        self.codec = codec
        self.decoder = decoder
        info = decoder.info
    }

    /// Fails with `.truncated` when the mapped file was truncated while it was read (the guard in
    /// ``ImageBytes`` turned the missing pages into zeros): whatever was read from it is not the file.
    func checkInput() throws(ImageError) {
        if bytes.wasTruncatedWhileMapped { throw Self.truncatedWhileReading(name) }
    }

    /// Runs `body`, which reads the input, and reports `.truncated` instead of its result or its error when
    /// the mapped file was truncated meanwhile.
    func readingInput<T>(_ body: () throws(ImageError) -> T) throws(ImageError) -> T {
        do {
            let result = try body()
            try checkInput()
            return result
        } catch {
            try checkInput()
            throw error
        }
    }

    static func truncatedWhileReading(_ path: String) -> ImageError {
        ImageError(.truncated, "\(path): the file was truncated while it was being read (another process changed it)")
    }

    /// Bytes of the encoded file.
    public var fileBytes: Int { bytes.count }

    /// Working memory a full-size decode needs beyond a few rows: a progressive (or multi-scan) JPEG's
    /// coefficient buffer, an interlaced PNG's whole image; 0 for files that stream.
    public var decoderWorkingBytes: Int { decoder.route(RouteRequest(scaleDenominator: 1)).workingBytes }

    /// Plans a decode to `target` from the header alone. Fails with `.invalidArgument` for an empty target,
    /// `.limitExceeded` when the source or the output has more than `limits.maxPixels` pixels, `.memoryBudgetExceeded` when the decoder's working memory
    /// exceeds `options.memoryBudget`.
    public func plan(_ target: ThumbnailTarget, crop: FractionalRect? = nil,
                     options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> ThumbnailPlan {
        try plan(target, crop: crop, options: options, minimumPrescale: 1)
    }

    private func plan(_ target: ThumbnailTarget, crop: FractionalRect?, options: ThumbnailOptions,
                      minimumPrescale: Int) throws(ImageError) -> ThumbnailPlan {
        try limits.check(info.size, path: name)
        var info = self.info
        info.orientation = info.orientation.followed(by: options.rotation)
        let plan = try ThumbnailPlan(info: info, target: target, options: options, prescales: decoder.scaleDenominators,
                                     scaledSize: decoder.scaledSize(denominator:), crop: crop, minimumPrescale: minimumPrescale)
        // An upscaled output is bounded by the same limit as a source.
        try limits.check(plan.outputSize, path: name, what: "output")
        let route = route(for: plan, format: options.pixelFormat.resolve(for: info, native: decoder.outputFormat), color: options.color)
        guard route.workingBytes <= options.memoryBudget else {
            throw ImageError(.memoryBudgetExceeded,
                             "\(name): decoding needs \(Self.mebibytes(route.workingBytes)) of working memory (\(route.path) route), above the budget of \(Self.mebibytes(options.memoryBudget))")
        }
        return plan
    }

    /// The plan for `target` whose predicted peak fits `budget` bytes: the plan `options` ask for when it
    /// fits; otherwise the cheapest that does, tried in order — fast mode (the nearest DCT scale, which
    /// takes the DC-first path for a progressive JPEG at 1/8), then each coarser DCT scale (the resampler
    /// enlarges to the target: softer, but shown) — with ``BudgetedPlan/fallback`` saying which. Fails with
    /// `.memoryBudgetExceeded` only when no plan fits (a progressive JPEG's coefficient buffer, say).
    public func plan(_ target: ThumbnailTarget, crop: FractionalRect? = nil, options: ThumbnailOptions = ThumbnailOptions(),
                     within budget: Int) throws(ImageError) -> BudgetedPlan {
        func candidate(_ options: ThumbnailOptions, minimumPrescale: Int, _ fallback: String?) throws(ImageError) -> BudgetedPlan {
            let plan = try plan(target, crop: crop, options: options, minimumPrescale: minimumPrescale)
            let format = options.pixelFormat.resolve(for: info, native: decoder.outputFormat)
            return BudgetedPlan(plan: plan, options: options, format: format,
                                predictedPeakBytes: predictedPeakBytes(for: plan, format: format, color: options.color), fallback: fallback)
        }
        let requested = try candidate(options, minimumPrescale: 1, nil)
        if requested.predictedPeakBytes <= budget { return requested }
        var cheapest = requested
        var fast = options
        fast.mode = .fast
        var tries: [(Int, String)] = options.mode == .fast ? [] : [(1, "fast mode")]
        if case .prescale = target {} else {
            tries += decoder.scaleDenominators.filter { $0 > requested.plan.prescale }.sorted().map { ($0, "DCT scale 1/\($0)") }
        }
        for (minimum, name) in tries {
            guard let next = try? candidate(fast, minimumPrescale: minimum, name) else { continue }
            if next.predictedPeakBytes <= budget {
                let dcFirst = decodePath(for: next.plan, format: next.format) == .dcFirst ? " (DC-first)" : ""
                return BudgetedPlan(plan: next.plan, options: next.options, format: next.format,
                                    predictedPeakBytes: next.predictedPeakBytes, fallback: name + dcFirst)
            }
            if next.predictedPeakBytes < cheapest.predictedPeakBytes { cheapest = next }
        }
        throw ImageError(.memoryBudgetExceeded,
                         "\(self.name): the cheapest plan needs \(Self.mebibytes(cheapest.predictedPeakBytes)), above the decode budget of \(Self.mebibytes(budget))")
    }

    /// A thumbnail whose long side is `maxPixelSize` (smaller images keep their size unless
    /// `options.allowUpscaling`). Memory: the result plus a few rows of working state.
    public func thumbnail(maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.maxPixelSize(maxPixelSize), options: options)
    }

    /// A thumbnail for a `size` box: `.inside` keeps the aspect ratio within the box, `.cover` fills the box
    /// and crops the centre.
    public func thumbnail(size: PixelSize, fit: ThumbnailTarget.Fit = .inside,
                          options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.box(size, fit: fit), options: options)
    }

    /// The whole image at full size, oriented. Memory: the result plus a strip of rows.
    public func decode(options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.original, options: options)
    }

    /// The JPEG made upright without decoding: the EXIF orientation applied to the DCT coefficients (like
    /// `jpegtran`), the tag then set to 1, every other marker kept. With `trim`, edge blocks that cannot be
    /// moved exactly are dropped; without it they are `.unsupportedFeature`. Non-JPEG input is
    /// `.unsupportedFormat`. Its cost (every DCT coefficient, twice for a rotation) is predicted from the
    /// header and checked against the limits and `memoryBudget` before anything is allocated
    /// (`.limitExceeded`, `.memoryBudgetExceeded`).
    public func losslesslyUpright(trim: Bool = false, memoryBudget: Int = ThumbnailOptions().memoryBudget) throws(ImageError) -> [UInt8] {
        let transforms = try losslessTransforms()
        return try readingInput { () throws(ImageError) in
            try transforms.upright(from: info.orientation, trim: trim, memoryBudget: memoryBudget)
        }
    }

    /// The image cropped without decoding: `region` (displayed pixels) is widened outwards to whole coded
    /// blocks (JPEG iMCUs) of the stored image, cut out, and nothing is re-encoded; the EXIF orientation is
    /// kept, so the result displays as the region. Returns the bytes and the region actually kept (displayed
    /// pixels). A region that is not finite, under 1×1 or outside the image is `.invalidArgument`; the cost
    /// is checked like ``losslesslyUpright(trim:memoryBudget:)``'s.
    public func losslessCrop(_ region: FractionalRect, memoryBudget: Int = ThumbnailOptions().memoryBudget) throws(ImageError) -> (bytes: [UInt8], region: FractionalRect) {
        let transforms = try losslessTransforms()
        let full = info.displayedSize
        guard region.isInside(full) else {
            throw ImageError(.invalidArgument, "\(name): crop \(region) is outside the \(full) image (or not a finite rectangle of at least 1x1)")
        }
        let stored = info.orientation.storedRect(for: region, storedSize: info.size)
        let (out, kept) = try readingInput { () throws(ImageError) in try transforms.crop(stored, memoryBudget: memoryBudget) }
        // Back to displayed coordinates: the same orientation, mapped from stored.
        return (out, displayedRect(of: kept))
    }

    private func losslessTransforms() throws(ImageError) -> any LosslessTransforming {
        guard let transforms = decoder.losslessTransforms else {
            throw ImageError(.unsupportedFormat, "\(name): lossless transforms are not available for \(info.format.name.uppercased()) (JPEG only)")
        }
        return transforms
    }

    /// The displayed rectangle of stored rectangle `rect` (the inverse of ImageOrientation.storedRect).
    private func displayedRect(of rect: FractionalRect) -> FractionalRect {
        let o = info.orientation
        let a = o.displayedPosition(x: Int(rect.x), y: Int(rect.y), in: info.size)
        let b = o.displayedPosition(x: Int(rect.x + rect.width) - 1, y: Int(rect.y + rect.height) - 1, in: info.size)
        return FractionalRect(x: Double(min(a.x, b.x)), y: Double(min(a.y, b.y)), width: Double(abs(a.x - b.x) + 1), height: Double(abs(a.y - b.y) + 1))
    }

    /// The part of the image inside `region` (displayed pixels), its long side reduced to `maxPixelSize`.
    public func decode(region: FractionalRect, maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.maxPixelSize(maxPixelSize), crop: region, options: options)
    }

    /// The part of the image inside `region` (displayed pixels, i.e. after EXIF orientation), at full size
    /// or reduced to `target`. Rows below the region are never decoded; rows above it are decoded but
    /// neither stored nor resampled.
    public func decode(region: FractionalRect, to target: ThumbnailTarget = .original,
                       options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(target, crop: region, options: options)
    }

    /// Decodes to `target` (of the part inside `crop`, displayed pixels, when given): plans from the header,
    /// decodes at the plan's prescale, resamples while rows stream, orients once. A `monitor` can cancel the
    /// decode from another thread (it stops at the next strip, `.cancelled`) and measures its heap.
    public func image(_ target: ThumbnailTarget, crop: FractionalRect? = nil,
                      options: ThumbnailOptions = ThumbnailOptions(), monitor: DecodeMonitor? = nil) throws(ImageError) -> DecodedImage {
        do {
            if crop == nil, let thumbnail = try embeddedThumbnail(for: target, options: options) {
                return try thumbnail.image(target, options: options, monitor: monitor, orientation: info.orientation,
                                           metadata: try decoder.metadata().orientedUpright)
            }
            let plan = try plan(target, crop: crop, options: options)
            return try image(plan, options: options, monitor: monitor)
        } catch {
            throw error.naming(name)
        }
    }

    /// The embedded thumbnail (EXIF's, or an image of its own such as HEIF's `thmb` item) as a source, when
    /// `options` allow it (``ThumbnailOptions/useEmbeddedThumbnail``) and it can stand in for this image at
    /// `target`: at least the target's size on both axes (stored orientation, never upscaled), the image's
    /// aspect ratio within 1 %, and the same output size as the image itself would give.
    func embeddedThumbnail(for target: ThumbnailTarget, options: ThumbnailOptions) throws(ImageError) -> ImageSource? {
        guard options.allowsEmbeddedThumbnail, let stored = info.embeddedThumbnail else { return nil }
        switch target {
        case .maxPixelSize, .box: break
        case .original, .prescale: return nil
        }
        let ratio = Double(stored.width) / Double(stored.height), imageRatio = Double(info.size.width) / Double(info.size.height)
        guard abs(ratio / imageRatio - 1) <= 0.01 else { return nil }
        let planned = try plan(target, options: options)
        guard stored.width >= planned.storedOutputSize.width, stored.height >= planned.storedOutputSize.height else { return nil }
        func standsIn(_ source: ImageSource) throws(ImageError) -> Bool {
            var oriented = source.info
            oriented.orientation = info.orientation
            let plan = try ThumbnailPlan(info: oriented, target: target, options: options, prescales: source.decoder.scaleDenominators,
                                         scaledSize: source.decoder.scaledSize(denominator:))
            return source.info.size == stored && plan.outputSize == planned.outputSize
        }
        if let own = decoder.embeddedThumbnail() {
            let source = ImageSource(decoder: own, bytes: bytes, name: "\(name) (embedded thumbnail)", limits: limits, codec: codec)
            return try standsIn(source) ? source : nil
        }
        guard let bytes = decoder.embeddedThumbnailBytes(),
              let source = try? ImageSource(bytes: ImageBytes(bytes, path: "\(name) (EXIF thumbnail)"), name: "\(name) (EXIF thumbnail)",
                                            limits: limits, codecs: CodecRegistry([codec])) else { return nil }
        return try standsIn(source) ? source : nil
    }

    /// Decodes this (embedded thumbnail) source to `target` as if it were displayed with `orientation`, with
    /// the main image's `metadata`.
    private func image(_ target: ThumbnailTarget, options: ThumbnailOptions, monitor: DecodeMonitor?,
                       orientation: ImageOrientation, metadata: ImageMetadata) throws(ImageError) -> DecodedImage {
        var oriented = info
        oriented.orientation = orientation
        let plan = try ThumbnailPlan(info: oriented, target: target, options: options, prescales: decoder.scaleDenominators,
                                     scaledSize: decoder.scaledSize(denominator:))
        var kept = options
        kept.color = .keep                                  // the thumbnail is in the image's colours: its profile applies
        let decoded = try image(plan, options: kept, monitor: monitor)
        var pixels = decoded.pixels, metadata = metadata, warnings = decoded.warnings
        let colour = ColorManagement.apply(options.color, to: &pixels, profile: colourProfile(metadata, for: pixels.format))
        metadata.iccProfile = colour.profile
        if let warning = colour.warning { warnings.append(warning) }
        return DecodedImage(pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: decoded.predictedPeakBytes,
                            decodePath: .embeddedThumbnail, decoder: decoded.decoder, warnings: warnings, colorConversion: colour.conversion)
    }

    /// Runs `plan` (made by ``plan(_:crop:options:)`` with the same `options`).
    public func image(_ plan: ThumbnailPlan, options: ThumbnailOptions = ThumbnailOptions(),
                      monitor: DecodeMonitor? = nil) throws(ImageError) -> DecodedImage {
        do throws(ImageError) {
            try monitor?.checkpoint(row: 0)
            let format = options.pixelFormat.resolve(for: info, native: decoder.outputFormat)
            let route = route(for: plan, format: format, color: options.color)
            let predicted = predictedPeakBytes(for: plan, format: format, route: route, color: options.color)
            var metadata = try decoder.metadata().orientedUpright
            let ink = inkConversion(options.color, profile: metadata.iccProfile)
            let decode = DecodeOptions(fast: options.mode == .fast, strict: options.strict, memoryLimit: options.memoryBudget,
                                       inkConverter: ink)
            defer { bytes.releaseResidentPages() }
            var pixels: PixelBuffer
            var warnings = info.warnings
            var early: ColorConvertingRows?
            let region = decodedRegion(of: plan, route: route)
            switch try route.start(options: decode, monitor: monitor) {
            case .planes(let planes):
                // Y, Cb, Cr straight from the decoder: no RGB image at any size.
                let planar = try PlanarRenderer.render(plan, from: planes, region: region, monitor: monitor)
                warnings += planes.warnings
                pixels = format == .nv12 ? PixelConverter.convert(planar, to: .nv12) : planar
            case .rows(let decoded):
                var rows: any RowDecoding = decoded
                if let transform = earlyColor(options.color, rowFormat: decoded.format, metadata: metadata) {
                    early = ColorConvertingRows(decoded, transform: transform)
                    rows = early!
                }
                let rendered = try RowRenderer.render(plan, from: rows, as: rendersDirectly(format, rows: rows.format) ? format : decoder.outputFormat,
                                                      region: region, monitor: monitor)
                warnings += rows.warnings
                pixels = rendered.format == format ? rendered : PixelConverter.convert(rendered, to: format)
            }
            if options.pixelFormat == .memoryOptimized && PixelFormatRequest.isMask(pixels) {
                pixels = PixelConverter.convert(pixels, to: .alpha8)
            }
            let colour = ink?.result                                                // CMYK: converted as decoded
                ?? early.map { $0.transform.result(elapsed: $0.elapsed) }     // converted before the resampler
                ?? ColorManagement.apply(options.color, to: &pixels, profile: colourProfile(metadata, for: pixels.format))
            metadata.iccProfile = colour.profile
            monitor?.notePeak()
            try checkInput()
            if options.strict, let first = warnings.first {
                throw ImageError(.corruptData, "\(name): \(first) (strict decoding)")
            }
            if let warning = colour.warning { warnings.append(warning) }     // a profile not applied is no damage
            return DecodedImage(pixels: pixels, plan: plan, metadata: metadata, predictedPeakBytes: predicted,
                                decodePath: route.path, decoder: route.decoder, warnings: warnings, colorConversion: colour.conversion)
        } catch {
            try checkInput()
            throw error.naming(name)
        }
    }

    /// The peak bytes a decode of `plan` into `format` is predicted to hold, from the header alone: the
    /// result, the route's working memory (progressive coefficients, an interlaced grid, a scaled frame) and
    /// library state (``DecodeRoute``), one strip or row group of decoded rows, the resampler's rows, and a
    /// whole-image conversion when the rows cannot be delivered in `format` as they come, and, after the
    /// decode, the copies a colour conversion under `color` makes of a format it cannot transform in place
    /// (``ColorManagement/extraBytes(for:size:)``). Allocator overhead is not included.
    public func predictedPeakBytes(for plan: ThumbnailPlan, format: PixelFormat, color: ColorPolicy = .sRGB) -> Int {
        predictedPeakBytes(for: plan, format: format, route: route(for: plan, format: format, color: color), color: color)
    }

    private func predictedPeakBytes(for plan: ThumbnailPlan, format: PixelFormat, route: DecodeRoute, color: ColorPolicy) -> Int {
        let result = format.byteCount(for: plan.outputSize)
        let converts = color == .displayP3 || (color == .sRGB && (info.iccProfileBytes > 0 || info.codedColor != nil))
        let colour = converts ? result + ColorManagement.extraBytes(for: format, size: plan.outputSize) : 0
        var peak = result + route.workingBytes + route.stateBytes
        if info.colorModel.isInk { peak += InkConversion.stateBytes }
        switch route.output {
        case .planes:
            let chroma = PixelSize(width: (plan.storedOutputSize.width + 1) / 2, height: (plan.storedOutputSize.height + 1) / 2)
            peak += plan.decodedSize.width * 3 * RowRenderer.stripRows
                + StreamingResampler.predictedBytes(inputSize: plan.decodedSize, format: .gray8, outputSize: plan.storedOutputSize)
                + 2 * StreamingResampler.predictedBytes(inputSize: plan.decodedSize, format: .gray8, outputSize: chroma)
            if format == .nv12 { peak += result }
        case .rows(let rows):
            peak += plan.decodedSize.width * max(rows.bytesPerPixel, 3) * RowRenderer.stripRows
            if plan.resamples {
                peak += StreamingResampler.predictedBytes(inputSize: plan.decodedSize, format: rows,
                                                          outputSize: plan.storedOutputSize, region: plan.decodedRegion)
            }
            if !rendersDirectly(format, rows: rows) { peak += decoder.outputFormat.byteCount(for: plan.outputSize) }
        }
        return max(peak, colour)
    }

    /// The route a decode of `plan` into `format` takes, as the codec chooses it from the header: the one
    /// value both the decode and the memory prediction use.
    /// Under `color`, a profile too steep to convert after the reduction (``ColorManagement/beforeResampling(_:profile:rowFormat:)``)
    /// takes rows, which are converted before the resampler, even where planes would serve.
    public func route(for plan: ThumbnailPlan, format: PixelFormat, color: ColorPolicy = .sRGB) -> DecodeRoute {
        let window = plan.storedRegion == FractionalRect(info.size) ? nil : plan.decodingWindow
        let planar = (format == .yuv420 || format == .nv12) && earlyColor(color, rowFormat: decoder.outputFormat) == nil
            && !decodesDeepForColour(color)
        return decoder.route(RouteRequest(scaleDenominator: plan.prescale, wantsPlanes: planar,
                                          wantsSixteenBit: format == .rgba16 || decodesDeepForColour(color), window: window))
    }

    /// The transform decoded rows of `rowFormat` need before the resampler under `color`, when the image's
    /// profile is too steep to convert after it; nil otherwise (most profiles, and untagged images). `metadata`:
    /// the decoder's, when the caller has it (else it is read again, copying the profile).
    func earlyColor(_ color: ColorPolicy, rowFormat: PixelFormat, metadata: ImageMetadata? = nil) -> ColorRowTransform? {
        guard color != .keep, info.iccProfileBytes > 0 || info.codedColor != nil else { return nil }
        let read = metadata ?? (info.iccProfileBytes > 0 ? try? decoder.metadata() : nil)
        guard let profile = colourProfile(read, for: rowFormat) else { return nil }
        return ColorManagement.beforeResampling(color, profile: profile, rowFormat: rowFormat, always: decodesDeepForColour(color))
    }

    /// True when `color` converts an HDR source (PQ or HLG, more than 8 bits): its rows are decoded at 16 bits and
    /// converted before the resampler, so the steep curve works on the coded precision, not on 8-bit levels.
    func decodesDeepForColour(_ color: ColorPolicy) -> Bool {
        color != .keep && info.bitsPerComponent > 8 && info.codedColor?.isHighDynamicRange == true
    }

    /// The profile the pixels are in: the embedded ICC profile, else the one equivalent to what the file codes
    /// without one (``ImageInfo/codedColor``: HEIF `nclx`, PNG `cICP`, `gAMA`/`cHRM`; made for gray or colour
    /// as `format` is), else nil (sRGB).
    func colourProfile(_ metadata: ImageMetadata?, for format: PixelFormat) -> [UInt8]? {
        if let icc = metadata?.iccProfile { return icc }
        return info.codedColor.flatMap { CodedColorProfiles.profile(for: $0, gray: format.isGray)?.bytes }
    }

    /// For CMYK images tagged with `profile`, how their ink becomes RGB under `color` (the codec runs it on the
    /// decoded rows, before the resampler); nil for the others.
    func inkConversion(_ color: ColorPolicy, profile: [UInt8]?) -> InkConversion? {
        guard info.colorModel.isInk else { return nil }
        return ColorManagement.inkConversion(color, profile: profile)
    }

    /// The part of the route's decoded image that `plan` resamples: the plan's block geometry, or the exact
    /// fraction of a scaler that maps the source (or the part of it the route crops) uniformly.
    private func decodedRegion(of plan: ThumbnailPlan, route: DecodeRoute) -> FractionalRect {
        guard route.geometry == .uniform else { return plan.decodedRegion }
        let source = route.sourceRect ?? FractionalRect(info.size)
        let sx = Double(route.decodedSize.width) / source.width
        let sy = Double(route.decodedSize.height) / source.height
        let r = plan.storedRegion
        return FractionalRect(x: (r.x - source.x) * sx, y: (r.y - source.y) * sy, width: r.width * sx, height: r.height * sy)
    }

    /// The machinery a decode of `plan` into `format` under `color` runs on (``route(for:format:color:)``'s path).
    public func decodePath(for plan: ThumbnailPlan, format: PixelFormat, color: ColorPolicy = .sRGB) -> DecodePath {
        route(for: plan, format: format, color: color).path
    }

    /// True when `rows` can be delivered in `format` as they are written: row conversion covers adding or
    /// dropping alpha and RGB → YUV, and 16-bit rows stay 16-bit; anything else (gray from colour,
    /// premultiplied) converts the finished image.
    private func rendersDirectly(_ format: PixelFormat, rows: PixelFormat) -> Bool {
        format == decoder.outputFormat || format == .rgb8 || format == .rgba8 || format.isPlanar
            || (format == .rgba16 && rows == .rgba16)
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
