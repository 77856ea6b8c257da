import ShrinkCore
import Synchronization

/// Something read from a file's bytes once, on first use, for every copy of its `JPEGDecoder`: the DC-first
/// decoder's scan script walk, the DC-only decoder's header read.
final class ReadOnce<Value: Sendable>: Sendable {
    private let state = Mutex<(done: Bool, value: Value?)>((false, nil))

    /// The value, or nil when the file is not `eligible` or `read` failed (the general path then decodes it,
    /// and reports whatever is wrong with the file).
    func value(eligible: Bool, _ read: () throws(ImageError) -> Value) -> Value? {
        guard eligible else { return nil }
        return state.withLock { s -> Value? in
            if !s.done {
                s.value = try? read()
                s.done = true
            }
            return s.value
        }
    }
}
