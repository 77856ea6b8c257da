import ShrinkCore
import Synchronization

/// The pipeline's coalescing: the jobs in flight by key, the job each task waits for, and the counters of
/// what coalescing and cancelling did. A task for a key already in flight joins that job; a job is cancelled
/// when its last task leaves. Every job field that changes after the job starts (its tasks, priority and
/// scheduler ID) is read and written under this type's lock.
///
/// Memory: one entry per job in flight and one per waiting task.
final class PipelineJobs: Sendable {
    private struct State {
        var jobs: [CacheKey: PipelineJob] = [:]
        var jobOfTask: [ObjectIdentifier: PipelineJob] = [:]
        var decodesCancelled = 0
        var coalesced = 0
        var encodes = 0
    }
    private let state = Mutex(State())
    private let scheduler: DecodeScheduler

    init(scheduler: DecodeScheduler) {
        self.scheduler = scheduler
    }

    /// Adds `task` to the job in flight for `key`, raising its priority to the task's; or, when none is, makes
    /// and returns a new job for it (the caller starts it).
    func join(_ task: ImageTask, key: CacheKey, output: OutputSettings?, measuresMemory: Bool) -> PipelineJob? {
        state.withLock { s -> PipelineJob? in
            if let job = s.jobs[key] {
                job.tasks.append(task)
                job.priority = max(job.priority, task.request.priority)
                s.jobOfTask[ObjectIdentifier(task)] = job
                s.coalesced += 1
                if let id = job.schedulerID { scheduler.setPriority(job.priority, for: id) }
                return nil
            }
            let job = PipelineJob(key: key, request: task.request, output: output, measuresMemory: measuresMemory)
            job.tasks = [task]
            s.jobs[key] = job
            s.jobOfTask[ObjectIdentifier(task)] = job
            return job
        }
    }

    /// The highest priority of `job`'s tasks now.
    func priority(of job: PipelineJob) -> ImageRequest.Priority {
        state.withLock { _ in job.priority }
    }

    /// Records that `job`'s header read was queued as `id`, unless its decode already was.
    func headerQueued(_ job: PipelineJob, id: Int) {
        state.withLock { _ in if job.schedulerID == nil { job.schedulerID = id } }
    }

    /// Records that `job`'s decode was queued as `id`, applying a priority raised since it was submitted at
    /// `submitted`. Returns true when the job was cancelled meanwhile (the caller unqueues it).
    func decodeQueued(_ job: PipelineJob, id: Int, submittedAt submitted: ImageRequest.Priority) -> Bool {
        state.withLock { _ -> Bool in
            job.schedulerID = id
            if job.priority != submitted { scheduler.setPriority(job.priority, for: id) }
            return job.monitor.isCancelled
        }
    }

    /// Forgets `job` and returns the tasks that waited for it, in the order they joined.
    func finish(_ job: PipelineJob) -> [ImageTask] {
        state.withLock { s -> [ImageTask] in
            if s.jobs[job.key] === job { s.jobs[job.key] = nil }
            let tasks = job.tasks
            job.tasks = []
            for t in tasks { s.jobOfTask[ObjectIdentifier(t)] = nil }
            return tasks
        }
    }

    /// `task` no longer waits; when it was its job's last task, the job is cancelled (stopped at the next strip,
    /// or unqueued) and counted.
    func detach(_ task: ImageTask) {
        let (job, cancelID) = state.withLock { s -> (PipelineJob?, Int?) in
            guard let job = s.jobOfTask.removeValue(forKey: ObjectIdentifier(task)) else { return (nil, nil) }
            job.tasks.removeAll { $0 === task }
            guard job.tasks.isEmpty else {
                job.priority = job.tasks.map(\.priority).max() ?? job.priority
                return (nil, nil)
            }
            if s.jobs[job.key] === job { s.jobs[job.key] = nil }
            job.monitor.cancel()
            return (job, job.schedulerID)
        }
        if let cancelID, scheduler.cancelQueued(cancelID), job != nil { countCancelledDecode() }
    }

    /// The job `task` waits for takes the highest priority of its tasks.
    func priorityChanged(_ task: ImageTask) {
        state.withLock { s in
            guard let job = s.jobOfTask[ObjectIdentifier(task)] else { return }
            job.priority = job.tasks.map(\.priority).max() ?? task.priority
            if let id = job.schedulerID { scheduler.setPriority(job.priority, for: id) }
        }
    }

    /// The scheduler ID of the work `task` waits for, once queued.
    func schedulerID(of task: ImageTask) -> Int? {
        state.withLock { $0.jobOfTask[ObjectIdentifier(task)]?.schedulerID }
    }

    /// Counts a decode stopped because every task waiting for it was cancelled.
    func countCancelledDecode() { state.withLock { $0.decodesCancelled += 1 } }

    /// Counts a result encoded to bytes.
    func countEncode() { state.withLock { $0.encodes += 1 } }

    /// The jobs, waiting tasks and counters, written into `ledger`.
    func record(into ledger: inout PipelineLedger) {
        state.withLock { s in
            ledger.inFlightImages = s.jobs.count
            ledger.waitingTasks = s.jobOfTask.count
            ledger.decodesCancelled = s.decodesCancelled
            ledger.coalescedRequests = s.coalesced
            ledger.encodes = s.encodes
        }
    }
}
