#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CShrinkLCMS

/// lcms2's allocations, bounded: a memory handler plug-in in lcms2's global context refuses any single allocation
/// above ``maxAllocation`` (lcms2 then fails the profile or transform it was making, which Shrink reports as a
/// warning). lcms2 sizes some allocations from counts in the profile before checking them against the tag's size
/// (a 596-byte profile whose description claims 33 million records made it zero 400 MB: a fuzz finding); its
/// own cap is 512 MiB. Blocks are plain `malloc` blocks, so memory lcms2 allocated before the handler was
/// installed is freed the same way. A profile file above the cap is refused too (lcms2 copies it whole), far above
/// any real one.
enum LCMSMemory {
    /// 16 MiB: above the largest table a real profile holds (a 33⁴-node CMYK CLUT of 16-bit RGB is 7.1 MB).
    static let maxAllocation = 16 << 20

    /// Installs the handler (once, through ``LCMSProfile/prepared``, before anything else runs in lcms2).
    static let bounded: Void = {
        var plugin = cmsPluginMemHandler()
        plugin.base.Magic = cmsUInt32Number(cmsPluginMagicNumber)
        plugin.base.ExpectedVersion = 2000
        plugin.base.Type = cmsUInt32Number(cmsPluginMemHandlerSig)
        plugin.base.Next = nil
        plugin.MallocPtr = { _, size in size == 0 || size > LCMSMemory.maxAllocation ? nil : malloc(Int(size)) }
        plugin.FreePtr = { _, block in free(block) }
        plugin.ReallocPtr = { _, block, size in
            size == 0 || size > LCMSMemory.maxAllocation ? nil : realloc(block, Int(size))
        }
        _ = cmsPlugin(&plugin)
    }()
}
