import ShrinkCore
import Synchronization

/// What is known of the source profiles seen so far, by their bytes, shared by every decode in the process:
/// each profile's description (lcms2 parses it once, not once per route and once per conversion) and the
/// transforms made from it, by pixel format and target (a batch of photos from one camera builds its transform
/// once). Bounded to ``capacity`` profiles, least recently used dropped first (a transform holds a few KiB, a
/// LUT profile's up to a few MiB). A profile lcms2 cannot read or link is remembered too (nil), so it is not
/// retried per image.
final class ColorTransformCache: Sendable {
    private struct Target: Hashable {
        let format: PixelFormat
        let policy: ColorPolicy
        /// For transforms of CMYK ink: whether it is stored inverted; nil for the others.
        var inkInverted: Bool? = nil
    }

    private struct Entry {
        let description: ColorProfile?
        var transforms: [Target: ColorTransform?] = [:]
    }

    static let shared = ColorTransformCache()
    let capacity = 32
    private let entries = Mutex<(byProfile: [[UInt8]: Entry], order: [[UInt8]])>(([:], []))

    /// What `profile` says about itself; nil when lcms2 cannot read it.
    func description(of profile: [UInt8]) -> ColorProfile? {
        entry(for: profile).description
    }

    /// The transform of `format` pixels from `profile` to `policy`'s target (sRGB or Display P3; gray formats
    /// to gray with sRGB's curve), made on first use; nil when lcms2 cannot read the profile or link it.
    func transform(from profile: [UInt8], format: PixelFormat, to policy: ColorPolicy) -> ColorTransform? {
        cached(from: profile, Target(format: format, policy: policy)) { source in
            let destination =
                format.isGray
                ? LCMSProfile.sGray() : policy == .displayP3 ? LCMSProfile.displayP3() : LCMSProfile.sRGB()
            return ColorTransform(from: source, to: destination, format: format)
        }
    }

    /// The transform of CMYK ink (stored `inverted` or not) from `profile` (a CMYK profile) to rgb8 in
    /// `policy`'s target (sRGB, or Display P3), made on first use; nil when lcms2 cannot read or link it.
    func inkTransform(from profile: [UInt8], inverted: Bool, to policy: ColorPolicy) -> ColorTransform? {
        cached(from: profile, Target(format: .rgb8, policy: policy, inkInverted: inverted)) { source in
            ColorTransform(
                ink: source, inverted: inverted, to: policy == .displayP3 ? LCMSProfile.displayP3() : LCMSProfile.sRGB()
            )
        }
    }

    /// The transform for `target` from `profile`, from the cache, else made by `make` from the opened profile
    /// (outside the lock) and remembered, nil included.
    private func cached(from profile: [UInt8], _ target: Target, make: (LCMSProfile) -> ColorTransform?)
        -> ColorTransform?
    {
        if let known = entry(for: profile).transforms[target] { return known }
        let made = LCMSProfile(profile).flatMap(make)
        entries.withLock { state in state.byProfile[profile]?.transforms[target] = .some(made) }
        return made
    }

    /// The entry of `profile`, made (its description read) on first use, and now the most recently used.
    private func entry(for profile: [UInt8]) -> Entry {
        let hit = entries.withLock { state -> Entry? in
            guard let entry = state.byProfile[profile] else { return nil }
            state.order.removeAll { $0 == profile }
            state.order.append(profile)
            return entry
        }
        if let hit { return hit }
        let made = Entry(description: ColorProfile(profile)) // parsed outside the lock
        return entries.withLock { state in
            if let raced = state.byProfile[profile] { return raced }
            state.byProfile[profile] = made
            state.order.append(profile)
            while state.order.count > capacity { state.byProfile[state.order.removeFirst()] = nil }
            return made
        }
    }
}
