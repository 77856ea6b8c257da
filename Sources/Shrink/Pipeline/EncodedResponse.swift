/// A finished request for bytes (``ImagePipeline/encodedImage(for:as:)``): the encoded image and how it was
/// made.
public struct EncodedResponse: Sendable {
    /// The encoded result.
    public let image: EncodedImage
    /// Where it came from and what it cost.
    public let telemetry: ImageTelemetry

    /// A response of `image` with `telemetry` (pipelines make their own; for fakes and tests).
    public init(image: EncodedImage, telemetry: ImageTelemetry) {
        self.image = image
        self.telemetry = telemetry
    }
}
