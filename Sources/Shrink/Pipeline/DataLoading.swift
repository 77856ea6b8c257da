import ShrinkCore

/// Where a request's encoded bytes come from: a file today, HTTP later.
///
/// A loader must tell, without loading, an ``identity()`` that changes whenever the bytes would: caches and
/// the coalescing of identical requests are keyed by it.
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
