/// What a pipeline job hands its tasks: pixels, or bytes for a request for an encoded image.
enum PipelineOutput: Sendable {
    case decoded(ImageResponse)
    case encoded(EncodedResponse)

    var telemetry: ImageTelemetry {
        switch self {
        case .decoded(let r): r.telemetry
        case .encoded(let r): r.telemetry
        }
    }

    /// The same result with `telemetry` changed (the coalesced flag of each task).
    func with(_ change: (inout ImageTelemetry) -> Void) -> PipelineOutput {
        var t = telemetry
        change(&t)
        switch self {
        case .decoded(let r): return .decoded(ImageResponse(image: r.image, telemetry: t))
        case .encoded(let r): return .encoded(EncodedResponse(image: r.image, telemetry: t))
        }
    }
}
