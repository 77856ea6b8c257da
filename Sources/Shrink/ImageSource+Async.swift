import ShrinkCore
import Synchronization

/// The decode methods for `async` code: the same calls, awaited, run on a pipeline's decode threads
/// (``ImagePipeline/shared`` unless one is given) instead of the caller's, admitted by their predicted
/// peak like any request (with its fallbacks when the budget is tight), so a request handler never blocks
/// Swift's cooperative pool. Nothing is cached or shared with other requests: the source is already open.
/// Cancelling the awaiting task cancels the decode (queued, or at its next strip).
///
/// ```swift
/// router.get("/avatar") { request, context in
///     let thumb = try await ImageSource(path: path).thumbnail(maxPixelSize: 128)   // not on the caller's thread
///     ...
/// }
/// ```
extension ImageSource {
    /// ``image(_:region:options:)`` on `pipeline`'s decode threads.
    public func image(_ target: ThumbnailTarget = .original, region: PixelRect? = nil,
                      options: ThumbnailOptions = ThumbnailOptions(),
                      on pipeline: ImagePipeline = .shared) async throws(ImageError) -> DecodedImage {
        let loader = BytesLoader(bytes: bytes, name: name, identity: "source:\(Self.callCount.add(1, ordering: .relaxed).newValue)")
        let request = ImageRequest(loader: loader, target: target, region: region, options: options, limits: limits,
                                   cachePolicy: [.skipMemoryCache, .skipDiskCache])
        return try await pipeline.image(for: request).image
    }

    /// The long side `maxPixelSize`, as the synchronous `thumbnail(maxPixelSize:options:)` makes it, on
    /// ``ImagePipeline/shared``'s decode threads.
    public func thumbnail(maxPixelSize: Int, options: ThumbnailOptions = ThumbnailOptions()) async throws(ImageError) -> DecodedImage {
        try await image(.maxPixelSize(maxPixelSize), options: options)
    }

    /// A `size` box filled as `fit` says, as the synchronous `thumbnail(size:fit:options:)` makes it, on
    /// ``ImagePipeline/shared``'s decode threads.
    public func thumbnail(size: PixelSize, fit: ThumbnailTarget.Fit = .inside,
                          options: ThumbnailOptions = ThumbnailOptions()) async throws(ImageError) -> DecodedImage {
        try await image(.box(size, fit: fit), options: options)
    }

    /// Numbers each async call, so that no two share a pipeline job.
    private static let callCount = Atomic<Int>(0)
}
