extension DiskCache {
    /// Counters since the cache was opened and the current contents.
    public struct Statistics: Sendable, Equatable {
        /// Lookups that found an entry.
        public var hits = 0
        /// Lookups that found none (or a damaged one).
        public var misses = 0
        /// Entries written.
        public var writes = 0
        /// Entries deleted to stay within ``DiskCache/sizeLimit``, least recently used first.
        public var evictions = 0
        /// Entries found damaged and deleted.
        public var corruptDropped = 0
        /// Writes that failed (each turns writing off for ``DiskCache/writePause``).
        public var writeFailures = 0
        /// Entries not written because writing was off.
        public var writesSkipped = 0
        /// Entries on disk now.
        public var count = 0
        /// Their total bytes now (headers included).
        public var bytes = 0
    }
}
