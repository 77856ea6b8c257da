import ShrinkCore

/// Hands an already-open ``ImageSource`` to a pipeline (`ImageSource`'s async methods): its bytes at once, and
/// the source itself, which the pipeline plans with instead of opening the bytes again (so the codecs it was
/// opened with hold, and the header is not parsed twice). Each call is an identity of its own: nothing is
/// coalesced or cached across calls.
package struct SourceLoader: DataLoading {
    package let source: ImageSource
    /// The call's number (``identity()``).
    let call: Int

    package var name: String { source.name }
    package func identity() throws(ImageError) -> String { "source:\(call)" }
    package func load() async throws(ImageError) -> ImageBytes { source.bytes }
    package var loadsImmediately: Bool { true }
    package func loadImmediately() throws(ImageError) -> ImageBytes? { source.bytes }
}
