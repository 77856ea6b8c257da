/// Converts whole images between pixel formats.
///
/// Interleaved formats convert row by row through straight RGBA8; YUV converts directly to and from RGB
/// in fixed point (2×2 chroma: nearest on the way up, averaged on the way down). Memory: the result plus
/// two rows of scratch.
package enum PixelConverter {
    /// The YCbCr matrix, full range (JPEG's). `.bt601` is what JPEG stores; `.bt709` is HD video's.
    package enum Matrix: Sendable {
        case bt601, bt709

        /// R = Y + rCr·Cr', G = Y − gCb·Cb' − gCr·Cr', B = Y + bCb·Cb' in 16.16 fixed point; luma weights.
        var coefficients: (rCr: Int32, gCb: Int32, gCr: Int32, bCb: Int32, kr: Int32, kg: Int32, kb: Int32) {
            switch self {
            case .bt601: (91881, 22554, 46802, 116130, 19595, 38470, 7471)
            case .bt709: (103206, 12276, 30679, 121609, 13933, 46871, 4732)
            }
        }

        /// Cb' = cb·(R, G, B), Cr' = cr·(R, G, B) in 16.16 fixed point (each row sums to 0).
        var chroma: (cb: (Int32, Int32, Int32), cr: (Int32, Int32, Int32)) {
            switch self {
            case .bt601: ((-11059, -21709, 32768), (32768, -27439, -5329))
            case .bt709: ((-7509, -25259, 32768), (32768, -29763, -3005))
            }
        }
    }

    /// `image` in `format`. Colour → gray keeps luma; alpha is dropped going to formats without it
    /// (YUV, gray8, rgb8) and is opaque coming from them; an alpha8 mask is the source's alpha.
    package static func convert(_ image: PixelBuffer, to format: PixelFormat, matrix: Matrix = .bt601) -> PixelBuffer {
        if image.format == format { return image }
        let out = [UInt8](unsafeUninitializedCapacity: format.byteCount(for: image.size)) { buffer, count in
            image.bytes.withUnsafeBytes {
                convert(
                    $0.baseAddress!, from: image.format, size: image.size, into: buffer.baseAddress!, as: format,
                    matrix: matrix)
            }
            count = buffer.count
        }
        return PixelBuffer(format: format, size: image.size, bytes: out)
    }

    /// `image` composited over an opaque `background`, as rgb8: `c·a + bg·(255 − a)`, rounded, per channel
    /// (an image with alpha goes through rgba8 first; one without it is converted as it is). What JPEG output
    /// and contact sheets do with alpha. Cost: one pass over the pixels, plus the rgba8 conversion if needed.
    package static func flattened(_ image: PixelBuffer, over background: (red: UInt8, green: UInt8, blue: UInt8))
        -> PixelBuffer
    {
        guard image.format.hasAlpha else { return convert(image, to: .rgb8) }
        let rgba = convert(image, to: .rgba8)
        let count = rgba.size.pixelCount
        let out = [UInt8](unsafeUninitializedCapacity: count * 3) { buffer, written in
            rgba.bytes.withUnsafeBufferPointer {
                composite($0.baseAddress!, count: count, over: background, into: buffer.baseAddress!)
            }
            written = count * 3
        }
        return PixelBuffer(format: .rgb8, size: rgba.size, bytes: out)
    }

    private static func composite(
        _ s: UnsafePointer<UInt8>, count: Int, over bg: (red: UInt8, green: UInt8, blue: UInt8),
        into d: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<count {
            let a = UInt32(s[4 * i + 3]), na = 255 - a
            d[3 * i] = UInt8((UInt32(s[4 * i]) * a + UInt32(bg.red) * na + 127) / 255)
            d[3 * i + 1] = UInt8((UInt32(s[4 * i + 1]) * a + UInt32(bg.green) * na + 127) / 255)
            d[3 * i + 2] = UInt8((UInt32(s[4 * i + 2]) * a + UInt32(bg.blue) * na + 127) / 255)
        }
    }

    /// Converts an image of `size` in `from` at `source` into `destination`, which holds
    /// `format.byteCount(for: size)` bytes (every byte is written).
    package static func convert(
        _ source: UnsafeRawPointer, from: PixelFormat, size: PixelSize, into destination: UnsafeMutablePointer<UInt8>,
        as format: PixelFormat, matrix: Matrix = .bt601
    ) {
        if from == format {
            destination.update(from: source.assumingMemoryBound(to: UInt8.self), count: format.byteCount(for: size))
        } else if from.isPlanar && format.isPlanar {
            swapChromaLayout(source.assumingMemoryBound(to: UInt8.self), from: from, size: size, to: destination)
        } else if from.isPlanar {
            fromYUV(source, format: from, size: size, to: destination, as: format, matrix: matrix)
        } else if format.isPlanar {
            toYUV(source, format: from, size: size, to: destination, as: format, matrix: matrix)
        } else {
            let hub = UnsafeMutablePointer<UInt8>.allocate(capacity: max(size.width, 1) * 4)
            defer { hub.deallocate() }
            let srcRow = from.bytesPerPixel * size.width, dstRow = format.bytesPerPixel * size.width
            for y in 0..<size.height {
                toRGBA(source + y * srcRow, format: from, width: size.width, into: hub, matrix: matrix)
                fromRGBA(hub, width: size.width, into: destination + y * dstRow, as: format, matrix: matrix)
            }
        }
    }

    // MARK: YUV → RGB

    /// yuv420 ↔ nv12: the same luma, chroma planes interleaved or split.
    static func swapChromaLayout(
        _ src: UnsafePointer<UInt8>, from: PixelFormat, size: PixelSize, to dst: UnsafeMutablePointer<UInt8>
    ) {
        let planes = PixelFormat.yuv420.planes(for: size)
        dst.update(from: src, count: planes[0].byteCount)
        let n = planes[1].byteCount, base = planes[1].offset
        for i in 0..<n {
            if from == .yuv420 {
                dst[base + 2 * i] = src[base + i]
                dst[base + 2 * i + 1] = src[base + n + i]
            } else {
                dst[base + i] = src[base + 2 * i]
                dst[base + n + i] = src[base + 2 * i + 1]
            }
        }
    }

    /// Planar YUV to any interleaved format; rgba8 and rgb8 are written directly, others through RGBA8 rows.
    static func fromYUV(
        _ src: UnsafeRawPointer, format: PixelFormat, size: PixelSize, to dst: UnsafeMutablePointer<UInt8>,
        as target: PixelFormat, matrix: Matrix
    ) {
        let w = size.width, h = size.height, planes = format.planes(for: size)
        let y0 = src.assumingMemoryBound(to: UInt8.self)
        if target == .rgba8 {
            yuvToRGBA(y0, planes: planes, nv12: format == .nv12, size: size, into: dst, matrix: matrix)
            return
        }
        let direct = target == .rgb8
        let outBytes = direct ? target.bytesPerPixel : 4
        let rowScratch = UnsafeMutablePointer<UInt8>.allocate(capacity: direct ? 1 : w * 4)
        defer { rowScratch.deallocate() }
        for y in 0..<h {
            let cy = y / 2
            let cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, chromaStep: Int
            if format == .nv12 {
                let uv = y0 + planes[1].offset + cy * planes[1].bytesPerRow
                cb = uv
                cr = uv + 1
                chromaStep = 2
            } else {
                cb = y0 + planes[1].offset + cy * planes[1].bytesPerRow
                cr = y0 + planes[2].offset + cy * planes[2].bytesPerRow
                chromaStep = 1
            }
            let out = direct ? dst + y * w * outBytes : rowScratch
            yuvRow(
                y0 + y * w, cb, cr, chromaStep: chromaStep, width: w, into: out, bytesPerPixel: outBytes, matrix: matrix
            )
            if !direct {
                fromRGBA(rowScratch, width: w, into: dst + y * w * target.bytesPerPixel, as: target, matrix: matrix)
            }
        }
    }

    /// The throughput path: two luma rows per chroma row, each chroma sample's colour offsets computed once
    /// for its 2×2 pixels, each pixel stored as one 32-bit word.
    static func yuvToRGBA(
        _ base: UnsafePointer<UInt8>, planes: [PixelFormat.Plane], nv12: Bool, size: PixelSize,
        into dst: UnsafeMutablePointer<UInt8>, matrix: Matrix
    ) {
        let w = size.width, h = size.height, k = matrix.coefficients
        let step = nv12 ? 2 : 1
        let cbPlane = planes[1], crOffset = nv12 ? planes[1].offset + 1 : planes[2].offset
        let evenWidth = w & ~1
        // The destination may not be 4-byte aligned (an arbitrary pointer): write words through raw stores.
        let out = UnsafeMutableRawPointer(dst)
        var y = 0
        while y < h {
            let cy = y / 2
            let cb = base + cbPlane.offset + cy * cbPlane.bytesPerRow
            let cr = base + crOffset + cy * (nv12 ? cbPlane.bytesPerRow : cbPlane.width)
            let rows = min(2, h - y)
            for r in 0..<rows {
                let l = base + (y + r) * w, o = out + (y + r) * w * 4
                var x = 0, c = 0
                // Eight pixels (four chroma samples) per step as 8-lane integer vectors; the packed words
                // are R,G,B,A in memory on little-endian machines (big-endian ones take the loop below).
                while Self.littleEndian && x + 8 <= w {
                    let u: SIMD4<Int32>, v: SIMD4<Int32>
                    if step == 1 {
                        u =
                            SIMD4<Int32>(
                                truncatingIfNeeded: UnsafeRawPointer(cb + c).loadUnaligned(as: SIMD4<UInt8>.self))
                            &- 128
                        v =
                            SIMD4<Int32>(
                                truncatingIfNeeded: UnsafeRawPointer(cr + c).loadUnaligned(as: SIMD4<UInt8>.self))
                            &- 128
                    } else {
                        let uv =
                            SIMD8<Int32>(
                                truncatingIfNeeded: UnsafeRawPointer(cb + c).loadUnaligned(as: SIMD8<UInt8>.self))
                            &- 128
                        u = uv.evenHalf
                        v = uv.oddHalf
                    }
                    let dr4 = (k.rCr &* v &+ 32768) &>> 16
                    let dg4 = (k.gCb &* u &+ k.gCr &* v &+ 32768) &>> 16
                    let db4 = (k.bCb &* u &+ 32768) &>> 16
                    let dr = SIMD8(dr4[0], dr4[0], dr4[1], dr4[1], dr4[2], dr4[2], dr4[3], dr4[3])
                    let dg = SIMD8(dg4[0], dg4[0], dg4[1], dg4[1], dg4[2], dg4[2], dg4[3], dg4[3])
                    let db = SIMD8(db4[0], db4[0], db4[1], db4[1], db4[2], db4[2], db4[3], db4[3])
                    let luma = SIMD8<Int32>(
                        truncatingIfNeeded: UnsafeRawPointer(l + x).loadUnaligned(as: SIMD8<UInt8>.self))
                    let zero = SIMD8<Int32>(repeating: 0), top = SIMD8<Int32>(repeating: 255)
                    let r = SIMD8<UInt32>(truncatingIfNeeded: (luma &+ dr).clamped(lowerBound: zero, upperBound: top))
                    let g = SIMD8<UInt32>(truncatingIfNeeded: (luma &- dg).clamped(lowerBound: zero, upperBound: top))
                    let b = SIMD8<UInt32>(truncatingIfNeeded: (luma &+ db).clamped(lowerBound: zero, upperBound: top))
                    let words = r | (g &<< 8) | (b &<< 16) | SIMD8<UInt32>(repeating: 0xFF00_0000)
                    o.storeBytes(of: words, toByteOffset: x * 4, as: SIMD8<UInt32>.self)
                    x += 8
                    c += 4 * step
                }
                while x < evenWidth {
                    let u = Int32(cb[c]) &- 128, v = Int32(cr[c]) &- 128
                    let dr = (k.rCr &* v &+ 32768) >> 16
                    let dg = (k.gCb &* u &+ k.gCr &* v &+ 32768) >> 16
                    let db = (k.bCb &* u &+ 32768) >> 16
                    let a = pack(Int32(l[x]), dr, dg, db), b = pack(Int32(l[x + 1]), dr, dg, db)
                    o.storeBytes(of: UInt64(a) | UInt64(b) << 32, toByteOffset: x * 4, as: UInt64.self)
                    x += 2
                    c += step
                }
                if x < w {
                    let u = Int32(cb[c]) &- 128, v = Int32(cr[c]) &- 128
                    let dr = (k.rCr &* v &+ 32768) >> 16
                    let dg = (k.gCb &* u &+ k.gCr &* v &+ 32768) >> 16
                    let db = (k.bCb &* u &+ 32768) >> 16
                    o.storeBytes(of: pack(Int32(l[x]), dr, dg, db), toByteOffset: x * 4, as: UInt32.self)
                }
            }
            y += 2
        }
    }

    #if _endian(little)
        static let littleEndian = true
    #else
        static let littleEndian = false
    #endif

    /// R, G, B (clamped) and opaque alpha as one little-endian RGBA word.
    @inline(__always)
    static func pack(_ l: Int32, _ dr: Int32, _ dg: Int32, _ db: Int32) -> UInt32 {
        let r = UInt32(min(max(l &+ dr, 0), 255)), g = UInt32(min(max(l &- dg, 0), 255)),
            b = UInt32(min(max(l &+ db, 0), 255))
        return (r | g << 8 | b << 16 | 0xFF00_0000).littleEndian
    }

    /// One row: each chroma pair serves two pixels; writes RGB or RGBA (alpha 255).
    @inline(__always)
    package static func yuvRow(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, chromaStep: Int,
        width: Int, into out: UnsafeMutablePointer<UInt8>, bytesPerPixel bpp: Int, matrix: Matrix
    ) {
        let k = matrix.coefficients
        var x = 0, c = 0
        while x < width {
            let u = Int32(cb[c]) - 128, v = Int32(cr[c]) - 128
            let dr = (k.rCr &* v &+ 32768) >> 16
            let dg = (k.gCb &* u &+ k.gCr &* v &+ 32768) >> 16
            let db = (k.bCb &* u &+ 32768) >> 16
            let end = min(x + 2, width)
            while x < end {
                let l = Int32(luma[x]), p = out + x * bpp
                p[0] = clamp(l &+ dr)
                p[1] = clamp(l &- dg)
                p[2] = clamp(l &+ db)
                if bpp == 4 { p[3] = 255 }
                x += 1
            }
            c += chromaStep
        }
    }

    // MARK: RGB → YUV

    /// Any interleaved format to planar YUV: luma per pixel, chroma from the 2×2 average (edge blocks
    /// average the pixels that exist).
    static func toYUV(
        _ src: UnsafeRawPointer, format: PixelFormat, size: PixelSize, to dst: UnsafeMutablePointer<UInt8>,
        as target: PixelFormat, matrix: Matrix
    ) {
        let w = size.width, h = size.height, planes = target.planes(for: size)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: max(w, 1) * 8)
        defer { rows.deallocate() }
        let srcRow = format.bytesPerPixel * w
        var y = 0
        while y < h {
            let pair = min(2, h - y)
            for i in 0..<pair {
                toRGBA(src + (y + i) * srcRow, format: format, width: w, into: rows + i * w * 4, matrix: matrix)
            }
            for i in 0..<pair {
                let p = rows + i * w * 4, luma = dst + (y + i) * w
                for x in 0..<w { luma[x] = self.luma(p[x * 4], p[x * 4 + 1], p[x * 4 + 2], matrix: matrix) }
            }
            let cy = y / 2
            for cx in 0..<planes[1].width {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, n: Int32 = 0
                for i in 0..<pair {
                    for x in (cx * 2)..<min(cx * 2 + 2, w) {
                        let p = rows + i * w * 4 + x * 4
                        r &+= Int32(p[0]); g &+= Int32(p[1]); b &+= Int32(p[2]); n &+= 1
                    }
                }
                let (cbv, crv) = chroma(r: r, g: g, b: b, count: n, matrix: matrix)
                if target == .nv12 {
                    let uv = dst + planes[1].offset + cy * planes[1].bytesPerRow + cx * 2
                    uv[0] = cbv
                    uv[1] = crv
                } else {
                    dst[planes[1].offset + cy * planes[1].width + cx] = cbv
                    dst[planes[2].offset + cy * planes[2].width + cx] = crv
                }
            }
            y += 2
        }
    }

    /// Luma of one RGB pixel, rounded.
    @inline(__always)
    package static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8, matrix: Matrix = .bt601) -> UInt8 {
        let k = matrix.coefficients
        return clamp((k.kr &* Int32(r) &+ k.kg &* Int32(g) &+ k.kb &* Int32(b) &+ 32768) >> 16)
    }

    /// Cb and Cr of the average of `count` RGB pixels whose channel sums are r, g, b, rounded to nearest.
    @inline(__always)
    package static func chroma(r: Int32, g: Int32, b: Int32, count: Int32, matrix: Matrix = .bt601) -> (UInt8, UInt8) {
        let m = matrix.chroma, scale = 1 / (Double(count) * 65536)
        let cb = 128 + Int32((Double(m.cb.0 &* r &+ m.cb.1 &* g &+ m.cb.2 &* b) * scale).rounded())
        let cr = 128 + Int32((Double(m.cr.0 &* r &+ m.cr.1 &* g &+ m.cr.2 &* b) * scale).rounded())
        return (clamp(cb), clamp(cr))
    }

    // MARK: Interleaved through straight RGBA8

    /// A row of `format` as straight RGBA8.
    static func toRGBA(
        _ src: UnsafeRawPointer, format: PixelFormat, width: Int, into out: UnsafeMutablePointer<UInt8>,
        matrix: Matrix
    ) {
        let p = src.assumingMemoryBound(to: UInt8.self)
        for x in 0..<width {
            let o = out + x * 4
            switch format {
            case .gray8: o[0] = p[x]; o[1] = p[x]; o[2] = p[x]; o[3] = 255
            case .grayAlpha8: o[0] = p[x * 2]; o[1] = p[x * 2]; o[2] = p[x * 2]; o[3] = p[x * 2 + 1]
            case .alpha8: o[0] = 0; o[1] = 0; o[2] = 0; o[3] = p[x]
            case .rgb8: o[0] = p[x * 3]; o[1] = p[x * 3 + 1]; o[2] = p[x * 3 + 2]; o[3] = 255
            case .rgba8: for k in 0..<4 { o[k] = p[x * 4 + k] }
            case .bgra8: o[0] = p[x * 4 + 2]; o[1] = p[x * 4 + 1]; o[2] = p[x * 4]; o[3] = p[x * 4 + 3]
            case .rgba8Premultiplied, .bgra8Premultiplied:
                let a = Int(p[x * 4 + 3]), bgr = format == .bgra8Premultiplied
                for k in 0..<3 {
                    let c = Int(p[x * 4 + (bgr ? 2 - k : k)])
                    o[k] = a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
                }
                o[3] = UInt8(a)
            case .rgba16:
                let q = src.assumingMemoryBound(to: UInt16.self)
                for k in 0..<4 { o[k] = UInt8((UInt32(q[x * 4 + k]) * 255 + 32767) / 65535) }
            case .yuv420, .nv12:
                preconditionFailure("planar rows go through fromYUV/toYUV")
            }
        }
    }

    /// A row of straight RGBA8 as `format` (16-bit widened exactly, v × 257).
    static func fromRGBA(
        _ p: UnsafePointer<UInt8>, width: Int, into dst: UnsafeMutablePointer<UInt8>, as format: PixelFormat,
        matrix: Matrix
    ) {
        let k = matrix.coefficients
        for x in 0..<width {
            let i = p + x * 4
            let luma = clamp((k.kr &* Int32(i[0]) &+ k.kg &* Int32(i[1]) &+ k.kb &* Int32(i[2]) &+ 32768) >> 16)
            switch format {
            case .gray8: dst[x] = luma
            case .grayAlpha8: dst[x * 2] = luma; dst[x * 2 + 1] = i[3]
            case .alpha8: dst[x] = i[3]
            case .rgb8: dst[x * 3] = i[0]; dst[x * 3 + 1] = i[1]; dst[x * 3 + 2] = i[2]
            case .rgba8: for c in 0..<4 { dst[x * 4 + c] = i[c] }
            case .bgra8: dst[x * 4] = i[2]; dst[x * 4 + 1] = i[1]; dst[x * 4 + 2] = i[0]; dst[x * 4 + 3] = i[3]
            case .rgba8Premultiplied, .bgra8Premultiplied:
                let a = Int(i[3]), bgr = format == .bgra8Premultiplied
                for c in 0..<3 { dst[x * 4 + (bgr ? 2 - c : c)] = UInt8((Int(i[c]) * a + 127) / 255) }
                dst[x * 4 + 3] = i[3]
            case .rgba16:
                let q = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt16.self)
                for c in 0..<4 { q[x * 4 + c] = UInt16(i[c]) * 257 }
            case .yuv420, .nv12:
                preconditionFailure("planar rows go through fromYUV/toYUV")
            }
        }
    }

    @inline(__always)
    static func clamp(_ v: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v)
    }
}
