import ShrinkCore
import Synchronization

/// Reads a file's DC-first decoder once, on first use, for every copy of its `JPEGDecoder`.
final class DCFirstCache: Sendable {
    private let state = Mutex<(done: Bool, decoder: DCFirstDecoder?)>((false, nil))

    /// The decoder, or nil when the file is not eligible or its scan script cannot be read (too many scans
    /// included: libjpeg then refuses it with the same limit).
    func value(bytes: ImageBytes, path: String, maxScans: Int, eligible: Bool) -> DCFirstDecoder? {
        guard eligible else { return nil }
        return state.withLock { s -> DCFirstDecoder? in
            if !s.done {
                s.decoder = try? DCFirstDecoder(bytes: bytes.bytes, path: path, maxScans: maxScans, release: { bytes.releaseResidentPages(in: 0 ..< max(0, $0)) })
                s.done = true
            }
            return s.decoder
        }
    }
}
