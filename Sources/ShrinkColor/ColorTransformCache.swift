import ShrinkCore
import Synchronization

/// The transforms made so far, by source profile (its bytes), pixel format and target, shared by every decode
/// in the process: a batch of photos from one camera builds its transform once. Bounded to ``capacity``
/// entries, least recently used dropped first (a transform holds a few KiB, a LUT profile's up to a few MiB).
/// A profile lcms2 cannot use is remembered too (nil), so it is not retried per image.
final class ColorTransformCache: Sendable {
    struct Key: Hashable {
        let profile: [UInt8]
        let format: PixelFormat
        let target: ColorPolicy
    }

    static let shared = ColorTransformCache()
    let capacity = 32
    private let entries = Mutex<(transforms: [Key: ColorTransform?], order: [Key])>(([:], []))

    /// The transform of `format` pixels from `profile` to `target` (sRGB or Display P3), made on first use;
    /// nil when lcms2 cannot read the profile or link it to the target.
    func transform(from profile: [UInt8], format: PixelFormat, to target: ColorPolicy) -> ColorTransform? {
        let key = Key(profile: profile, format: format, target: target)
        if let found = entries.withLock({ state -> ColorTransform?? in
            guard let hit = state.transforms[key] else { return nil }
            state.order.removeAll { $0 == key }
            state.order.append(key)
            return .some(hit)
        }) {
            return found
        }
        let made = LCMSProfile(profile).flatMap { source in
            let gray = format == .gray8 || format == .grayAlpha8
            let destination = gray ? LCMSProfile.sGray() : target == .displayP3 ? LCMSProfile.displayP3() : LCMSProfile.sRGB()
            return ColorTransform(from: source, to: destination, format: format)
        }
        entries.withLock { state in
            if state.transforms[key] == nil { state.order.append(key) }
            state.transforms[key] = .some(made)
            while state.order.count > capacity { state.transforms[state.order.removeFirst()] = nil }
        }
        return made
    }
}
