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
    public func image(_ target: ThumbnailTarget = .original, region: PixelRect? = nil,
                      options: ThumbnailOptions = ThumbnailOptions(), on pipeline: ImagePipeline) async throws(ImageError) -> DecodedImage {
        let request = ImageRequest(loader: SourceLoader(source: self, call: Self.callCount.add(1, ordering: .relaxed).newValue),
                                   target: target, region: region, options: options, limits: limits,
                                   cachePolicy: [.skipMemoryCache, .skipDiskCache])
        return try await pipeline.image(for: request).image
    }

    /// A thumbnail whose long side is `maxPixelSize`, on `pipeline`'s decode threads (see
    /// `thumbnail(maxPixelSize:options:)`).
    public func thumbnail(maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions(),
                          on pipeline: ImagePipeline) async throws(ImageError) -> DecodedImage {
        try await image(.maxPixelSize(maxPixelSize), options: options, on: pipeline)
    }

    /// A thumbnail for a `size` box filled as `fit` says, on `pipeline`'s decode threads (see
    /// `thumbnail(size:fit:options:)`).
    public func thumbnail(size: PixelSize, fit: ThumbnailTarget.Fit = .inside, options: ThumbnailOptions = ThumbnailOptions(),
                          on pipeline: ImagePipeline) async throws(ImageError) -> DecodedImage {
        try await image(.box(size, fit: fit), options: options, on: pipeline)
    }

    /// Numbers each async call, so that no two share a pipeline job.
    private static let callCount = Atomic<Int>(0)
}
