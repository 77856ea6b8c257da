import ShrinkCore

/// What to decode and how: a source, the target size and fit, the pixel format policy, an optional region,
/// a priority and a cache policy. Requests with the same key (``cacheKey()``) in flight at once share one
/// decode; a request spelled differently that plans the same result finds it in the caches once its header is
/// read.
///
/// ```swift
/// let request = ImageRequest(path: "photo.jpg", target: .box(PixelSize(width: 256, height: 256), fit: .cover))
/// let response = try await pipeline.image(for: request)
/// ```
public struct ImageRequest: Sendable {
    /// Where the bytes come from.
    public var loader: any DataLoading
    /// The size to decode to. `.original` (full size) by default.
    public var target: ThumbnailTarget
    /// A region of the displayed image to decode instead of all of it. `nil` by default.
    public var region: PixelRect?
    /// A crop sized against the image, resolved once its header is read (when ``region`` is nil). `nil` by
    /// default.
    public var crop: Crop?
    /// Mode, upscaling, strictness, pixel format policy. `ThumbnailOptions()` by default.
    public var options: ThumbnailOptions
    /// Limits checked from the header. `ImageLimits()` by default.
    public var limits: ImageLimits
    /// Order among queued decodes; can be changed while queued through ``ImageTask/priority``. `.normal`
    /// by default.
    public var priority: Priority
    /// Which caches may be read and written. Empty (use every cache) by default.
    public var cachePolicy: CachePolicy
    /// Sample the heap during this request's decode for ``ImageTelemetry/measuredPeakBytes`` even when the
    /// pipeline does not (``ImagePipeline/Configuration/measuresMemory``): an inspector measuring one decode.
    /// Such a request shares its decode only with others that measure. `false` by default.
    public var measuresMemory = false
    /// The page of a multi-page file to decode (a TIFF's; ``ImageSource/page(_:)``), 0 the first. `0` by default.
    public var page = 0

    /// A request for the image `loader` loads, at `target`, of `region` (displayed pixels) or `crop` when
    /// given (not both), under `options` and `limits`.
    public init(
        loader: any DataLoading, target: ThumbnailTarget = .original, region: PixelRect? = nil, crop: Crop? = nil,
        options: ThumbnailOptions = ThumbnailOptions(), limits: ImageLimits = ImageLimits(),
        priority: Priority = .normal, cachePolicy: CachePolicy = []
    ) {
        self.loader = loader
        self.crop = crop
        self.target = target
        self.region = region
        self.options = options
        self.limits = limits
        self.priority = priority
        self.cachePolicy = cachePolicy
    }

    /// A request for the file at `path`.
    public init(
        path: String, target: ThumbnailTarget = .original, region: PixelRect? = nil, crop: Crop? = nil,
        options: ThumbnailOptions = ThumbnailOptions(), limits: ImageLimits = ImageLimits(),
        priority: Priority = .normal, cachePolicy: CachePolicy = []
    ) {
        self.init(
            loader: FileLoader(path: path), target: target, region: region, crop: crop, options: options,
            limits: limits,
            priority: priority, cachePolicy: cachePolicy)
    }

    /// The key of the image this request makes: the source identity and everything that shapes the plan and
    /// the pixels (page, target, region or crop, mode, upscaling, strictness, embedded thumbnails, pixel format
    /// policy, colour policy, gravity), as typed fields. Fails when the source cannot be examined.
    public func cacheKey() throws(ImageError) -> CacheKey {
        let o = options
        let region =
            self.region.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }
            ?? crop.map { "crop:" + $0.keyValue } ?? "all"
        // Gravity places only cover windows, which `auto` may choose (crops carry their own): one key for every
        // gravity otherwise.
        var gravity = "-"
        if case .box(_, let fit) = target, fit != .inside { gravity = o.gravity.keyValue }
        return CacheKey(
            [
                ("src", try loader.identity()), ("t", target.keyValue), ("r", region),
                ("up", o.allowUpscaling ? "1" : "0"), ("g", gravity), ("rot", String(o.rotation.rawValue)),
            ] + (o.appliesEXIFOrientation ? [] : [("exif", "0")])
                + (o.zoom == (1, 1) ? [] : [("z", "\(o.zoom.x),\(o.zoom.y)")])
                + (o.minimumSize.map { [("min", "\($0.width)x\($0.height)")] } ?? []) + o.pixelKeyFields
                + (measuresMemory ? [("measure", "1")] : []) + (page == 0 ? [] : [("page", String(page))]))
    }
}
