import Testing
import CShrinkLCMS
import ShrinkCore
@testable import ShrinkColor
import ShrinkTestSupport

/// lcms2 never makes an allocation above ``LCMSMemory/maxAllocation`` for Shrink: the fuzz finding whose
/// description tag claims 33 million records opens without its 402 MB block.
@Suite struct LCMSMemoryTests {
    static let reproducer = Corpus.projectRoot + "/Fuzz/regressions/fuzz-icc-profile/mluc-33-million-records.icc"

    @Test func allocationsAboveTheCapAreRefused() throws {
        LCMSMemory.bounded
        // cmsMLUalloc sizes its block from the count, as the tag reader does (12 bytes an entry at least).
        let small = try #require(cmsMLUalloc(nil, 1000))
        cmsMLUfree(small)
        #expect(cmsMLUalloc(nil, 0x0200_0001) == nil)
        #expect(cmsMLUalloc(nil, cmsUInt32Number(LCMSMemory.maxAllocation / 12 + 1)) == nil)
    }

    @Test func theFuzzFindingOpensWithoutItsDescription() throws {
        let bytes = try #require(Corpus.readBytes(Self.reproducer))
        #expect(bytes.count == 596)
        let profile = try #require(ColorProfile(bytes))
        #expect(profile.name == "")
        // Its other tags are sRGB's: colour still converts through it.
        var pixels = PixelBuffer(
            format: .rgb8, size: PixelSize(width: 4, height: 1), bytes: [UInt8](repeating: 200, count: 12))
        let result = ColorManagement.apply(.sRGB, to: &pixels, profile: bytes)
        #expect(result.conversion != nil && pixels.bytes.count == 12)
    }
}
