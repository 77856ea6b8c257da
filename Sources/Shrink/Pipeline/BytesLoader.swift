import ShrinkCore

/// Serves bytes already in memory (an upload, a download): no copy, nothing to load. The caller names the
/// content (``identity()``): two loaders with the same identity must hold the same bytes, since caches and
/// coalescing trust it. Their bytes are charged to the pipeline's budget while a decode holds them.
public struct BytesLoader: DataLoading {
    /// The bytes.
    public let bytes: ImageBytes
    /// A name for errors and telemetry.
    public let name: String
    private let contentIdentity: String

    /// Wraps `bytes`; `identity` names their content (a digest, a URL with its validator). When nil, the
    /// SHA-256 of the bytes is used (one pass over them).
    public init(bytes: ImageBytes, name: String, identity: String? = nil) {
        self.bytes = bytes
        self.name = name
        self.contentIdentity = identity ?? "sha256:" + SHA256.hex(bytes.bytes.bindMemory(to: UInt8.self))
    }

    public func identity() throws(ImageError) -> String { "bytes:" + contentIdentity }

    public func load() async throws(ImageError) -> ImageBytes { bytes }

    public var loadsImmediately: Bool { true }

    public func loadImmediately() throws(ImageError) -> ImageBytes? { bytes }
}
