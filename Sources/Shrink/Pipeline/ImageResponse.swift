/// A finished request: the image and how it was made.
public struct ImageResponse: Sendable {
    /// The pixels (oriented) with their plan and metadata.
    public let image: DecodedImage
    /// Where it came from and what it cost.
    public let telemetry: ImageTelemetry

    /// A response of `image` with `telemetry` (pipelines make their own; for fakes and tests).
    public init(image: DecodedImage, telemetry: ImageTelemetry) {
        self.image = image
        self.telemetry = telemetry
    }
}
