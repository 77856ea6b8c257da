#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoded bytes of an image: a read-only memory mapping of a file, or bytes handed over by the caller.
///
/// A mapping costs address space, not memory: only pages that are touched become resident, and decoders
/// release pages behind them (``isPageAlignedMapping``), so a large input does not show in peak RSS.
public final class ImageBytes: @unchecked Sendable {
    // Immutable after init: the mapping or allocation is owned for the object's lifetime, so the
    // address stays valid as long as the object lives (decoders keep a reference).
    private let base: UnsafeMutableRawPointer?
    /// Number of bytes.
    public let count: Int
    /// True when the bytes are a page-aligned file mapping whose consumed pages may be released
    /// (`madvise(MADV_DONTNEED)`); they are re-read from the file if touched again.
    public let isPageAlignedMapping: Bool
    /// The file the bytes came from, when they came from one.
    public let path: String?

    /// Maps the file at `path` read-only. Fails with `.fileNotFound` or `.io`; an empty file has no bytes.
    public init(mapping path: String) throws(ImageError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw ImageError(e == ENOENT ? .fileNotFound : .io, "\(path): cannot open", cause: Self.errnoText(e))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImageError(.io, "\(path): cannot stat", cause: Self.errnoText(errno)) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw ImageError(.io, "\(path): not a regular file") }
        count = Int(st.st_size)
        guard count > 0 else {
            base = nil
            isPageAlignedMapping = false
            return
        }
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw ImageError(.io, "\(path): cannot map", cause: Self.errnoText(errno))
        }
        base = mapped
        isPageAlignedMapping = true
    }

    /// Copies `bytes` once into storage whose address is stable for the object's lifetime.
    public init(_ bytes: [UInt8], path: String? = nil) {
        self.path = path
        count = bytes.count
        isPageAlignedMapping = false
        if bytes.isEmpty {
            base = nil
        } else {
            let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            base = storage
        }
    }

    deinit {
        guard let base else { return }
        if isPageAlignedMapping { munmap(base, count) } else { base.deallocate() }
    }

    /// The bytes. Valid while this object is alive.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Releases the resident pages of a mapping that lie wholly inside `range` (a no-op for owned bytes):
    /// for readers that walk the file once and will not come back.
    public func releaseResidentPages(in range: Range<Int>) {
        guard isPageAlignedMapping, let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (max(0, range.lowerBound) + page - 1) / page * page, end = min(count, range.upperBound) / page * page
        if end > start { _ = madvise(base + start, end - start, MADV_DONTNEED) }
    }

    /// Releases every resident page of a mapping (a no-op for owned bytes).
    public func releaseResidentPages() {
        if isPageAlignedMapping, let base { _ = madvise(base, count, MADV_DONTNEED) }
    }

    private static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
