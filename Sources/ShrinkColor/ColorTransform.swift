import CShrinkLCMS
import ShrinkCore

/// A Little CMS transform from one profile to another for one interleaved pixel format (gray8, grayAlpha8,
/// rgb8, rgba8 or rgba16), or from CMYK ink (8-bit, plain or inverted) to rgb8; perceptual intent, alpha
/// copied untouched. Made without lcms2's one-pixel cache, so one transform serves many threads at once.
/// Creating one is costly, more so for LUT profiles, whose transform holds a precomputed table, so transforms are
/// cached (``ColorTransformCache``); applying one costs per pixel, more for CMYK than for matrix-shaper profiles
/// (creation and per-pixel costs: BENCHMARKS.md, "Figures behind the code").
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    /// The format of the output (and of the input, except for ink transforms).
    let format: PixelFormat
    /// Bytes a pixel of input takes (4 for CMYK ink).
    let inputBytesPerPixel: Int
    /// True when the transform changes no 8-bit value by more than 1 on a grid of test colors: the source is
    /// the target in all but name (an sRGB profile converted to sRGB), and pixels are left alone.
    let isIdentity: Bool
    /// True when a step of one level along the gray axis moves some output channel by more than 3 levels (a
    /// profile with a very steep curve, such as a test profile that turns each dark level into 15): such a
    /// transform does not commute with averaging, so it must run before the resampler, not after.
    let isSteep: Bool

    /// The transform of `format` pixels from `source` to `target`; nil when lcms2 cannot make one (the
    /// profiles do not fit the format, or cannot be linked).
    init?(from source: LCMSProfile, to target: LCMSProfile, format: PixelFormat) {
        let type: cmsUInt32Number
        switch format {
        case .gray8: type = CShrinkLCMS_GRAY_8
        case .grayAlpha8: type = CShrinkLCMS_GRAYA_8
        case .rgb8: type = CShrinkLCMS_RGB_8
        case .rgba8: type = CShrinkLCMS_RGBA_8
        case .rgba16: type = CShrinkLCMS_RGBA_16
        default: return nil
        }
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE) | (format.hasAlpha ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        guard
            let handle = cmsCreateTransform(
                source.handle, type, target.handle, type, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
        else {
            return nil
        }
        self.handle = handle
        self.format = format
        inputBytesPerPixel = format.bytesPerPixel
        isIdentity = Self.changesNothing(handle, format: format)
        isSteep = Self.steepestStep(handle, format: format) > 3
    }

    /// The transform of CMYK ink (`inverted`: 0 = full ink, as Adobe stores it) from `source` (a CMYK
    /// profile) to rgb8 in `target`; nil when lcms2 cannot link them.
    init?(ink source: LCMSProfile, inverted: Bool, to target: LCMSProfile) {
        guard
            let handle = cmsCreateTransform(
                source.handle, inverted ? CShrinkLCMS_CMYK_8_REV : CShrinkLCMS_CMYK_8, target.handle,
                CShrinkLCMS_RGB_8, cmsUInt32Number(INTENT_PERCEPTUAL),
                cmsUInt32Number(cmsFLAGS_NOCACHE) | CShrinkLCMS_GRIDPOINTS_11)
        else {
            return nil
        }
        self.handle = handle
        format = .rgb8
        inputBytesPerPixel = 4
        isIdentity = false
        isSteep = false
    }

    /// The largest change of any output channel (in 8-bit levels) between neighbouring grays 0…255.
    private static func steepestStep(_ handle: cmsHTRANSFORM, format: PixelFormat) -> Int {
        let scale = format == .rgba16 ? 257 : 1
        let out = probe(handle, format: format, (0..<256).map { Array(repeating: $0, count: format.isGray ? 1 : 3) })
        var steepest = 0
        for v in 1..<256 {
            for c in out[v].indices { steepest = max(steepest, abs(out[v][c] / scale - out[v - 1][c] / scale)) }
        }
        return steepest
    }

    deinit { cmsDeleteTransform(handle) }

    /// Transforms `count` pixels at `pixels` in place (not for ink transforms, whose input is wider).
    func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        apply(UnsafeRawPointer(pixels), into: pixels, count: count)
    }

    /// Transforms `count` pixels at `input` into `output` (which may be `input` when the sizes agree).
    func apply(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, count: Int) {
        var done = 0
        while done < count { // lcms2 counts pixels in 32 bits
            let n = min(count - done, 1 << 24)
            cmsDoTransform(
                handle, input + done * inputBytesPerPixel, output + done * format.bytesPerPixel, cmsUInt32Number(n))
            done += n
        }
    }

    /// Whether `handle` maps a 9×9×9 grid of colors (9 grays for gray formats) to within 1 level of itself.
    private static func changesNothing(_ handle: cmsHTRANSFORM, format: PixelFormat) -> Bool {
        let levels = (0..<9).map { min(255, $0 * 32) }
        let colors =
            format.isGray
            ? levels.map { [$0] } : levels.flatMap { r in levels.flatMap { g in levels.map { b in [r, g, b] } } }
        let scale = format == .rgba16 ? 257 : 1
        let out = probe(handle, format: format, colors)
        return zip(colors, out).allSatisfy { given, made in
            zip(given, made).allSatisfy { abs($1 - $0 * scale) <= scale }
        }
    }

    /// `colors` (8-bit levels: one each for gray formats, three for colour ones; alpha opaque) through `handle`
    /// as pixels of `format`: what comes out, in the format's own scale (0…255, 0…65535 for rgba16).
    private static func probe(_ handle: cmsHTRANSFORM, format: PixelFormat, _ colors: [[Int]]) -> [[Int]] {
        let stride = format.channels, wide = format == .rgba16, scale = wide ? 257 : 1
        let channels = format.isGray ? 1 : 3
        var buffer = [UInt8](repeating: 0, count: colors.count * format.bytesPerPixel)
        buffer.withUnsafeMutableBytes { raw in
            for (i, levels) in colors.enumerated() {
                for c in 0..<stride {
                    let v = (c < channels ? levels[c] : 255) * scale
                    if wide {
                        raw.storeBytes(of: UInt16(v), toByteOffset: 2 * (i * stride + c), as: UInt16.self)
                    } else {
                        raw[i * stride + c] = UInt8(v)
                    }
                }
            }
            cmsDoTransform(handle, raw.baseAddress, raw.baseAddress, cmsUInt32Number(colors.count))
        }
        return buffer.withUnsafeBytes { raw in
            colors.indices.map { i in
                (0..<channels).map { c in
                    wide
                        ? Int(raw.load(fromByteOffset: 2 * (i * stride + c), as: UInt16.self))
                        : Int(raw[i * stride + c])
                }
            }
        }
    }
}
