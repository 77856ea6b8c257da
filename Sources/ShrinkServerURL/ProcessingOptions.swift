import Shrink

/// The processing options of an imgproxy-style URL, parsed and typed. Defaults are imgproxy's: fit, no size
/// (the original size), dpr 1, no enlarging, centre gravity, no crop, auto-rotate on, no extra rotation,
/// quality and format from the server's configuration.
package struct ProcessingOptions: Sendable, Hashable {
    package var resizingType: ResizingType = .fit
    package var width = 0
    package var height = 0
    package var dpr = 1.0
    /// imgproxy's `page`: the page of a multi-page source (a TIFF's), counting from 0. 0 by default.
    package var page = 0
    /// imgproxy's `z`: multiplies the result's width and height once the size is met (``ThumbnailOptions/zoom``);
    /// unlike `dpr`, not offsets or padding. 1 by default.
    package var zoom = 1.0
    package var zoomY = 1.0
    package var enlarge = false
    /// `ex`/`rs`'s fifth argument: a result smaller than width × height is centred (or placed by
    /// ``extendGravity``) on a canvas of that size.
    package var extend = false
    package var extendGravity: Gravity = .centre
    /// `exar`: the canvas grown to width:height's aspect ratio.
    package var extendAspectRatio = false
    package var extendAspectRatioGravity: Gravity = .centre
    /// `mw`, `mh`: the result at least this wide or tall (0: no minimum).
    package var minWidth = 0
    package var minHeight = 0
    /// `pd`: top, right, bottom, left, in CSS pixels (times dpr).
    package var padding = [0, 0, 0, 0]
    /// `bl`, `sh`: Gaussian deviations in output pixels (0: none); `pix`: block size in CSS pixels (times dpr).
    package var blur = 0.0
    package var sharpen = 0.0
    package var pixelate = 0
    package var gravity: Gravity = .centre
    package var crop: ImageRequest.Crop?
    /// A rectangle of the displayed image to show (thumbor's manual crop `AxB:CxD`); nil: all of it.
    package var region: PixelRect?
    /// thumbor's `adaptive-fit-in` and `full-fit-in` (``ThumbnailTarget/Fit/insideEitherWay``, ``/outside``), which
    /// imgproxy has no resizing type for; nil otherwise.
    package var thumborFit: ThumbnailTarget.Fit?
    /// thumbor's `grayscale()` (``Finishing/grayscale``).
    package var grayscale = false
    package var rotation = 0
    /// `fl`: mirror left–right, top–bottom (after the rotation).
    package var flipHorizontal = false
    package var flipVertical = false
    package var background: RGBColor?
    /// 1–100; nil for `fq`'s figure for the format, else the server's default.
    package var quality: Int?
    /// nil: by the source's extension, or negotiated from `Accept` when the server allows it.
    package var format: ImageFormat?
    package var cacheBuster: String?
    /// Unix time after which the URL answers 404 (`exp:0`: never, nil).
    package var expires: Int?
    /// `fast` for `ra:nearest`/`ra:linear`; quality (Lanczos) otherwise.
    package var fast = false
    /// `ar`: apply the EXIF orientation (imgproxy's default); `ar:0` shows the pixels as stored.
    package var autoRotate = true
    /// `sm`: drop EXIF (imgproxy's default); `sm:0` keeps it (orientation reset, as the pixels are upright).
    package var stripMetadata = true
    /// `kcr`: keep the EXIF copyright and artist while stripping metadata; nil: the server's default
    /// (`IMGPROXY_KEEP_COPYRIGHT`, on).
    package var keepCopyright: Bool?
    /// `scp`: convert to sRGB and drop the profile (imgproxy's default); `scp:0` keeps the source's colours and
    /// profile.
    package var stripColorProfile = true
    /// `eth`: use the thumbnail embedded in the file when it is large enough.
    package var enforceThumbnail = false
    /// `raw`: the source's bytes as they are, no processing.
    package var raw = false
    /// `skp`: source formats answered as they are, no processing.
    package var skipProcessing: [ImageFormat] = []
    /// `wm`: the configured watermark's opacity (times its base opacity; nil or 0: none), where it goes (a gravity
    /// with offsets in CSS pixels, or tiled with the offsets as gaps) and its scale (0: its own size).
    package var watermarkOpacity: Double?
    package var watermarkGravity: Gravity = .centre
    package var watermarkTiled = false
    package var watermarkScale = 0.0
    /// `t`: surrounding background cut away first (``Trim``); nil: none.
    package var trim: Trim?
    /// `mb`: the result's largest size in bytes, for lossy formats (``OutputSettings/maxBytes``).
    package var maxBytes: Int?
    /// `fq`: quality by output format name (`jpeg`, `webp`…), used when `q` is not given.
    package var formatQuality: [String: Int] = [:]
    /// Security options (`msr`, `msfs`, `maf`, `mafr`; only when the server allows them): this URL's limits on the
    /// source's pixels (megapixels; an animation's frames together), file size, frames, and each frame's pixels.
    package var maxSourceMegapixels: Double?
    package var maxSourceBytes: Int?
    package var maxAnimationFrames: Int?
    package var maxAnimationFrameMegapixels: Double?
    /// `mrd`: the result's longest side (0: unbounded, as imgproxy's).
    package var maxResultDimension: Int?
    /// The filename of `Content-Disposition` (`fn`), without extension; nil: the source's.
    package var filename: String?
    /// `Content-Disposition: attachment` (`att:1`) instead of `inline`.
    package var attachment = false

    package init() {}

    /// The largest width or height a URL may ask for (after dpr), and the largest padding on a side.
    package static let maxSide = 16_384
    /// The largest blur or sharpen deviation a URL may ask for, and the largest pixelation block.
    package static let maxSigma = 100.0
    package static let maxPixelate = 1_024

    /// The Shrink request these options make of `loader`: target (width and height times dpr), zoom, crop,
    /// gravity, rotation and flips (one orientation, applied once with EXIF's), upscaling, mode, limits and
    /// finishing. Fails with a 404 for sizes beyond ``maxSide``.
    package func imageRequest(loader: any DataLoading, limits: ImageLimits, watermark: Watermark? = nil)
        throws(RequestError) -> ImageRequest
    {
        let scale = dpr
        let w = Int((Double(width) * scale).rounded()), h = Int((Double(height) * scale).rounded())
        let zw = Int((Double(w) * zoom).rounded()), zh = Int((Double(h) * zoomY).rounded())
        guard zw <= Self.maxSide, zh <= Self.maxSide else {
            throw RequestError.invalidURL(
                "width and height (times dpr and zoom) must be at most \(Self.maxSide), not \(zw)x\(zh)")
        }
        let target: ThumbnailTarget
        switch resizingType {
        case _ where thumborFit != nil && w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: thumborFit!)
        case .force where w > 0 || h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .stretch)
        case .auto where w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .auto)
        case .fill where w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .fill)
        case .fillDown where w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .cover)
        default:
            switch (w, h) {
            case (0, 0): target = .original
            case (_, 0): target = .box(PixelSize(width: w, height: ThumbnailTarget.maxSide), fit: .inside)
            case (0, _): target = .box(PixelSize(width: ThumbnailTarget.maxSide, height: h), fit: .inside)
            default: target = .box(PixelSize(width: w, height: h), fit: .inside)
            }
        }
        func css(_ v: Int) -> Int { Int((Double(v) * scale).rounded()) }
        /// Pixel offsets are CSS pixels too; fractions of a side stay as they are.
        func scaled(_ g: Gravity) -> Gravity {
            g.offset(
                x: abs(g.offsetX) < 1 ? g.offsetX : g.offsetX * scale,
                y: abs(g.offsetY) < 1 ? g.offsetY : g.offsetY * scale)
        }
        var options = ThumbnailOptions(mode: fast ? .fast : .quality, allowUpscaling: enlarge, gravity: scaled(gravity))
        options.zoom = (zoom, zoomY)
        if minWidth > 0 || minHeight > 0 {
            options.minimumSize = PixelSize(
                width: min(css(minWidth), Self.maxSide), height: min(css(minHeight), Self.maxSide))
        }
        options.appliesEXIFOrientation = autoRotate
        options.trim = trim
        if !stripColorProfile { options.color = .keep }
        if enforceThumbnail { options.useEmbeddedThumbnail = true }
        var finishing = Finishing()
        finishing.grayscale = grayscale
        finishing.blurSigma = blur
        finishing.sharpenSigma = sharpen
        finishing.pixelateSize = pixelate > 1 ? max(1, css(pixelate)) : 0
        if extend && (zw > 0 || zh > 0) {
            finishing.extend = CanvasExtension(size: PixelSize(width: zw, height: zh), gravity: scaled(extendGravity))
        }
        if extendAspectRatio && zw > 0 && zh > 0 {
            finishing.extendToAspectRatio = CanvasExtension(
                size: PixelSize(width: zw, height: zh), gravity: scaled(extendAspectRatioGravity))
        }
        let p = padding.map { min(css($0), Self.maxSide) }
        finishing.padding = EdgeInsets(top: p[0], right: p[1], bottom: p[2], left: p[3])
        finishing.background = background
        if var mark = watermark, let opacity = watermarkOpacity, opacity > 0 {
            // Without a configured watermark, `wm` does nothing, as imgproxy's.
            mark.opacity = min(1, mark.opacity * opacity)
            mark.gravity = scaled(watermarkGravity)
            mark.tiled = watermarkTiled
            mark.scale = watermarkScale
            mark.pixelScale = dpr
            finishing.watermark = mark
        }
        options.finishing = finishing
        options.rotation = ImageOrientation(clockwiseRotation: rotation) ?? .up
        if flipHorizontal { options.rotation = options.rotation.followed(by: .upMirrored) }
        if flipVertical { options.rotation = options.rotation.followed(by: .downMirrored) }
        var request = ImageRequest(
            loader: loader, target: target, region: region, crop: region == nil ? crop : nil, options: options,
            limits: limited(limits))
        request.page = page
        return request
    }

    /// `limits` as the security options change them.
    package func limited(_ limits: ImageLimits) -> ImageLimits {
        var limits = limits
        func pixels(_ megapixels: Double) -> Int { max(1, Int(megapixels * 1_000_000)) }
        if let m = maxSourceMegapixels {
            limits.maxPixels = pixels(m)
            limits.maxAnimationPixels = pixels(m)
        }
        if let b = maxSourceBytes { limits.maxInputBytes = max(1, b) }
        if let f = maxAnimationFrames { limits.maxAnimationFrames = max(1, f) }
        if let d = maxResultDimension { limits.maxResultSide = d == 0 ? Int.max : d }
        if let m = maxAnimationFrameMegapixels {
            // Shrink bounds an animation's frames together: each frame at most this, so all of them at most this
            // times the frames allowed.
            limits.maxAnimationPixels =
                pixels(m).multipliedReportingOverflow(by: limits.maxAnimationFrames).overflow
                ? Int.max : pixels(m) * limits.maxAnimationFrames
        }
        return limits
    }
}
