import CShrinkLCMS
import ShrinkCore

/// What an ICC profile says about itself, read by lcms2: its description, the colour space it describes and
/// how it maps colours (matrix and curves, or lookup tables). Reading costs lcms2's parse of the tags.
package struct ColorProfile: Sendable, Equatable {
    /// The colour space of the data the profile describes.
    package enum Space: String, Sendable {
        case rgb = "RGB", gray = "Gray", cmyk = "CMYK", other
    }

    /// The description tag (`desc`), e.g. "Display P3"; empty when the profile has none.
    package let name: String
    package let space: Space
    /// True for matrix/TRC profiles (sRGB, Display P3, Adobe RGB…), false for LUT-based ones (most CMYK).
    package let isMatrixShaper: Bool
    /// The profile's bytes.
    package let bytes: [UInt8]

    /// Reads `bytes`; nil when lcms2 cannot parse them (a broken profile is a warning, not an error).
    package init?(_ bytes: [UInt8]) {
        guard let profile = LCMSProfile(bytes) else { return nil }
        self.init(profile, bytes: bytes)
    }

    init(_ profile: LCMSProfile, bytes: [UInt8]) {
        self.bytes = bytes
        name = profile.name
        space =
            switch cmsGetColorSpace(profile.handle) {
            case cmsSigRgbData: .rgb
            case cmsSigGrayData: .gray
            case cmsSigCmykData: .cmyk
            default: .other
            }
        isMatrixShaper = cmsIsMatrixShaper(profile.handle) != 0
    }

    /// The Display P3 profile Shrink embeds with ``ColorPolicy/displayP3``.
    package static let displayP3: ColorProfile = {
        let profile = LCMSProfile.displayP3()
        return ColorProfile(profile, bytes: profile.bytes)
    }()

    /// sRGB as lcms2 builds it: what an untagged image is taken to be.
    package static let sRGB: ColorProfile = {
        let profile = LCMSProfile.sRGB()
        return ColorProfile(profile, bytes: profile.bytes)
    }()

    /// Gray with sRGB's transfer curve: where gray images are converted to.
    package static let sGray: ColorProfile = {
        let profile = LCMSProfile.sGray()
        return ColorProfile(profile, bytes: profile.bytes)
    }()

    /// The CMYK profile untagged CMYK images are converted with: Artifex's SWOP profile as Debian installs
    /// it with Ghostscript's profiles (`libgs-common`; AGPL-3+ data, read at run time, not shipped with Shrink),
    /// else nil (ink is then converted without a profile). Read once (187 KB).
    package static let fallbackCMYK: ColorProfile? = {
        for path in fallbackCMYKPaths {
            guard let file = try? ImageBytes(mapping: path), file.bytes.count <= 4 << 20 else { continue }
            if let profile = ColorProfile(Array(file.bytes)), profile.space == .cmyk { return profile }
        }
        return nil
    }()

    /// Where ``fallbackCMYK`` is looked for, in order.
    package static let fallbackCMYKPaths = [
        "/usr/share/color/icc/ghostscript/default_cmyk.icc",
        "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    ]

    /// One line for `info`: "Display P3 (RGB, matrix-shaper, 536 B)".
    package var summary: String {
        "\(name.isEmpty ? "unnamed" : name) (\(space.rawValue), \(isMatrixShaper ? "matrix-shaper" : "LUT"), \(bytes.count) B)"
    }
}
