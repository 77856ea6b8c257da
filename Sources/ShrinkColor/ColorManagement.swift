import ShrinkCore

/// Colour management of decoded pixels: the image's ICC profile to sRGB (or Display P3). It runs on the output, after
/// the reduction — its cost is per pixel, so it is paid on the thumbnail's pixels, not the decoded image's
/// (BENCHMARKS.md, "Figures behind the code") — except for profiles too steep to commute with averaging, whose
/// transform runs on the decoded rows before the resampler (``beforeResampling(_:profile:rowFormat:)``). Transforms
/// come from ``ColorTransformCache/shared``. An untagged image is taken to be sRGB; a profile lcms2 cannot read, or one
/// for other data (a CMYK profile on RGB pixels), is a warning and the pixels are left as they are.
package enum ColorManagement {
    /// What `policy` means for `profile` on pixels of `format` (a format lcms2 transforms in place): the
    /// transform to run (nil: nothing to do), the names for the report, and why the profile is not applied.
    private struct Decision {
        var transform: ColorTransform?
        var from: String
        var to: String
        var warning: String?
        /// The profile the result is in (embedded by encoders): nil for sRGB.
        var embedded: [UInt8]?
    }

    /// True when `policy` may transform an image's pixels: it converts to Display P3, or to sRGB from a
    /// profile the image is `tagged` with (an ICC profile or coded colour). The one answer both the decision
    /// below and the memory prediction read; whether it does depends on the profile (an sRGB one is left).
    package static func mayConvert(_ policy: ColorPolicy, tagged: Bool) -> Bool {
        policy == .displayP3 || (policy == .sRGB && tagged)
    }

    private static func decide(_ policy: ColorPolicy, profile: [UInt8]?, format: PixelFormat) -> Decision {
        let gray = format.isGray
        let to = gray ? "gray (sRGB curve)" : policy == .displayP3 ? "Display P3" : "sRGB"
        var decision = Decision(transform: nil, from: "sRGB", to: to, warning: nil, embedded: nil)
        if policy == .keep {
            decision.embedded = profile
            return decision
        }
        guard mayConvert(policy, tagged: profile != nil) else { return decision } // untagged: sRGB already
        var source = profile
        if let bytes = profile {
            if let described = ColorTransformCache.shared.description(of: bytes) {
                decision.from = described.name.isEmpty ? "unnamed ICC profile" : described.name
                if gray && described.space == .rgb {
                    return decision // gray asked of a colour image: its luma, nothing to convert
                }
                if described.space != (gray ? .gray : .rgb) {
                    decision.warning =
                        "the ICC profile (\(decision.from)) is for \(described.space.rawValue) data, not \(format) pixels: not applied"
                    source = nil
                }
            } else {
                decision.warning = "the ICC profile (\(bytes.count) B) cannot be read: treated as sRGB"
                source = nil
            }
        }
        if source == nil && (policy == .sRGB || gray) { return decision }
        guard
            let transform = ColorTransformCache.shared.transform(
                from: source ?? ColorProfile.sRGB.bytes, format: format, to: policy)
        else {
            decision.warning =
                decision.warning ?? "the ICC profile (\(decision.from)) cannot be linked to \(to): not applied"
            return decision
        }
        decision.embedded = policy == .displayP3 && !gray ? ColorProfile.displayP3.bytes : nil
        if transform.isIdentity && (policy == .sRGB || gray) { return decision }
        decision.transform = transform
        return decision
    }

    /// Converts `pixels` (decoded from an image tagged with `profile`) in place as `policy` says. Gray pixels go
    /// to gray with sRGB's curve (and embed nothing); YUV (yuv420, nv12) two rows at a time through a scratch
    /// pair of RGB rows; the premultiplied and BGR formats through rgb8 or rgba8 and back
    /// (``extraBytes(for:size:)``); alpha8 masks are left alone.
    package static func apply(_ policy: ColorPolicy, to pixels: inout PixelBuffer, profile: [UInt8]?)
        -> ColorManagementResult
    {
        if pixels.format == .alpha8 { return ColorManagementResult(profile: nil, conversion: nil, warning: nil) }
        let planar = pixels.format.isPlanar, direct = transformsInPlace(pixels.format)
        let workFormat: PixelFormat = direct ? pixels.format : pixels.format.hasAlpha ? .rgba8 : .rgb8
        let clock = ContinuousClock(), start = clock.now
        let decision = decide(policy, profile: profile, format: workFormat)
        let report =
            policy == .keep
            ? nil
            : ColorConversion(
                from: decision.from, to: decision.transform == nil ? decision.from : decision.to,
                converted: decision.transform != nil, milliseconds: 0)
        guard let transform = decision.transform else {
            return ColorManagementResult(profile: decision.embedded, conversion: report, warning: decision.warning)
        }
        if direct {
            let count = pixels.size.pixelCount
            pixels.bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: count) }
        } else if planar {
            let (format, size) = (pixels.format, pixels.size)
            pixels.bytes.withUnsafeMutableBytes {
                transformPlanar(
                    $0.baseAddress!.assumingMemoryBound(to: UInt8.self), format: format, size: size, transform)
            }
        } else {
            var work = PixelConverter.convert(pixels, to: workFormat)
            let count = work.size.pixelCount
            work.bytes.withUnsafeMutableBytes { transform.apply($0.baseAddress!, count: count) }
            pixels = PixelConverter.convert(work, to: pixels.format)
        }
        return ColorManagementResult(
            profile: decision.embedded,
            conversion: ColorConversion(
                from: decision.from, to: decision.to, converted: true,
                milliseconds: (clock.now - start).inMilliseconds),
            warning: decision.warning)
    }

    /// The transform to run on decoded rows of `rowFormat` before the resampler, when `profile` is too steep to
    /// convert after it (``ColorTransform/isSteep``); nil when the conversion (if any) waits for the output.
    /// `always`: the transform runs on the rows however gentle it is (HDR sources, decoded to 16-bit rows so
    /// their steep curves keep their precision).
    package static func beforeResampling(
        _ policy: ColorPolicy, profile: [UInt8]?, rowFormat: PixelFormat,
        always: Bool = false
    ) -> ColorRowTransform? {
        guard policy != .keep, profile != nil, transformsInPlace(rowFormat) else { return nil }
        let decision = decide(policy, profile: profile, format: rowFormat)
        guard let transform = decision.transform, transform.isSteep || always else { return nil }
        return ColorRowTransform(
            transform: transform, from: decision.from, to: decision.to, embedded: decision.embedded)
    }

    /// The conversion of CMYK ink decoded from an image tagged with `profile` (nil: untagged) under `policy`,
    /// for the codec to run on its rows before the resampler (``DecodeOptions/inkConverter``).
    package static func inkConversion(_ policy: ColorPolicy, profile: [UInt8]?) -> InkConversion {
        InkConversion(policy, profile: profile)
    }

    /// True for the formats lcms2 transforms where they lie: gray8, grayAlpha8, rgb8, rgba8, rgba16.
    static func transformsInPlace(_ format: PixelFormat) -> Bool {
        [.gray8, .grayAlpha8, .rgb8, .rgba8, .rgba16].contains(format)
    }

    /// YUV pixels (full-range BT.601, as Shrink holds them) transformed in place, two rows at a time: the pair as
    /// RGB (each chroma sample shared by its 2×2 block), transformed, then luma per pixel and chroma from the
    /// block's average written back. Holds two RGB rows.
    static func transformPlanar(
        _ base: UnsafeMutablePointer<UInt8>, format: PixelFormat, size: PixelSize, _ transform: ColorTransform
    ) {
        let w = size.width, h = size.height, planes = format.planes(for: size), nv12 = format == .nv12
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: max(w, 1) * 6)
        defer { rows.deallocate() }
        var y = 0
        while y < h {
            let pair = min(2, h - y), cy = y / 2
            let cb = base + planes[1].offset + cy * planes[1].bytesPerRow
            let cr = nv12 ? cb + 1 : base + planes[2].offset + cy * planes[2].bytesPerRow
            for i in 0..<pair {
                PixelConverter.yuvRow(
                    base + (y + i) * w, cb, cr, chromaStep: nv12 ? 2 : 1, width: w, into: rows + i * w * 3,
                    bytesPerPixel: 3, matrix: .bt601)
            }
            transform.apply(rows, count: pair * w)
            for i in 0..<pair {
                let p = rows + i * w * 3, luma = base + (y + i) * w
                for x in 0..<w { luma[x] = PixelConverter.luma(p[x * 3], p[x * 3 + 1], p[x * 3 + 2]) }
            }
            for cx in 0..<planes[1].width {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, n: Int32 = 0
                for i in 0..<pair {
                    for x in (cx * 2)..<min(cx * 2 + 2, w) {
                        let p = rows + (i * w + x) * 3
                        r &+= Int32(p[0]); g &+= Int32(p[1]); b &+= Int32(p[2]); n &+= 1
                    }
                }
                let (u, v) = PixelConverter.chroma(r: r, g: g, b: b, count: n)
                cb[cx * (nv12 ? 2 : 1)] = u
                cr[cx * (nv12 ? 2 : 1)] = v
            }
            y += 2
        }
    }

    /// The memory a conversion of `count` pixels of `format` adds to the image itself: nothing for the formats
    /// transformed in place (YUV included), else an rgb8 or rgba8 copy and the converted-back result.
    package static func extraBytes(for format: PixelFormat, size: PixelSize) -> Int {
        guard !transformsInPlace(format), !format.isPlanar, format != .alpha8 else { return 0 }
        return (format.hasAlpha ? PixelFormat.rgba8 : .rgb8).byteCount(for: size) + format.byteCount(for: size)
    }

}
