import CShrinkLCMS
import ShrinkCore

/// A Little CMS transform from one profile to another for one interleaved pixel format (gray8, grayAlpha8,
/// rgb8, rgba8 or rgba16), perceptual intent, alpha copied untouched. Made without lcms2's one-pixel cache, so
/// one transform serves many threads at once. Creating one costs 1–40 ms (more for LUT profiles); applying it
/// about 5 ns a pixel for matrix-shaper profiles.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM
    let format: PixelFormat
    /// True when the transform changes no 8-bit value by more than 1 on a grid of test colours: the source is
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
        guard let handle = cmsCreateTransform(source.handle, type, target.handle, type, cmsUInt32Number(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        self.handle = handle
        self.format = format
        isIdentity = Self.changesNothing(handle, format: format)
        isSteep = Self.steepestStep(handle, format: format) > 3
    }

    /// The largest change of any output channel (in 8-bit levels) between neighbouring grays 0…255.
    private static func steepestStep(_ handle: cmsHTRANSFORM, format: PixelFormat) -> Int {
        let stride = format.channels, wide = format == .rgba16
        let colour = format == .gray8 || format == .grayAlpha8 ? 1 : 3
        var buffer = [UInt8](repeating: 0, count: 256 * format.bytesPerPixel)
        buffer.withUnsafeMutableBytes { raw in
            for v in 0..<256 {
                for c in 0..<stride {
                    let value = c < colour ? v : 255
                    if wide { raw.storeBytes(of: UInt16(value * 257), toByteOffset: 2 * (v * stride + c), as: UInt16.self) } else { raw[v * stride + c] = UInt8(value) }
                }
            }
            cmsDoTransform(handle, raw.baseAddress, raw.baseAddress, 256)
        }
        return buffer.withUnsafeBytes { raw in
            func sample(_ v: Int, _ c: Int) -> Int {
                wide ? Int(raw.load(fromByteOffset: 2 * (v * stride + c), as: UInt16.self)) / 257 : Int(raw[v * stride + c])
            }
            var steepest = 0
            for v in 1..<256 { for c in 0..<colour { steepest = max(steepest, abs(sample(v, c) - sample(v - 1, c))) } }
            return steepest
        }
    }

    deinit { cmsDeleteTransform(handle) }

    /// Transforms `count` pixels at `pixels` in place.
    func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        var done = 0
        while done < count {                                    // lcms2 counts pixels in 32 bits
            let n = min(count - done, 1 << 24)
            let p = pixels + done * format.bytesPerPixel
            cmsDoTransform(handle, p, p, cmsUInt32Number(n))
            done += n
        }
    }

    /// Whether `handle` maps a 9×9×9 grid of colours (9 grays for gray formats) to within 1 level of itself.
    private static func changesNothing(_ handle: cmsHTRANSFORM, format: PixelFormat) -> Bool {
        let levels = (0..<9).map { min(255, $0 * 32) }
        var samples: [UInt16] = []
        let channels = format == .gray8 || format == .grayAlpha8 ? 1 : 3
        if channels == 1 {
            samples = levels.map { UInt16($0) }
        } else {
            for r in levels { for g in levels { for b in levels { samples += [UInt16(r), UInt16(g), UInt16(b)] } } }
        }
        let count = samples.count / channels
        let wide = format == .rgba16, stride = format.channels
        let scale = wide ? 257 : 1
        var buffer = [UInt8](repeating: 0, count: count * format.bytesPerPixel)
        buffer.withUnsafeMutableBytes { raw in
            for i in 0..<count {
                for c in 0..<stride {
                    let v = c < channels ? Int(samples[i * channels + c]) * scale : (wide ? 65535 : 255)
                    if wide { raw.storeBytes(of: UInt16(v), toByteOffset: 2 * (i * stride + c), as: UInt16.self) } else { raw[i * stride + c] = UInt8(v) }
                }
            }
            cmsDoTransform(handle, raw.baseAddress, raw.baseAddress, cmsUInt32Number(count))
        }
        return buffer.withUnsafeBytes { raw in
            for i in 0..<count {
                for c in 0..<channels {
                    let v = wide ? Int(raw.load(fromByteOffset: 2 * (i * stride + c), as: UInt16.self)) : Int(raw[i * stride + c])
                    if abs(v - Int(samples[i * channels + c]) * scale) > scale { return false }
                }
            }
            return true
        }
    }
}
