import Shrink

/// A pipeline source over bytes in memory, loaded at once on a decode thread or through the async path.
/// Its identity is unique to the loader, so no two fuzz inputs share a cache entry and every input replays
/// alike.
struct MemoryLoader: DataLoading {
    let bytes: [UInt8]
    let serial: Int
    let loadsImmediately: Bool

    var name: String { "fuzz-\(serial)" }

    func identity() -> String { "memory:\(serial)#\(bytes.count)" }

    func load() async throws(ImageError) -> ImageBytes { ImageBytes(bytes, name: name) }

    func loadImmediately() throws(ImageError) -> ImageBytes? { loadsImmediately ? ImageBytes(bytes, name: name) : nil }
}
