#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

import CShrinkSystem

/// The encoded bytes of an image: a read-only memory mapping of a file, or bytes handed over by the caller.
///
/// A mapping costs address space, not memory: only pages that are touched become resident, and decoders
/// release pages behind them, so a large input does not show in peak RSS.
/// A mapped file may be truncated by another process while it is read; that would raise SIGBUS. Every
/// mapping is registered with a guard that maps a zero page over the missing part instead and marks the
/// bytes, so the decode that read them ends with `.truncated`, not a crash.
/// (Reading the file into the heap instead would cost its whole size in memory; see BENCHMARKS.md, "Inputs".)
public final class ImageBytes: @unchecked Sendable {
    // Immutable after init: the mapping or allocation is owned for the object's lifetime, so the
    // address stays valid as long as the object lives (decoders keep a reference).
    private let base: UnsafeMutableRawPointer?
    /// Number of bytes.
    public let count: Int
    /// True when the bytes are a page-aligned file mapping whose consumed pages may be released
    /// (`madvise(MADV_DONTNEED)`); they are re-read from the file if touched again.
    package let isPageAlignedMapping: Bool
    /// The file the bytes came from, or the name they were given; nil when neither.
    public let name: String?
    /// The mapping's slot in the SIGBUS guard (-1 when not mapped).
    private let guardSlot: Int32
    /// Called once the bytes are freed (a download's reservation returned to its budget).
    private let onRelease: (@Sendable () -> Void)?
    /// The bytes a slice is part of (kept alive by it), nil for bytes of their own.
    private let parent: ImageBytes?

    /// Maps the file at `path` read-only. It is opened without blocking (a FIFO or device never hangs) and
    /// must be a regular file: anything else is `.io` naming what it is. A missing file is `.fileNotFound`,
    /// an unreadable one `.io`; an empty file has no bytes.
    public init(mapping path: String) throws(ImageError) {
        self.name = path
        onRelease = nil
        parent = nil
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let e = errno
            throw ImageError(
                e == ENOENT || e == ENOTDIR ? .fileNotFound : .io, "\(path): cannot open", cause: Self.errnoText(e))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImageError(.io, "\(path): cannot stat", cause: Self.errnoText(errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw ImageError(.io, "\(path): \(Self.fileKind(st.st_mode)), not a regular file")
        }
        count = Int(st.st_size)
        guard count > 0 else {
            base = nil
            isPageAlignedMapping = false
            guardSlot = -1
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw ImageError(.io, "\(path): cannot map", cause: Self.errnoText(errno))
        }
        let slot = csys_guard_register(mapped, count)
        if slot >= 0 {
            base = mapped
            isPageAlignedMapping = true
            guardSlot = slot
            return
        }
        // No guard (every slot taken, or no SIGBUS handler allowed): read the file instead of mapping it.
        munmap(mapped, count)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        var done = 0
        while done < count {
            let n = pread(fd, storage + done, count - done, off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                storage.deallocate()
                throw ImageError(
                    .truncated, "\(path): the file ended after \(done) of \(count) bytes while it was read")
            }
            done += n
        }
        base = storage
        isPageAlignedMapping = false
        guardSlot = -1
    }

    /// Reads file descriptor `fd` (standard input, a pipe) to its end into owned bytes, refusing more than
    /// `maxBytes` (`.limitExceeded`) before reading further. `name` appears in errors (`<stdin>`, say).
    package init(reading fd: Int32, name: String, maxBytes: Int) throws(ImageError) {
        self.name = name
        onRelease = nil
        parent = nil
        isPageAlignedMapping = false
        guardSlot = -1
        var capacity = 1 << 16, used = 0
        var storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        while true {
            if used == capacity {
                guard capacity <= maxBytes else {
                    storage.deallocate()
                    throw ImageError(
                        .limitExceeded,
                        "\(name): input is larger than the limit of \(maxBytes) bytes (ImageLimits.maxInputBytes)")
                }
                let grown = UnsafeMutableRawPointer.allocate(byteCount: min(capacity * 2, maxBytes + 1), alignment: 16)
                grown.copyMemory(from: storage, byteCount: used)
                storage.deallocate()
                storage = grown
                capacity = min(capacity * 2, maxBytes + 1)
            }
            let n = read(fd, storage + used, capacity - used)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                let e = errno
                storage.deallocate()
                throw ImageError(.io, "\(name): cannot read", cause: Self.errnoText(e))
            }
            if n == 0 { break }
            used += n
        }
        guard used <= maxBytes else {
            storage.deallocate()
            throw ImageError(
                .limitExceeded,
                "\(name): input is larger than the limit of \(maxBytes) bytes (ImageLimits.maxInputBytes)")
        }
        count = used
        if used == 0 {
            storage.deallocate()
            base = nil
        } else {
            base = storage
        }
    }

    /// True when the mapped file was truncated while its bytes were read: some of them read as zeros
    /// instead of the file's. Decoders check it when they end and report `.truncated`.
    package var wasTruncatedWhileMapped: Bool {
        parent?.wasTruncatedWhileMapped ?? (guardSlot >= 0 && csys_guard_faulted(guardSlot) != 0)
    }

    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// Takes ownership of `buffer` without copying (a download written straight into its final storage): it
    /// must come from `UnsafeMutableRawBufferPointer.allocate` and is deallocated with this object. The
    /// first `count` bytes are the image.
    /// `onRelease` runs after the buffer is freed (to return a reservation of its bytes).
    package init(
        adopting buffer: UnsafeMutableRawBufferPointer, count: Int, name: String? = nil,
        onRelease: (@Sendable () -> Void)? = nil
    ) {
        precondition(count >= 0 && count <= buffer.count, "ImageBytes(adopting:): count outside the buffer")
        self.onRelease = onRelease
        parent = nil
        self.name = name
        self.count = count
        isPageAlignedMapping = false
        guardSlot = -1
        base = buffer.baseAddress
    }

    /// Copies `bytes` once into storage whose address is stable for the object's lifetime; `name` says
    /// where they came from (errors name it).
    public init(_ bytes: [UInt8], name: String? = nil) {
        self.name = name
        onRelease = nil
        parent = nil
        count = bytes.count
        isPageAlignedMapping = false
        guardSlot = -1
        if bytes.isEmpty {
            base = nil
        } else {
            let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            base = storage
        }
    }

    /// A part of `whole` (`range`, which must lie inside it), without a copy: an image stored inside another file (an
    /// icon's PNG entry, a camera file's JPEG preview) opened as bytes of its own. It keeps `whole` alive; `name`
    /// is what errors call it.
    package init(slice range: Range<Int>, of whole: ImageBytes, name: String? = nil) {
        precondition(range.lowerBound >= 0 && range.upperBound <= whole.count, "ImageBytes(slice:of:): outside")
        self.name = name ?? whole.name
        onRelease = nil
        parent = whole
        count = range.count
        isPageAlignedMapping = false
        guardSlot = -1
        base = range.isEmpty ? nil : UnsafeMutableRawPointer(mutating: whole.bytes.baseAddress! + range.lowerBound)
    }

    deinit {
        if parent == nil, let base {
            if isPageAlignedMapping {
                csys_guard_unregister(guardSlot)
                munmap(base, count)
            } else {
                base.deallocate()
            }
        }
        onRelease?()
    }

    /// The bytes. Valid while this object is alive.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Releases the resident pages of a mapping that lie wholly inside `range` (a no-op for owned bytes):
    /// for readers that walk the file once and will not come back.
    package func releaseResidentPages(in range: Range<Int>) {
        guard isPageAlignedMapping, let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (max(0, range.lowerBound) + page - 1) / page * page,
            end = min(count, range.upperBound) / page * page
        if end > start { _ = madvise(base + start, end - start, MADV_DONTNEED) }
    }

    /// Releases every resident page of a mapping (a no-op for owned bytes).
    package func releaseResidentPages() {
        if isPageAlignedMapping, let base { _ = madvise(base, count, MADV_DONTNEED) }
    }

    private static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
