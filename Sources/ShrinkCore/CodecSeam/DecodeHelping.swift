/// Threads a decode may borrow while cores would otherwise idle: a codec whose image splits into pieces that
/// decode apart (a grid's tiles, a TIFF's) offers work to its helpers and does the work itself when they refuse.
///
/// A helper's work takes pieces until none is left, the decode ends, or ``othersWaiting`` says another job waits
/// for its thread: it gives the thread back after the piece it holds (or within a few milliseconds while it waits
/// for the decode's reader), and no helper runs on once the decode has ended.
public protocol DecodeHelping: Sendable {
    /// Starts `work` on another thread now, counting `bytes` (what a helper holds: a decoder and its piece) against
    /// the owner's budget until `work` returns, when a core would idle and the bytes fit; false otherwise, and
    /// `work` is never run.
    func lend(bytes: Int, _ work: @escaping @Sendable () -> Void) -> Bool
    /// True when other work waits for a thread: a helper finishes the piece it holds and returns.
    var othersWaiting: Bool { get }
}
