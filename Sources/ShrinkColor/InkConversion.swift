import ShrinkCore
import Synchronization

/// CMYK ink to RGB through ICC profiles, for a codec to run on its decoded rows (``InkConverting``): from the
/// image's own CMYK profile, else from ``ColorProfile/fallbackCMYK`` (a SWOP press profile, what untagged CMYK
/// most often is), to sRGB (or Display P3 under ``ColorPolicy/displayP3``). With neither profile usable, ink is
/// converted as ``NaiveInk`` does and the result says so. The transform comes from ``ColorTransformCache`` (made once
/// per profile in a process, with a precomputed table for a LUT profile); converting costs a transform of every pixel
/// of the decoded (DCT-scaled) rows (both costs: BENCHMARKS.md, "Figures behind the code"). One conversion serves one
/// decode; it records the time it spends.
package final class InkConversion: InkConverting {
    /// What the transform holds beyond the image, charged by the memory prediction: a LUT profile's parsed tables and
    /// the transform's precomputed table, rounded up to 2 MiB (calibration: BENCHMARKS.md, "Figures behind the code").
    package static let stateBytes = 2 << 20

    private let policy: ColorPolicy
    private let profile: [UInt8]?
    /// The source profile's name for the report, and why the image's own profile was not used.
    private let from: String
    private let warning: String?
    /// The transform for the ink layout seen (made on the first row), and the time spent converting.
    private let state = Mutex<(transform: (inverted: Bool, made: ColorTransform?)?, elapsed: Duration)>((nil, .zero))

    /// The conversion of an image tagged with `profile` (nil: untagged) under `policy`.
    init(_ policy: ColorPolicy, profile: [UInt8]?) {
        self.policy = policy
        var warning: String?
        var chosen: (bytes: [UInt8], name: String)?
        if let profile {
            if let described = ColorTransformCache.shared.description(of: profile) {
                let name = described.name.isEmpty ? "unnamed ICC profile" : described.name
                if described.space == .cmyk {
                    chosen = (profile, name)
                } else {
                    warning =
                        "the ICC profile (\(name)) is for \(described.space.rawValue) data, not CMYK ink: not applied"
                }
            } else {
                warning = "the ICC profile (\(profile.count) B) cannot be read"
            }
        }
        if chosen == nil, let fallback = ColorProfile.fallbackCMYK {
            chosen = (fallback.bytes, "\(fallback.name.isEmpty ? "fallback CMYK profile" : fallback.name) (fallback)")
            warning = warning.map { "\($0): converted with \(chosen!.name)" }
        } else if chosen == nil {
            warning =
                (warning.map { "\($0); " } ?? "") + "no CMYK profile available: ink converted without colour management"
        }
        if policy == .keep, let chosen {
            warning =
                (warning.map { "\($0); " } ?? "")
                + "a CMYK profile (\(chosen.name)) cannot be kept on RGB pixels: converted to sRGB"
        }
        self.profile = chosen?.bytes
        from = chosen?.name ?? "CMYK (no profile)"
        self.warning = warning
    }

    package func convert(_ ink: UnsafePointer<UInt8>, inverted: Bool, into rgb: UnsafeMutablePointer<UInt8>, count: Int)
    {
        let clock = ContinuousClock(), start = clock.now
        if let transform = transform(inverted: inverted) {
            transform.apply(UnsafeRawPointer(ink), into: UnsafeMutableRawPointer(rgb), count: count)
        } else {
            NaiveInk().convert(ink, inverted: inverted, into: rgb, count: count)
        }
        let spent = clock.now - start
        state.withLock { $0.elapsed += spent }
    }

    /// The transform for ink stored `inverted` or not, from the cache on first use.
    private func transform(inverted: Bool) -> ColorTransform? {
        if let known = state.withLock({ $0.transform }), known.inverted == inverted { return known.made }
        let made = profile.flatMap {
            ColorTransformCache.shared.inkTransform(
                from: $0, inverted: inverted, to: policy == .displayP3 ? .displayP3 : .sRGB)
        }
        state.withLock { $0.transform = (inverted, made) }
        return made
    }

    /// What the conversion did: the profile it used, its target, the time spent, and any warning. The result
    /// embeds Display P3's profile under ``ColorPolicy/displayP3``, nothing otherwise.
    package var result: ColorManagementResult {
        let (made, elapsed) = state.withLock { ($0.transform?.made, $0.elapsed) }
        let p3 = policy == .displayP3 && made != nil
        return ColorManagementResult(
            profile: p3 ? ColorProfile.displayP3.bytes : nil,
            conversion: ColorConversion(
                from: made == nil ? "CMYK (no profile)" : from, to: p3 ? "Display P3" : "sRGB",
                converted: true, milliseconds: elapsed.inMilliseconds),
            warning: warning)
    }
}
