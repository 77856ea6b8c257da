import CShrinkLCMS
import ShrinkCore

/// An open Little CMS profile (from ICC bytes, or built in), closed when released. Costs lcms2's parsed tags
/// (a few KiB; a LUT profile's tables, up to a few MiB).
final class LCMSProfile: @unchecked Sendable {
    let handle: cmsHPROFILE

    /// Opens `bytes`; nil when lcms2 cannot read them.
    init?(_ bytes: [UInt8]) {
        LCMSProfile.prepared
        guard bytes.count >= 132,
            let handle = bytes.withUnsafeBytes({
                cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number(clamping: $0.count))
            })
        else {
            return nil
        }
        self.handle = handle
    }

    init(handle: cmsHPROFILE) { self.handle = handle }

    deinit { cmsCloseProfile(handle) }

    /// lcms2 loaded and set up once, before any profile is made (every way to a profile touches this first, so
    /// nothing runs in lcms2 while it changes): its allocations bounded (``LCMSMemory``), and its error callback a
    /// no-op (its default prints nothing, but a caller's handler could; Shrink turns failures into warnings itself).
    /// Without lcms2 no colour can be managed, so a process that cannot load it stops here, saying why
    /// (``LCMSLibrary``).
    static let prepared: Void = {
        do throws(ImageError) { try LCMSLibrary.load() } catch { fatalError(error.message) }
        LCMSMemory.bounded
        cmsSetLogErrorHandler { _, _, _ in }
    }()

    /// sRGB (IEC 61966-2.1), as lcms2 builds it.
    static func sRGB() -> LCMSProfile {
        prepared
        return LCMSProfile(handle: cmsCreate_sRGBProfile())
    }

    /// Display P3: the P3 primaries, a D65 white and sRGB's transfer curve.
    static func displayP3() -> LCMSProfile {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1), Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        let profile = LCMSProfile(handle: withSRGBCurve { curves in cmsCreateRGBProfile(&white, &primaries, curves)! })
        profile.describe("Display P3")
        return profile
    }

    /// Sets the description tag (what `info` and other readers show as the profile's name).
    func describe(_ text: String) {
        guard let mlu = cmsMLUalloc(nil, 1) else { return }
        defer { cmsMLUfree(mlu) }
        if cmsMLUsetASCII(mlu, "en", "US", text) != 0 {
            _ = cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        }
    }

    /// An RGB profile (or, `gray`, a gray one with the same white) of `primaries` and `transfer`: parametric
    /// curves where lcms2 has them, PQ and HLG as 4096-point tables. Nil when lcms2 rejects the primaries.
    static func built(primaries: ColorPrimaries, transfer: CodedColorProfiles.Transfer, gray: Bool) -> LCMSProfile? {
        prepared
        let curve: OpaquePointer?
        switch transfer {
        case .sRGB:
            var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        case .gamma(let g): curve = cmsBuildGamma(nil, g)
        case .linear: curve = cmsBuildGamma(nil, 1)
        case .pq, .hlg:
            let table = (0..<4096).map { Float(transfer.light(Double($0) / 4095)) }
            curve = table.withUnsafeBufferPointer { cmsBuildTabulatedToneCurveFloat(nil, 4096, $0.baseAddress) }
        }
        guard let curve else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: primaries.white[0], y: primaries.white[1], Y: 1)
        if gray { return cmsCreateGrayProfile(&white, curve).map { LCMSProfile(handle: $0) } }
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries.red[0], y: primaries.red[1], Y: 1),
            Green: cmsCIExyY(x: primaries.green[0], y: primaries.green[1], Y: 1),
            Blue: cmsCIExyY(x: primaries.blue[0], y: primaries.blue[1], Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return cmsCreateRGBProfile(&white, &triple, &curves).map { LCMSProfile(handle: $0) }
    }

    /// Gray with sRGB's transfer curve and a D65 white: where gray images go.
    static func sGray() -> LCMSProfile {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        return LCMSProfile(handle: withSRGBCurve { curves in cmsCreateGrayProfile(&white, curves[0])! })
    }

    /// Calls `body` with three copies of sRGB's piecewise curve (IEC 61966-2.1), freed after.
    private static func withSRGBCurve<T>(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> T) -> T {
        prepared
        var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return body(&curves)
    }

    /// The profile's bytes as lcms2 writes them (for embedding a built-in profile), with the header's creation
    /// date fixed (2024-01-01 00:00:00): lcms2 stamps the time of creation, and outputs should not differ from
    /// one run to the next.
    var bytes: [UInt8] {
        var count: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(handle, nil, &count) != 0, count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(count))
        _ = out.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &count) }
        if out.count >= 36 { out.replaceSubrange(24..<36, with: [0x07, 0xE8, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0]) }
        return out
    }

    /// The description tag in English, or "" when there is none.
    var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard n > 0 else { return "" }
        return String(cBuffer: buffer)
    }
}
