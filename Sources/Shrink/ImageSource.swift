import ShrinkCore
import ShrinkJPEG

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
    /// The file path, or the name given for in-memory bytes; errors name it.
    public let path: String
    /// The encoded bytes.
    public let bytes: ImageBytes
    /// Everything the header says.
    public let info: ImageInfo
    /// The codec reading this image.
    public let decoder: any ImageDecoding

    /// Opens the image file at `path` (mapped read-only). Fails with `.fileNotFound`, `.io`,
    /// `.unsupportedFormat`, or the codec's header errors.
    public convenience init(path: String) throws(ImageError) {
        try self.init(bytes: try ImageBytes(mapping: path), name: path)
    }

    /// An image from bytes in memory (copied once); `name` is used in error messages.
    public convenience init(bytes: [UInt8], name: String = "<memory>") throws(ImageError) {
        try self.init(bytes: ImageBytes(bytes, path: name), name: name)
    }

    private init(bytes: ImageBytes, name: String) throws(ImageError) {
        self.path = name
        self.bytes = bytes
        guard bytes.count > 0 else { throw ImageError(.unsupportedFormat, "\(name): empty file, not an image") }
        guard let format = ImageFormat(sniffing: bytes.bytes) else {
            throw ImageError(.unsupportedFormat, "\(name): not a supported image format (unrecognised signature)")
        }
        guard format == .jpeg else {
            throw ImageError(.unsupportedFormat, "\(name): \(format.rawValue.uppercased()) decoding is not supported yet (JPEG only)")
        }
        decoder = try JPEGDecoder(bytes: bytes, path: name)
        info = decoder.info
    }

    /// Bytes of the encoded file.
    public var fileBytes: Int { bytes.count }

    /// Working memory the decoder needs whatever the output size: a progressive (or multi-scan) JPEG's
    /// coefficient buffer; 0 for files that stream.
    public var decoderWorkingBytes: Int { decoder.workingBytes }

    /// Plans a decode to `target` from the header alone. Fails with `.invalidArgument` for an empty target,
    /// `.limitExceeded` when the source or the output has more than `options.maxPixels` pixels, `.memoryBudgetExceeded` when the decoder's working memory
    /// exceeds `options.memoryBudget`.
    public func plan(_ target: ThumbnailTarget, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> ThumbnailPlan {
        guard info.size.pixelCount <= options.maxPixels else {
            throw ImageError(.limitExceeded, "\(path): \(info.size) is \(info.size.pixelCount) pixels, above the limit of \(options.maxPixels)")
        }
        guard decoderWorkingBytes <= options.memoryBudget else {
            throw ImageError(.memoryBudgetExceeded,
                             "\(path): decoding needs \(Self.mebibytes(decoderWorkingBytes)) of coefficient memory (progressive JPEG), above the budget of \(Self.mebibytes(options.memoryBudget))")
        }
        let plan = try ThumbnailPlan(info: info, target: target, options: options, prescales: decoder.scaleDenominators,
                                     scaledSize: decoder.scaledSize(denominator:))
        // An upscaled output is bounded by the same limit as a source.
        guard plan.outputSize.pixelCount <= options.maxPixels else {
            throw ImageError(.limitExceeded, "\(path): output \(plan.outputSize) is \(plan.outputSize.pixelCount) pixels, above the limit of \(options.maxPixels)")
        }
        return plan
    }

    /// A thumbnail whose long side is `maxPixelSize` (smaller images keep their size unless
    /// `options.allowUpscaling`). Memory: the result plus a few rows of working state.
    public func thumbnail(maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.maxPixelSize(maxPixelSize), options: options)
    }

    /// A thumbnail for a `size` box: `.inside` keeps the aspect ratio within the box, `.cover` fills the box
    /// and crops the centre.
    public func thumbnail(size: Size, fit: ThumbnailTarget.Fit = .inside,
                          options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.box(size, fit: fit), options: options)
    }

    /// The whole image at full size, oriented. Memory: the result plus a strip of rows.
    public func decode(options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        try image(.original, options: options)
    }

    /// Decodes to `target`: plans from the header, decodes at the plan's prescale, resamples while rows
    /// stream, orients once.
    public func image(_ target: ThumbnailTarget, options: ThumbnailOptions = ThumbnailOptions()) throws(ImageError) -> DecodedImage {
        do {
            let plan = try plan(target, options: options)
            let rows = try decoder.startDecoding(
                scaleDenominator: plan.prescale,
                options: DecodeOptions(fast: options.mode == .fast, strict: options.strict, memoryLimit: options.memoryBudget))
            defer { bytes.releaseResidentPages() }
            let pixels = try RowRenderer.render(plan, from: rows)
            return DecodedImage(pixels: pixels, plan: plan)
        } catch {
            throw error.naming(path)
        }
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
