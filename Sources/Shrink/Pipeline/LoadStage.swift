import ShrinkCore

/// The pipeline's load stage: a job's source bytes, from its ``DataLoading`` loader. A loader that can map at
/// once (a file) is read on a decode thread as a zero-charge step, so header page faults never block Swift's
/// cooperative pool; any other loader (a download, an upload being received) is awaited in a task.
struct LoadStage: Sendable {
    let scheduler: DecodeScheduler
    let jobs: PipelineJobs

    /// Loads `job`'s bytes and hands them to `next`, unless `answered` (asked first, where the load runs)
    /// answers the job without them (the disk tier); a load that fails goes to `failed`.
    func load(
        _ job: PipelineJob, answered: @escaping @Sendable () -> Bool,
        next: @escaping @Sendable (ImageBytes) -> Void, failed: @escaping @Sendable (ImageError) -> Void
    ) {
        let loader = job.request.loader
        guard loader.loadsImmediately else {
            // One Swift priority for every stage: each distinct priority gets its own executor threads.
            Task.detached {
                guard !answered() else { return }
                do throws(ImageError) {
                    next(try await loader.load())
                } catch {
                    failed(error)
                }
            }
            return
        }
        do throws(ImageError) {
            let id = try scheduler.submit(
                charge: 0, priority: jobs.priority(of: job), name: loader.name, isDecode: false
            ) { _ in
                guard !job.monitor.isCancelled, !answered() else { return }
                do throws(ImageError) {
                    guard let bytes = try loader.loadImmediately() else { return }
                    next(bytes)
                } catch {
                    failed(error)
                }
            }
            jobs.headerQueued(job, id: id)
        } catch {
            failed(error)
        }
    }
}
