/// How a thumbnail or full decode is planned and run.
public struct ThumbnailOptions: Sendable {
    /// Speed/quality trade-off.
    public enum Mode: String, Sendable, CaseIterable {
        /// Decode-time prescale leaves at least 2× to the Lanczos resampler; accurate IDCT.
        case quality
        /// Prescale to the nearest size at or above the target; fast IDCT. Softer, quicker.
        case fast
    }

    /// `.quality` by default.
    public var mode: Mode
    /// Enlarge images smaller than the target (otherwise they keep their size, as ImageIO does). `false` by default.
    public var allowUpscaling: Bool
    /// Fail with `.corruptData` on damage a decoder could step over (libjpeg warnings such as corrupt
    /// Huffman data or a premature end, a bad PNG checksum, malformed EXIF) instead of returning the image
    /// with ``DecodedImage/warnings``. `false` by default, like libvips and Pillow.
    public var strict: Bool
    /// The result's pixel format. `.memoryOptimized` by default (yuv420 for opaque colour, gray8 for gray,
    /// rgba8 with alpha).
    public var pixelFormat: PixelFormatRequest
    /// Decode the thumbnail embedded in the file instead of the image when it is at least the target size and
    /// has the image's aspect ratio (± 1 %), like ImageIO's `kCGImageSourceCreateThumbnailFromImageIfAbsent`;
    /// orientation still applies. The thumbnail may be a JPEG's EXIF thumbnail or a HEIF `thmb` image (used
    /// only when its orientation and colour match the photo's). `nil` (the default) means on in `.fast` mode,
    /// off in `.quality` mode: embedded thumbnails are small and softer than the photo reduced (compared by PSNR in
    /// BENCHMARKS.md, "Figures behind the code").
    public var useEmbeddedThumbnail: Bool?
    /// What happens to colours: converted from the image's ICC profile to sRGB after the reduction, at the
    /// output's size, and no profile embedded (`.sRGB`, the default); left alone with the profile kept
    /// (`.keep`); or converted to Display P3 with its profile embedded (`.displayP3`).
    public var color: ColorPolicy
    /// Where a cover fit keeps its window when it cuts the image (and where a relative ``ImageRequest/Crop`` sits).
    /// ``Gravity/centre`` by default.
    public var gravity: Gravity
    /// A rotation applied after the EXIF orientation, folded into it so that pixels are still written once
    /// (`.right` turns the displayed image 90° clockwise); targets, regions and crops refer to the rotated
    /// image. Embedded thumbnails are not used when it is not `.up`. `.up` by default.
    public var rotation: ImageOrientation
    /// The least width and height of the result (imgproxy's `mw`/`mh`; 0 for no minimum on a side): a smaller
    /// result is scaled up, aspect ratio kept, even past ``allowUpscaling`` and a box's other side; cover and
    /// fill keep their box and cut a smaller window instead. `nil` by default.
    public var minimumSize: PixelSize?
    /// Multiplies the result's width and height after the target is met (imgproxy's `z`): unequal factors stretch
    /// it; without ``allowUpscaling`` both shrink back by the same factor until neither side enlarges the source.
    /// Cover and fill keep their box when the factors are equal. `(1, 1)` by default.
    public var zoom: (x: Double, y: Double) = (1, 1)
    /// Surrounding background cut away before the target applies (``Trim``); nil by default.
    public var trim: Trim?
    /// What is done to the result at its output size: blur, sharpen, pixelate, a grown canvas, padding, a
    /// background (``Finishing``). Nothing by default.
    public var finishing = Finishing()

    /// Show the image as its EXIF orientation says (`true`, the default), or as it is stored (imgproxy's `ar:0`);
    /// ``rotation`` applies after either.
    public var appliesEXIFOrientation = true

    /// Threads the decode may borrow while cores would otherwise idle: a HEIC or AVIF grid's or a TIFF's tiles or
    /// strips, and a large baseline JPEG's bands between restart markers, decode on them (``SpareCores`` for a
    /// process's own threads). nil (the default): the calling thread decodes
    /// alone.
    /// ``ImagePipeline`` lends its own decode threads, within its budget, whatever this says.
    public var helpers: (any DecodeHelping)?

    /// Whether the embedded thumbnail may be used under these options.
    package var allowsEmbeddedThumbnail: Bool {
        rotation == .up && appliesEXIFOrientation && (useEmbeddedThumbnail ?? (mode == .fast))
    }

    /// Options with the defaults above, or the values given.
    public init(
        mode: Mode = .quality, allowUpscaling: Bool = false, strict: Bool = false,
        pixelFormat: PixelFormatRequest = .memoryOptimized,
        useEmbeddedThumbnail: Bool? = nil, color: ColorPolicy = .sRGB, gravity: Gravity = .centre,
        rotation: ImageOrientation = .up
    ) {
        self.rotation = rotation
        self.gravity = gravity
        self.useEmbeddedThumbnail = useEmbeddedThumbnail
        self.color = color
        self.mode = mode
        self.pixelFormat = pixelFormat
        self.allowUpscaling = allowUpscaling
        self.strict = strict
    }
}
