import ShrinkCore

/// One image being made for every task that asked for it (the coalesced unit of work). Its mutable fields
/// are read and written only under the pipeline's lock.
final class PipelineJob: @unchecked Sendable {
    let key: CacheKey
    let request: ImageRequest
    /// How the result is encoded, for a request for bytes; nil for pixels.
    let output: OutputSettings?
    /// Cancels the decode between strips and measures its heap.
    let monitor: DecodeMonitor
    var tasks: [ImageTask] = []
    /// The highest priority of the waiting tasks.
    var priority: ImageRequest.Priority
    /// Set once the decode is queued.
    var schedulerID: Int?
    /// The key of the result, from the plan the header led to (nil before, and for a fallback plan): what
    /// requests spelled differently share. Written once, before the decode is queued, and read after it starts.
    var resultKey: CacheKey?

    init(key: CacheKey, request: ImageRequest, output: OutputSettings?, measuresMemory: Bool) {
        self.key = key
        self.request = request
        self.output = output
        self.priority = request.priority
        monitor = DecodeMonitor(measuringMemory: measuresMemory)
    }
}
