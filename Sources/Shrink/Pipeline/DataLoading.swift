import ShrinkCore

/// Where a request's encoded bytes come from: ``FileLoader`` (a mapped file) and ``BytesLoader`` (bytes in
/// memory) ship with Shrink; an app adds its own for object stores, databases or HTTP.
///
/// A loader must tell, without loading, an ``identity()`` that changes whenever the bytes would: caches and
/// the coalescing of identical requests are keyed by it. Its failures are `ImageError`s; the error of the
/// client underneath travels with them as ``ImageError/underlying``, and the pipeline names the loader's
/// ``name`` in the message (``ImageError/reason`` leaves it out):
///
/// ```swift
/// struct BucketLoader: DataLoading {
///     let bucket: Bucket, key: String
///     var name: String { "s3://photos/\(key)" }
///     func identity() throws(ImageError) -> String { "s3:\(key)#\(bucket.etag(key))" }
///     func load() async throws(ImageError) -> ImageBytes {
///         do {
///             return ImageBytes(try await bucket.object(key))
///         } catch {
///             throw ImageError(.io, "cannot fetch the object", underlying: error)
///         }
///     }
/// }
/// ```
public protocol DataLoading: Sendable {
    /// A name for errors and telemetry: a path or a URL.
    var name: String { get }
    /// A string naming this exact content (a file's path, size and modification time; a URL with its
    /// ETag). Cheap: called for every request before anything is loaded.
    func identity() throws(ImageError) -> String
    /// The encoded bytes. Files are mapped, not read; a network loader may suspend.
    func load() async throws(ImageError) -> ImageBytes
    /// The bytes without suspending, when the loader can get them at once (a file mapping); nil otherwise
    /// (the default), and the pipeline awaits ``load()``. A pipeline reads headers of synchronous sources on
    /// its own decode threads, so that page faults on headers never block Swift's cooperative pool.
    func loadImmediately() throws(ImageError) -> ImageBytes?
    /// True when ``loadImmediately()`` returns the bytes. `false` by default.
    var loadsImmediately: Bool { get }
}

extension DataLoading {
    public func loadImmediately() throws(ImageError) -> ImageBytes? { nil }
    public var loadsImmediately: Bool { false }
}
