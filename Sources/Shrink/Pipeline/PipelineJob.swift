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
    /// The key of the result, from the plan (set once the header is read): where caches store it.
    var resultKey: CacheKey?

    /// Where the result is stored: its result key once known, else the request's key.
    var storageKey: CacheKey { resultKey ?? key }

    init(key: CacheKey, request: ImageRequest, output: OutputSettings?, measuresMemory: Bool) {
        self.key = key
        self.request = request
        self.output = output
        self.priority = request.priority
        monitor = DecodeMonitor(measuringMemory: measuresMemory)
    }
}
