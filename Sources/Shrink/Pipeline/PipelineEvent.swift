/// What a pipeline reports to its ``ImagePipeline/Configuration/observer`` (instrumentation and tests).
public enum PipelineEvent: Sendable {
    /// A decode was admitted: its charge, and the sum of running charges including it.
    case decodeStarted(key: String, charge: Int, runningCharge: Int)
    /// A decode ended: cancelled or not, and how many source rows it had decoded.
    case decodeFinished(key: String, charge: Int, cancelled: Bool, rowsDecoded: Int)
    /// A result was stored in the memory cache at this cost.
    case memoryCacheStored(key: String, cost: Int)
    /// An entry was written to the disk cache.
    case diskCacheStored(key: String, bytes: Int)
    /// A write to the disk cache failed (why, naming the file); writing is off for its
    /// ``DiskCache/writePause``.
    case diskCacheWriteFailed(key: String, reason: String)
}
