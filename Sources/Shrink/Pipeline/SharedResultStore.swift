/// A tier of encoded results shared beyond this process — an object store every node of a cluster reads and
/// writes — behind the memory and disk tiers: a request for bytes that misses both asks it before any load or
/// decode, and a result encoded here is handed to it. An implementation never fails a request: a miss, a store
/// that is slow or down, or an entry that fails its check are all `nil`, and a write that fails is its own
/// business (counted, never surfaced).
///
/// Cost: one lookup (a network round trip in a remote store) per request that misses the local tiers, and one
/// write per result made here.
public protocol SharedResultStore: Sendable {
    /// The stored result under `key`, only when it is whole (its length and checksum verified); nil otherwise.
    func result(for key: String) async -> [UInt8]?
    /// Stores `image` under `key` in the background; returns at once.
    func store(_ image: EncodedImage, for key: String)
}
