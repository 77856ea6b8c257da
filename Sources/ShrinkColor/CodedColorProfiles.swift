import CShrinkLCMS
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore
import Synchronization

/// ICC profiles equivalent to the colour a file codes without one (``CodedColor``), so that one transform path
/// serves both: H.273 primaries (BT.709/sRGB, BT.2020, Display P3, DCI-P3, BT.601, BT.470M, SMPTE 240M, EBU 3213)
/// with their transfer (sRGB; the BT.709 family displayed with sRGB's curve, as browsers show it; gamma 2.2 and
/// 2.8; linear; PQ and HLG tone-mapped, below), and PNG's gamma and chromaticities. Code points that mean sRGB, or
/// mean nothing (2, unspecified), give nil: nothing to convert. Built once per distinct value (a few hundred bytes
/// each; build time: BENCHMARKS.md, "Figures behind the code"), kept for the process.
///
/// HDR to SDR: PQ's absolute light is read with reference white at 203 cd/m² (ITU-R BT.2408) as 1.0; HLG's scene
/// light goes through its system gamma of 1.2 (a 1000 cd/m² display), its 75 % signal as 1.0. Above 0.75 of
/// white, light is rolled off smoothly (`0.75 + 0.25 (1 − e^(−(x − 0.75)/0.25))`) instead of clipped.
package enum CodedColorProfiles {
    private struct Key: Hashable {
        let coded: CodedColor
        let gray: Bool
    }

    private static let made = Mutex<[Key: ColorProfile?]>([:])

    /// The profile equivalent to `coded` for gray or colour pixels; nil when it means sRGB (or nothing usable).
    package static func profile(for coded: CodedColor, gray: Bool) -> ColorProfile? {
        let key = Key(coded: coded, gray: gray)
        if let known = made.withLock({ $0[key] }) { return known }
        let profile = build(coded, gray: gray)
        made.withLock { cache in
            if cache.count >= 64 { cache.removeAll() } // a hostile stream of distinct gammas stays bounded
            cache[key] = .some(profile)
        }
        return profile
    }

    /// How coded values become relative light.
    enum Transfer: Equatable {
        case sRGB, gamma(Double), linear, pq, hlg

        /// H.273 transfer characteristics; sRGB's curve for 13, the BT.709 family (1, 6, 14, 15) and anything
        /// unspecified or undefined.
        init(code: Int) {
            switch code {
            case 4: self = .gamma(2.2)
            case 5: self = .gamma(2.8)
            case 8: self = .linear
            case 16: self = .pq
            case 18: self = .hlg
            default: self = .sRGB
            }
        }

        var name: String {
            switch self {
            case .sRGB: "sRGB curve"
            case .gamma(let g): "gamma \((g * 100).rounded() / 100)"
            case .linear: "linear"
            case .pq: "PQ"
            case .hlg: "HLG"
            }
        }

        /// Relative light (1 = SDR white) of coded value `v` in 0…1.
        func light(_ v: Double) -> Double {
            switch self {
            case .sRGB: return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            case .gamma(let g): return pow(v, g)
            case .linear: return v
            case .pq:
                let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                    c3 = 2392.0 / 4096 * 32
                let p = pow(v, 1 / m2)
                return Self.rollOff(pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1) * 10000 / 203)
            case .hlg:
                return Self.rollOff(pow(Self.hlgScene(v), 1.2) / pow(Self.hlgScene(0.75), 1.2))
            }
        }

        static func hlgScene(_ v: Double) -> Double {
            let a = 0.17883277, b = 0.28466892, c = 0.55991073
            return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
        }

        static func rollOff(_ x: Double) -> Double {
            x <= 0.75 ? x : 0.75 + 0.25 * (1 - exp(-(x - 0.75) / 0.25))
        }
    }

    private static func build(_ coded: CodedColor, gray: Bool) -> ColorProfile? {
        var primaries = ColorPrimaries.bt709, transfer = Transfer.sRGB
        var name: String
        switch coded {
        case .codePoints(let p, let t):
            let found = ColorPrimaries.h273(p)
            transfer = Transfer(code: t)
            if let found { primaries = found }
            guard primaries != .bt709 || transfer != .sRGB else { return nil }
            name = "\(primaries.name) \(transfer.name) (coded \(p)/\(t))"
        case .gammaAndChromaticities(let gamma, let xy):
            if let gamma {
                guard gamma.isFinite, gamma >= 0.01, gamma <= 10 else { return nil }
                transfer = abs(gamma - 1 / 2.2) < 0.0005 ? .sRGB : abs(gamma - 1) < 0.0005 ? .linear : .gamma(1 / gamma)
            }
            if let xy, xy.count == 8, xy.allSatisfy({ $0.isFinite && $0 > 0 && $0 < 1 }) {
                let given = ColorPrimaries(
                    white: [xy[0], xy[1]], red: [xy[2], xy[3]], green: [xy[4], xy[5]], blue: [xy[6], xy[7]],
                    name: "cHRM")
                let srgb = ColorPrimaries.bt709
                let flat = given.white + given.red + given.green + given.blue,
                    reference = srgb.white + srgb.red + srgb.green + srgb.blue
                if zip(flat, reference).contains(where: { abs($0 - $1) > 0.001 }) { primaries = given }
            }
            let custom = primaries != .bt709
            guard custom || transfer != .sRGB else { return nil }
            name =
                "PNG "
                + [custom ? "cHRM" : nil, gamma.map { "gamma \(($0 * 100000).rounded() / 100000)" }].compactMap { $0 }
                .joined(separator: ", ")
        }
        if gray && transfer == .sRGB { return nil } // gray pixels see only the curve
        guard let profile = LCMSProfile.built(primaries: primaries, transfer: transfer, gray: gray) else { return nil }
        profile.describe(name)
        return ColorProfile(profile, bytes: profile.bytes)
    }
}
