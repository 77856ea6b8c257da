import ShrinkCore
import ShrinkResample

/// An encoded image and everything its header tells, like `CGImageSource`: create one from a file (memory
/// mapped, never read into the heap) or from bytes, read ``info`` for free, then ask for a thumbnail.
///
/// Creating a source reads only the header: no pixel is decoded and nothing of pixel size is allocated.
/// A thumbnail is decoded at (about) the size it will be shown — JPEG DCT prescaling, then a streaming
/// Lanczos reduction of rows as they leave the decoder — so the full-size bitmap never exists.
///
/// Every decode goes through one method, ``image(_:region:options:)`` — a target size, an optional region,
/// options — with `thumbnail(maxPixelSize:options:)` and `thumbnail(size:fit:options:)` as shorthands.
/// They are synchronous and CPU-bound: call them from a thread of your own or a command-line tool. In `async`
/// code call them with the pipeline to run on (`on: pipeline`, or ``ImagePipeline/shared``) and `await` them:
/// they run on its decode threads instead, so a request handler never blocks Swift's cooperative pool.
///
/// ```swift
/// let source = try ImageSource(path: "photo.jpg")
/// print(source.info.displayedSize, source.info.decodedBytes(as: .rgba8))
/// let thumb = try source.thumbnail(maxPixelSize: 400)
/// try thumb.write(to: "thumb.jpg")
/// ```
///
/// A source holds the mapping (or the bytes) and the codec's header state, a few kilobytes beyond the file.
public final class ImageSource: Sendable {
    /// The file's path, or the name given to bytes in memory (`<memory>` by default); errors name it.
    public let name: String
    /// Everything the header says.
    public let info: ImageInfo
    /// The limits this source was opened with: checked from the header, again when planning a decode.
    public let limits: ImageLimits
    /// The encoded bytes.
    package let bytes: ImageBytes
    /// The registered codec that recognised the file.
    package let codec: Codec
    /// The codec's reading of this image.
    package let decoder: any ImageDecoding

    /// Opens the image file at `path` (mapped read-only). Fails with `.fileNotFound`, `.io`,
    /// `.unsupportedFormat`, `.limitExceeded`, or the codec's header errors.
    public convenience init(path: String, limits: ImageLimits = ImageLimits(), codecs: CodecRegistry = .standard)
        throws(ImageError)
    {
        let bytes: ImageBytes
        do throws(ImageError) { bytes = try ImageBytes(mapping: path) } catch { throw error.naming(path) }
        try self.init(bytes: bytes, name: path, limits: limits, codecs: codecs)
    }

    /// An image from bytes in memory (copied once); `name` is used in error messages.
    public convenience init(
        bytes: [UInt8], name: String = "<memory>", limits: ImageLimits = ImageLimits(),
        codecs: CodecRegistry = .standard
    ) throws(ImageError) {
        try self.init(bytes: ImageBytes(bytes, name: name), name: name, limits: limits, codecs: codecs)
    }

    /// An image from bytes already mapped or loaded (by a ``DataLoading``); `name` is used in error messages.
    /// The first codec of `codecs` that recognises the bytes reads them.
    public init(bytes: ImageBytes, name: String, limits: ImageLimits = ImageLimits(), codecs: CodecRegistry = .standard)
        throws(ImageError)
    {
        self.name = name
        self.bytes = bytes
        self.limits = limits
        do throws(ImageError) {
            try limits.check(inputBytes: bytes.count, path: name)
        } catch {
            throw error.naming(name)
        }
        guard bytes.count > 0 else {
            throw ImageError(.unsupportedFormat, "\(name): empty file, not an image", name: name)
        }
        guard let codec = codecs.codec(sniffing: bytes.bytes) else {
            let readable = codecs.readableFormats.map { $0.name.uppercased() }.joined(separator: ", ")
            if let known = ImageFormat(sniffing: bytes.bytes) {
                throw ImageError(
                    .unsupportedFormat,
                    "\(name): \(known.name.uppercased()) decoding is not supported (Shrink reads \(readable))",
                    name: name)
            }
            throw ImageError(
                .unsupportedFormat,
                "\(name): not a supported image format (unrecognised signature; Shrink reads \(readable))", name: name)
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

    /// The file's pages: a multi-page TIFF's (counted from its header), 1 for any other file. An animation's frames
    /// are not pages.
    public var pageCount: Int { decoder.pageCount }

    /// Page `index` of the file (0 is this source's image) as a source of its own over the same bytes, its header
    /// read: no pixel is decoded. Fails with `.invalidArgument` when the file has no such page.
    public func page(_ index: Int) throws(ImageError) -> ImageSource {
        guard index >= 0 && index < pageCount else {
            throw ImageError(
                .invalidArgument,
                "\(name): page \(index) asked for, but the file has \(pageCount) page\(pageCount == 1 ? "" : "s") "
                    + "(pages count from 0)", name: name)
        }
        if index == 0 && decoder.pageCount == 1 { return self }
        do throws(ImageError) {
            return ImageSource(
                decoder: try decoder.page(index), bytes: bytes, name: name, limits: limits, codec: codec)
        } catch {
            throw error.naming(name)
        }
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
    package func checkInput() throws(ImageError) {
        if bytes.wasTruncatedWhileMapped { throw Self.truncatedWhileReading(name) }
    }

    /// Runs `body`, which reads the input, and reports `.truncated` instead of its result or its error when
    /// the mapped file was truncated meanwhile.
    package func readingInput<T>(_ body: () throws(ImageError) -> T) throws(ImageError) -> T {
        do {
            let result = try body()
            try checkInput()
            return result
        } catch {
            try checkInput()
            throw error
        }
    }

    package static func truncatedWhileReading(_ path: String) -> ImageError {
        ImageError(.truncated, "\(path): the file was truncated while it was being read (another process changed it)")
    }

    /// Bytes of the encoded file.
    public var fileBytes: Int { bytes.count }

    /// Working memory a full-size decode needs beyond a few rows: a progressive (or multi-scan) JPEG's
    /// coefficient buffer, an interlaced PNG's whole image; 0 for files that stream.
    package var decoderWorkingBytes: Int { decoder.route(RouteRequest(scaleDenominator: 1)).workingBytes }

    /// Decodes the image to `target` — of the part inside `region` (displayed pixels, after EXIF orientation)
    /// when given — and returns it oriented, in the pixel format ``ThumbnailOptions/pixelFormat`` asks for.
    ///
    /// The plan comes from the header: the decoder's own scaling (JPEG DCT 1/2–1/8, a progressive JPEG's DC
    /// scan, HEIC tiles) gets as close as the mode allows, then a streaming Lanczos resampler reduces rows as
    /// they leave the decoder, so the full-size bitmap never exists. Rows below a region are not decoded. The
    /// embedded thumbnail stands in when ``ThumbnailOptions/useEmbeddedThumbnail`` allows it.
    ///
    /// Memory: the result, plus a strip of rows and the decoder's working memory (a progressive JPEG's
    /// coefficients at the chosen scale, an interlaced PNG): ``predictedPeakBytes(for:options:)`` tells
    /// beforehand. Fails with `.invalidArgument` (an empty target, a region not entirely inside the image),
    /// `.limitExceeded` or `.memoryBudgetExceeded` (over ``limits``), `.corruptData` or `.truncated` (damage a
    /// decoder cannot step over; with ``ThumbnailOptions/strict`` any damage), `.unsupportedFeature`.
    public func image(
        _ target: ThumbnailTarget = .original, region: PixelRect? = nil,
        options: ThumbnailOptions = ThumbnailOptions()
    ) throws(ImageError) -> DecodedImage {
        try image(
            target, region: try fractional(region, rotation: rotation(under: options)), options: options, monitor: nil)
    }

    /// A thumbnail whose long side is `maxPixelSize` (smaller images keep their size unless
    /// ``ThumbnailOptions/allowUpscaling``): `image(.maxPixelSize(maxPixelSize), options: options)`.
    public func thumbnail(maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError)
        -> DecodedImage
    {
        try image(.maxPixelSize(maxPixelSize), options: options)
    }

    /// A thumbnail for a `size` box: `.inside` keeps the aspect ratio within the box, `.cover` fills the box
    /// and cuts where ``ThumbnailOptions/gravity`` says: `image(.box(size, fit: fit), options: options)`.
    public func thumbnail(
        size: PixelSize, fit: ThumbnailTarget.Fit = .inside,
        options: ThumbnailOptions = ThumbnailOptions()
    ) throws(ImageError) -> DecodedImage {
        try image(.box(size, fit: fit), options: options)
    }

    /// Decodes to `target` (of the part inside `region`, displayed pixels, when given): plans from the header,
    /// decodes at the plan's prescale, resamples while rows stream, orients once. A `monitor` can cancel the
    /// decode from another thread (it stops at the next strip, `.cancelled`) and measures its heap.
    package func image(
        _ target: ThumbnailTarget, region: FractionalRect?, options: ThumbnailOptions,
        monitor: DecodeMonitor?
    ) throws(ImageError) -> DecodedImage {
        do {
            if region == nil, let thumbnail = try embeddedThumbnail(for: target, options: options) {
                return try thumbnail.image(
                    target, options: options, monitor: monitor, orientation: info.orientation,
                    metadata: try decoder.metadata().orientedUpright)
            }
            return try image(decodePlan(target, region: region, options: options), monitor: monitor)
        } catch {
            throw error.naming(name)
        }
    }

    /// The size the image is shown at when `rotation` turns it after its own orientation: what targets, regions
    /// and crops refer to.
    /// The rotation after the stored orientation that `options` ask for: theirs, or, when they ignore the EXIF
    /// orientation (``ThumbnailOptions/appliesEXIFOrientation``), one that undoes it first.
    package func rotation(under options: ThumbnailOptions) -> ImageOrientation {
        options.appliesEXIFOrientation ? options.rotation : info.orientation.inverse.followed(by: options.rotation)
    }

    package func displayedSize(rotatedBy rotation: ImageOrientation) -> PixelSize {
        info.orientation.followed(by: rotation).displayedSize(of: info.size)
    }

    /// `region` as the planner takes it; `.invalidArgument` when it is not inside the displayed image (under
    /// `rotation`) or smaller than 1×1.
    package func fractional(_ region: PixelRect?, rotation: ImageOrientation = .up) throws(ImageError)
        -> FractionalRect?
    {
        guard let region else { return nil }
        return try checkedRegion(region, rotation: rotation)
    }

    /// `region` as the planner takes it (see ``fractional(_:rotation:)``).
    package func checkedRegion(_ region: PixelRect, rotation: ImageOrientation = .up) throws(ImageError)
        -> FractionalRect
    {
        let displayed = displayedSize(rotatedBy: rotation)
        guard region.isInside(displayed) else {
            throw ImageError(
                .invalidArgument,
                "\(name): region \(region) is outside the \(displayed) image (it must lie entirely inside and be at least 1x1)",
                name: name)
        }
        return FractionalRect(region)
    }
}
