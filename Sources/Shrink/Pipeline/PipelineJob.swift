import ShrinkCore

/// One image being made for every task that asked for it (the coalesced unit of work). Its mutable fields
/// are read and written only under the pipeline's lock.
final class PipelineJob: @unchecked Sendable {
    let key: String
    let request: ImageRequest
    /// Cancels the decode between strips and measures its heap.
    let monitor: DecodeMonitor
    var tasks: [ImageTask] = []
    /// The highest priority of the waiting tasks.
    var priority: Priority
    /// Set once the decode is queued.
    var schedulerID: Int?

    init(key: String, request: ImageRequest, measuresMemory: Bool) {
        self.key = key
        self.request = request
        self.priority = request.priority
        monitor = DecodeMonitor(measuringMemory: measuresMemory)
    }
}
