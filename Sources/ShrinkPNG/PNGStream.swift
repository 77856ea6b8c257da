#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkSPNG
import ShrinkCore

/// Feeds libspng from the mapped bytes through its read callback, releasing the mapping's pages behind the read
/// position (`MADV_DONTNEED`), so a large input does not show in resident memory: libspng copies what it reads into its
/// own small buffers; at most ``dropStep`` plus the kernel's 64 KiB fault-around block stay resident. (Far less peak
/// memory than handing libspng the mapped bytes, at the same CPU time: BENCHMARKS.md, "Figures behind the code".)
final class PNGStream {
    private let bytes: ImageBytes
    private var offset = 0
    private var dropped = 0
    /// Pages are released every this many bytes read.
    static let dropStep = 256 << 10
    private static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)

    init(bytes: ImageBytes) {
        self.bytes = bytes
    }

    /// Attaches this stream to `ctx`; the stream must outlive the context's reads.
    func attach(to ctx: OpaquePointer) -> Int32 {
        spng_set_png_stream(
            ctx,
            { _, user, destination, length in
                let stream = Unmanaged<PNGStream>.fromOpaque(user!).takeUnretainedValue()
                return stream.read(into: destination!, length: length)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func read(into destination: UnsafeMutableRawPointer, length: Int) -> Int32 {
        let available = bytes.count - offset
        guard length <= available else { return Int32(SPNG_IO_EOF.rawValue) }
        destination.copyMemory(from: bytes.bytes.baseAddress! + offset, byteCount: length)
        offset += length
        if bytes.isPageAlignedMapping && offset - dropped >= Self.dropStep {
            let end = offset / Self.pageSize * Self.pageSize
            _ = madvise(
                UnsafeMutableRawPointer(mutating: bytes.bytes.baseAddress! + dropped), end - dropped, MADV_DONTNEED)
            dropped = end
        }
        return 0
    }
}
