import CShrinkSystem

/// The bytes the C allocator has handed out and not taken back (`mallinfo2`: arena chunks in use plus
/// chunks it mapped on its own), for measuring what a decode really holds. Swift's allocations go through
/// the same allocator. It is process-wide: with several decodes running at once, each sees the others'
/// buffers too. 0 where the C library cannot tell.
///
/// Cost: a walk over the allocator's free lists (BENCHMARKS.md, "Figures behind the code"); call it between strips, not
/// per row.
package enum HeapUsage {
    package static var bytesInUse: Int { Int(csys_heap_bytes_in_use()) }

    /// The bytes the allocator holds from the system (its arenas and mappings). When glibc is told never to
    /// map and never to trim (`GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=…`), this
    /// only grows, so its growth over a decode is the decode's high-water mark, including what a C codec
    /// allocated and freed between two checkpoints.
    package static var bytesFromSystem: Int { Int(csys_heap_bytes_from_system()) }

    /// Gives the allocator's free memory back to the system (glibc `malloc_trim`), e.g. after parsing a
    /// long command line, so memory freed before a batch does not stay resident through it.
    package static func returnFreeMemory() { csys_trim_heap() }

    /// Caps the allocator's arenas at `count` (glibc `M_ARENA_MAX`; by default each thread may get its own,
    /// each keeping freed memory resident). A server calls it before starting threads, so resident memory
    /// stays near what its budget charges (imgproxy documents `MALLOC_ARENA_MAX=2` for the same reason).
    /// Returns false where the C library has no such setting.
    @discardableResult
    package static func limitArenas(to count: Int) -> Bool { csys_limit_heap_arenas(Int32(max(1, count))) == 0 }
}
