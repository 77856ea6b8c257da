import ShrinkCore
import Synchronization

/// One request in flight: await its ``response``, change its ``priority`` while it waits, or ``cancel()``
/// it. Several tasks for the same image share one decode; the decode is cancelled only when every task
/// sharing it has been cancelled.
public final class ImageTask: Sendable {
    /// The request this task runs.
    public let request: ImageRequest

    private struct State {
        var result: Result<PipelineOutput, ImageError>?
        var waiting: [CheckedContinuation<Result<PipelineOutput, ImageError>, Never>] = []
        var observers: [@Sendable () -> Void] = []
        var priority: ImageRequest.Priority
    }

    private let state: Mutex<State>
    private weak let pipeline: ImagePipeline?

    init(request: ImageRequest, pipeline: ImagePipeline) {
        self.request = request
        self.pipeline = pipeline
        state = Mutex(State(priority: request.priority))
    }

    /// The priority of the decode this task waits for (the highest of the tasks sharing it). Setting it
    /// reorders the decode while it is queued; once started it has no effect.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            state.withLock { $0.priority = newValue }
            pipeline?.priorityChanged(self)
        }
    }

    /// The pixels, once there are any. Cancelling the awaiting Swift task cancels this image task.
    public var response: ImageResponse {
        get async throws(ImageError) {
            switch try await output() {
            case .decoded(let r): return r
            case .encoded:
                throw ImageError(
                    .invalidArgument, "\(request.loader.name): this task makes bytes; await encodedResponse",
                    name: request.loader.name)
            }
        }
    }

    /// The encoded bytes, for a task started by ``ImagePipeline/encodedImageTask(with:as:)``. Cancelling the
    /// awaiting Swift task cancels this image task.
    public var encodedResponse: EncodedResponse {
        get async throws(ImageError) {
            switch try await output() {
            case .encoded(let r): return r
            case .decoded:
                throw ImageError(
                    .invalidArgument, "\(request.loader.name): this task makes pixels; await response",
                    name: request.loader.name)
            }
        }
    }

    private func output() async throws(ImageError) -> PipelineOutput {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Result<PipelineOutput, ImageError>, Never>) in
                let ready = state.withLock { s -> Result<PipelineOutput, ImageError>? in
                    if let r = s.result { return r }
                    s.waiting.append(c)
                    return nil
                }
                if let ready { c.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// True once the task has a result (an image, an error, or `.cancelled`).
    public var isFinished: Bool { state.withLock { $0.result != nil } }

    /// Stops waiting: the response becomes `.cancelled`, and the shared decode is cancelled when no other
    /// task waits for it (queued: removed; running: stopped at the next strip, its buffers freed).
    public func cancel() {
        guard !isFinished else { return }
        pipeline?.detach(self)
        finish(.failure(ImageError(.cancelled, "\(request.loader.name): request cancelled", name: request.loader.name)))
    }

    /// Calls `body` once the task has a result (at once if it has one), on the thread that delivers it.
    /// Used where awaiting in a Swift task would cost a task per image (the prefetcher).
    func onFinish(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.result != nil { return true }
            s.observers.append(body)
            return false
        }
        if now { body() }
    }

    /// Delivers the result (the first one wins).
    func finish(_ result: Result<PipelineOutput, ImageError>) {
        let (waiting, observers) = state.withLock {
            s -> ([CheckedContinuation<Result<PipelineOutput, ImageError>, Never>], [@Sendable () -> Void]) in
            guard s.result == nil else { return ([], []) }
            s.result = result
            defer { s.waiting = []; s.observers = [] }
            return (s.waiting, s.observers)
        }
        for c in waiting { c.resume(returning: result) }
        for o in observers { o() }
    }
}
