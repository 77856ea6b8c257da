#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Encoded thumbnails on disk, one file per entry, least recently used evicted beyond a size limit.
///
/// Each entry is written to a temporary file in the cache directory and renamed into place, so a process
/// killed at any moment leaves either the whole entry or none of it (plus perhaps a temporary file, removed
/// the next time a cache opens the directory). Every entry carries its key, its length and a checksum of
/// both; an entry that fails them (a torn write after a power loss, a truncated or edited file) is deleted and
/// reported as a miss, never served.
///
/// Recency is the file's modification time, refreshed on every hit, so it survives restarts. The index of
/// sizes lives in memory; several processes may share a directory, each evicting by its own view.
///
/// A write that fails (the disk full, the directory made read-only) turns writing off for ``writePause``: the
/// entries already there are still read, lookups that miss are decoded as without a cache, and nothing is written
/// until the pause ends and a write succeeds again (``Statistics/writeFailures``, ``Statistics/writesSkipped``,
/// ``isWriting``).
///
/// Memory: one entry at a time while reading or writing, plus ~100 bytes per entry for the index.
public final class DiskCache: Sendable {
    private struct Entry {
        var bytes: Int
        var lastUse: Int // nanoseconds since the epoch
    }

    private struct State: ~Copyable {
        var entries: [String: Entry] = [:]
        var statistics = Statistics()
        /// Writes are off until this instant (monotonic nanoseconds) after one failed.
        var writesOffUntil: UInt64 = 0

        /// Drops `name` from the index, keeping the totals right.
        mutating func forget(_ name: String) {
            guard let e = entries.removeValue(forKey: name) else { return }
            statistics.count -= 1
            statistics.bytes -= e.bytes
        }

        /// Records `name` at `bytes`, replacing whatever the index said of it before.
        mutating func record(_ name: String, bytes: Int, lastUse: Int) {
            forget(name)
            entries[name] = Entry(bytes: bytes, lastUse: lastUse)
            statistics.count += 1
            statistics.bytes += bytes
        }
    }

    /// The directory holding the entries.
    public let directory: String
    /// The most bytes kept on disk; the oldest entries go when a write passes it.
    public let sizeLimit: Int
    /// How long writing stays off after a write failed.
    public let writePause: Duration
    private let state = Mutex(State())

    private static let magic: [UInt8] = Array("SHRKDC1\n".utf8)
    private static let headerBytes = 8 + 4 + 8 + 8
    private static let suffix = ".entry"

    /// Opens (creating it if needed) the cache at `directory`, holding at most `sizeLimit` bytes
    /// (`256 MiB` by default), writing nothing for `writePause` after a write fails. Temporary files left by
    /// killed writers are removed. Fails with `.io` when the directory cannot be created or read (a read-only
    /// directory opens: its entries are read, and the first write turns writing off).
    public init(directory: String, sizeLimit: Int = 256 << 20, writePause: Duration = .seconds(30)) throws(ImageError) {
        self.directory = directory
        self.sizeLimit = max(0, sizeLimit)
        self.writePause = writePause
        try FileOutput.createDirectory(directory)
        guard let names = FileOutput.names(inDirectory: directory) else {
            throw ImageError(.io, "\(directory): cannot read the cache directory", name: directory)
        }
        var entries: [String: Entry] = [:]
        var total = 0
        for name in names {
            let path = directory + "/" + name
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            if name.contains(".tmp-") {
                if FileOutput.isAbandoned(path) { unlink(path) }
            } else if name.hasSuffix(Self.suffix) {
                entries[name] = Entry(bytes: Int(st.st_size), lastUse: Self.nanoseconds(st.st_mtim))
                total += Int(st.st_size)
            }
        }
        state.withLock { s in
            s.entries = entries
            s.statistics.count = entries.count
            s.statistics.bytes = total
        }
        evictIfNeeded()
    }

    /// The bytes stored for `key`, or nil. A damaged entry is deleted and counted in
    /// ``Statistics/corruptDropped``.
    public func data(for key: String) -> [UInt8]? {
        let name = Self.fileName(for: key)
        guard let file = Self.read(directory + "/" + name) else {
            state.withLock { s in
                s.statistics.misses += 1
                s.forget(name)
            }
            return nil
        }
        guard let payload = Self.payload(of: file, key: key) else {
            // Same name but another key (a hash collision) is a plain miss; anything else is damage.
            let collision = Self.storedKey(of: file).map { $0 != key } ?? false
            if !collision { unlink(directory + "/" + name) }
            state.withLock { s in
                s.statistics.misses += 1
                if !collision {
                    s.statistics.corruptDropped += 1
                    s.forget(name)
                }
            }
            return nil
        }
        let now = Self.now()
        var times = [
            timespec(tv_sec: now / 1_000_000_000, tv_nsec: now % 1_000_000_000),
            timespec(tv_sec: now / 1_000_000_000, tv_nsec: now % 1_000_000_000),
        ]
        _ = utimensat(AT_FDCWD, directory + "/" + name, &times, 0)
        state.withLock { s in
            s.statistics.hits += 1
            s.record(name, bytes: file.count, lastUse: now)
        }
        return payload
    }

    /// Stores `bytes` for `key` (atomically: temporary file, then rename), then evicts the least recently
    /// used entries while the total passes ``sizeLimit``. An entry larger than the whole limit is not stored, nor
    /// is any while writing is off (``isWriting``). Fails with `.io` when the file cannot be written; writing is
    /// then off for ``writePause``. Returns true when the entry was written.
    @discardableResult
    public func store(_ bytes: [UInt8], for key: String) throws(ImageError) -> Bool {
        let started = Self.monotonic()
        let skipped = state.withLock { s in
            guard started < s.writesOffUntil else { return false }
            s.statistics.writesSkipped += 1
            return true
        }
        guard !skipped else { return false }
        let keyBytes = Array(key.utf8)
        var file = Self.magic
        file.reserveCapacity(Self.headerBytes + keyBytes.count + bytes.count)
        Self.append(UInt32(keyBytes.count), to: &file)
        Self.append(UInt64(bytes.count), to: &file)
        Self.append(Self.checksum(keyBytes, bytes), to: &file)
        file += keyBytes
        file += bytes
        guard file.count <= sizeLimit else { return false }
        let name = Self.fileName(for: key)
        do { try FileOutput.write(file, to: directory + "/" + name) } catch {
            let pause = writePause.components
            let until = started + UInt64(pause.seconds) * 1_000_000_000 + UInt64(pause.attoseconds / 1_000_000_000)
            state.withLock { s in
                s.statistics.writeFailures += 1
                s.writesOffUntil = max(s.writesOffUntil, until)
            }
            throw error
        }
        state.withLock { s in
            s.record(name, bytes: file.count, lastUse: Self.now())
            s.statistics.writes += 1
        }
        evictIfNeeded()
        return true
    }

    /// Deletes the entry for `key`, if any.
    public func removeValue(for key: String) {
        let name = Self.fileName(for: key)
        unlink(directory + "/" + name)
        state.withLock { s in s.forget(name) }
    }

    /// Deletes every entry.
    public func removeAll() {
        let names = state.withLock { s -> [String] in
            let names = Array(s.entries.keys)
            s.entries.removeAll()
            s.statistics.count = 0
            s.statistics.bytes = 0
            return names
        }
        for name in names { unlink(directory + "/" + name) }
    }

    /// Counters and current contents.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// False while writing is off after a failed write (for ``writePause``).
    public var isWriting: Bool {
        let now = Self.monotonic()
        return state.withLock { now >= $0.writesOffUntil }
    }

    /// The file name for `key`: a 64-bit hash in hex (the key itself is inside, checked on read).
    static func fileName(for key: String) -> String {
        let h = checksum(Array(key.utf8), [])
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }

    private func evictIfNeeded() {
        let victims = state.withLock { s -> [String] in
            guard s.statistics.bytes > sizeLimit else { return [] }
            // Down to 90 % of the limit, so eviction (a sort) runs once per several writes, not every write.
            let goal = sizeLimit / 10 * 9
            var names: [String] = []
            for (name, _) in s.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard s.statistics.bytes > goal else { break }
                s.forget(name)
                s.statistics.evictions += 1
                names.append(name)
            }
            return names
        }
        for name in victims { unlink(directory + "/" + name) }
    }

    // MARK: - File format: magic, key length (u32), payload length (u64), checksum (u64), key, payload.

    private static func payload(of file: [UInt8], key: String) -> [UInt8]? {
        guard file.count >= headerBytes, Array(file[0..<8]) == magic else { return nil }
        let keyCount = Int(read32(file, 8)), payloadCount = Int(read64(file, 12))
        guard keyCount >= 0, payloadCount >= 0, headerBytes + keyCount + payloadCount == file.count else { return nil }
        let keyBytes = Array(file[headerBytes..<headerBytes + keyCount])
        guard keyBytes == Array(key.utf8) else { return nil }
        let payload = Array(file[(headerBytes + keyCount)...])
        guard checksum(keyBytes, payload) == read64(file, 20) else { return nil }
        return payload
    }

    private static func storedKey(of file: [UInt8]) -> String? {
        guard file.count >= headerBytes, Array(file[0..<8]) == magic else { return nil }
        let keyCount = Int(read32(file, 8))
        guard headerBytes + keyCount <= file.count else { return nil }
        return String(decoding: file[headerBytes..<headerBytes + keyCount], as: UTF8.self)
    }

    /// 64-bit FNV-1a over both arrays (with the key's length mixed in between), 8 bytes per step.
    static func checksum(_ a: [UInt8], _ b: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                var i = 0
                while i + 8 <= raw.count {
                    h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01b3
                    h ^= h >> 29
                    i += 8
                }
                while i < raw.count { h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01b3; i += 1 }
            }
        }
        mix(a)
        h = (h ^ UInt64(a.count)) &* 0x0000_0100_0000_01b3
        mix(b)
        return h
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func read32(_ b: [UInt8], _ at: Int) -> UInt32 {
        b.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }

    private static func read64(_ b: [UInt8], _ at: Int) -> UInt64 {
        b.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 0, st.st_size < 1 << 31 else { return nil }
        let size = Int(st.st_size)
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while done < size {
                let n = posixRead(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            count = done
        }
        return done == size ? bytes : nil
    }

    private static func nanoseconds(_ t: timespec) -> Int { t.tv_sec * 1_000_000_000 + t.tv_nsec }

    private static func monotonic() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    private static func now() -> Int {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return nanoseconds(t)
    }
}

// Inside DiskCache `read` is the static method, not libc's.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
