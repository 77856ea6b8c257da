extension ImageRequest {
    /// The order in which queued decodes start: higher first, first come first served within a priority.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        /// Work nobody waits for yet (prefetching far ahead).
        case veryLow
        /// Work that may be needed soon (``ImagePrefetcher``'s default).
        case low
        /// An ordinary request (the default).
        case normal
        /// A request someone is looking at.
        case high
        /// A request that must overtake everything queued.
        case veryHigh

        /// Lower priorities sort first.
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }
}
