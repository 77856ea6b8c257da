import Shrink

/// The processing options of an imgproxy-style URL, parsed and typed. Defaults are imgproxy's: fit, no size
/// (the original size), dpr 1, no enlarging, centre gravity, no crop, auto-rotate on, no extra rotation,
/// quality and format from the server's configuration.
package struct ProcessingOptions: Sendable, Hashable {
    package var resizingType: ResizingType = .fit
    package var width = 0
    package var height = 0
    package var dpr = 1.0
    /// imgproxy's `z`: multiplies the width and height asked for, as `dpr` does (after it). 1 by default.
    package var zoom = 1.0
    package var enlarge = false
    package var gravity: Gravity = .centre
    package var crop: ImageRequest.Crop?
    package var rotation = 0
    /// `fl`: mirror left–right, top–bottom (after the rotation).
    package var flipHorizontal = false
    package var flipVertical = false
    package var background: RGBColor?
    /// 1–100; nil for the server's default.
    package var quality: Int?
    /// nil: by the source's extension, or negotiated from `Accept` when the server allows it.
    package var format: ImageFormat?
    package var cacheBuster: String?
    /// Unix time after which the URL answers 404 (`exp:0`: never, nil).
    package var expires: Int?
    /// `fast` for `ra:nearest`/`ra:linear`; quality (Lanczos) otherwise.
    package var fast = false
    /// The filename of `Content-Disposition` (`fn`), without extension; nil: the source's.
    package var filename: String?
    /// `Content-Disposition: attachment` (`att:1`) instead of `inline`.
    package var attachment = false

    package init() {}

    /// The largest width or height a URL may ask for (after dpr).
    package static let maxSide = 16_384

    /// The Shrink request these options make of `loader`: target (width and height times dpr and zoom), crop,
    /// gravity, rotation and flips (one orientation, applied once with EXIF's), upscaling and mode. Fails with a 400 for what Shrink does not do.
    package func imageRequest(loader: any DataLoading, limits: ImageLimits) throws(RequestError) -> ImageRequest {
        let scale = dpr * zoom
        let w = Int((Double(width) * scale).rounded()), h = Int((Double(height) * scale).rounded())
        guard w <= Self.maxSide, h <= Self.maxSide else {
            throw RequestError(
                400, "width and height (times dpr and zoom) must be at most \(Self.maxSide), not \(w)x\(h)")
        }
        if zoom != 1 && width == 0 && height == 0 {
            throw RequestError(400, "z without a width or height (a zoom of the source's size) is not supported yet")
        }
        let target: ThumbnailTarget
        switch resizingType {
        case .force:
            throw RequestError(
                400, "rs:force (stretching) is not supported: Shrink keeps aspect ratios; use fit or fill")
        case .auto where w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .auto)
        case .fill where w > 0 && h > 0, .fillDown where w > 0 && h > 0:
            target = .box(PixelSize(width: w, height: h), fit: .cover)
        default:
            switch (w, h) {
            case (0, 0): target = .original
            case (_, 0): target = .box(PixelSize(width: w, height: ThumbnailTarget.maxSide), fit: .inside)
            case (0, _): target = .box(PixelSize(width: ThumbnailTarget.maxSide, height: h), fit: .inside)
            default: target = .box(PixelSize(width: w, height: h), fit: .inside)
            }
        }
        var options = ThumbnailOptions(mode: fast ? .fast : .quality, allowUpscaling: enlarge, gravity: gravity)
        options.rotation = ImageOrientation(clockwiseRotation: rotation) ?? .up
        if flipHorizontal { options.rotation = options.rotation.followed(by: .upMirrored) }
        if flipVertical { options.rotation = options.rotation.followed(by: .downMirrored) }
        return ImageRequest(loader: loader, target: target, crop: crop, options: options, limits: limits)
    }
}
