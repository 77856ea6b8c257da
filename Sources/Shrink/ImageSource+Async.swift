import ShrinkCore
import Synchronization

/// The decode methods for `async` code: the same calls with the pipeline to run them on, awaited. They run on
/// that pipeline's decode threads instead of the caller's, admitted by their predicted peak like any request,
/// so a request handler never blocks Swift's cooperative pool; ``ImagePipeline/shared`` serves when the app has
/// no pipeline of its own. Cancelling the awaiting task cancels the decode (queued, or at its next strip).
///
/// They decode as the pipeline decodes a request: with its fallbacks when the budget does not fit the plan (fast
/// mode, a coarser DCT scale; reported by a request's telemetry), without the embedded thumbnail, and without
/// caching or sharing the result (the source is already open).
///
/// ```swift
/// router.get("/avatar") { request, context in
///     let source = try ImageSource(path: path)                       // maps the file, reads the header
///     let avatar = try await source.thumbnail(maxPixelSize: 128, on: .shared)
///     ...
/// }
/// ```
extension ImageSource {
    /// ``image(_:region:options:)`` on `pipeline`'s decode threads.
    public func image(
        _ target: ThumbnailTarget = .original, region: PixelRect? = nil,
        options: ThumbnailOptions = ThumbnailOptions(), on pipeline: ImagePipeline
    ) async throws(ImageError) -> DecodedImage {
        try await pipeline.image(for: request(target, region: region, options: options)).image
    }

    /// A thumbnail whose long side is `maxPixelSize`, on `pipeline`'s decode threads (see
    /// `thumbnail(maxPixelSize:options:)`).
    public func thumbnail(
        maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions(),
        on pipeline: ImagePipeline
    ) async throws(ImageError) -> DecodedImage {
        try await image(.maxPixelSize(maxPixelSize), options: options, on: pipeline)
    }

    /// A thumbnail for a `size` box filled as `fit` says, on `pipeline`'s decode threads (see
    /// `thumbnail(size:fit:options:)`).
    public func thumbnail(
        size: PixelSize, fit: ThumbnailTarget.Fit = .inside, options: ThumbnailOptions = ThumbnailOptions(),
        on pipeline: ImagePipeline
    ) async throws(ImageError) -> DecodedImage {
        try await image(.box(size, fit: fit), options: options, on: pipeline)
    }

    /// The image at `target` (of `region`, when given) encoded as `output` says, decoded and encoded on
    /// `pipeline`'s decode threads inside one charge: what a request handler sends. The pixels are decoded in
    /// the format the encoder takes best (YUV planes for a 4:2:0 JPEG or a lossy WebP).
    ///
    /// ```swift
    /// let webp = try await source.encodedImage(.maxPixelSize(256), as: OutputSettings(format: .webp), on: pipeline)
    /// return Response(status: .ok, headers: [.contentType: webp.mimeType], body: .init(byteBuffer: ByteBuffer(bytes: webp.bytes)))
    /// ```
    public func encodedImage(
        _ target: ThumbnailTarget = .original, region: PixelRect? = nil,
        options: ThumbnailOptions = ThumbnailOptions(), as output: OutputSettings,
        on pipeline: ImagePipeline
    ) async throws(ImageError) -> EncodedImage {
        try await pipeline.encodedImage(for: request(target, region: region, options: options), as: output).image
    }

    /// The pipeline request of one call on this source: its own identity, no cache.
    private func request(_ target: ThumbnailTarget, region: PixelRect?, options: ThumbnailOptions) -> ImageRequest {
        ImageRequest(
            loader: SourceLoader(source: self, call: Self.callCount.add(1, ordering: .relaxed).newValue),
            target: target, region: region, options: options, limits: limits,
            cachePolicy: [.skipMemoryCache, .skipDiskCache])
    }

    /// Numbers each async call, so that no two share a pipeline job.
    private static let callCount = Atomic<Int>(0)
}
