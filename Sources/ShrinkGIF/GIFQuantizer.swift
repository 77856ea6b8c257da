/// Reduces rgba8 pixels to a GIF colour table of at most 255 colours and one index a pixel (Shrink's own code: the
/// maintained quantiser, libimagequant, is GPL-3 in Debian and stays out of the default build).
///
/// A frame with at most 255 distinct opaque colours keeps them exactly (pixel art, flat graphics, a GIF shown at its
/// size). Otherwise the colours are counted in 32,768 cells (5 bits a channel), the table is cut from the cells by
/// median cut (the set of cells with the largest squared error is split at its weighted median along its widest axis)
/// and refined by one k-means pass, and each pixel takes the entry nearest its cell's colour. Pixels with alpha under
/// 128 take the transparent index, the table's last entry. Floyd–Steinberg dithering is optional: it hides banding in
/// a still; in an animation it makes unchanged areas differ from frame to frame, so the encoder's frame-difference
/// coding could no longer skip them, and they shimmer.
///
/// Cost: two passes over the pixels (three when dithering), plus the median cut and the nearest-entry searches over
/// the cells a frame uses; the cell tables are allocated once and reused for every frame.
final class GIFQuantizer {
    private static let cellCount = 1 << 15
    private static let maxColors = 255
    /// Pixels per cell, and the sums of their red, green and blue (3 a cell); zero between frames.
    private let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: cellCount)
    private let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: cellCount * 3)
    /// The table entry nearest each cell, valid when the cell's stamp is the current frame's.
    private let nearest = UnsafeMutablePointer<UInt8>.allocate(capacity: cellCount)
    private let stamps = UnsafeMutablePointer<UInt32>.allocate(capacity: cellCount)
    private var stamp: UInt32 = 0
    /// The cells the current frame uses.
    private let used = UnsafeMutablePointer<Int32>.allocate(capacity: cellCount)
    /// Exact colours: an open-addressing table of `rgb | 1 << 24` keys (0: empty) and their indices.
    private static let exactSlots = 1024
    private let exactKeys = UnsafeMutablePointer<UInt32>.allocate(capacity: exactSlots)
    private let exactIndices = UnsafeMutablePointer<UInt8>.allocate(capacity: exactSlots)
    /// The table being searched, ordered by green, with each entry's index.
    private var searchRGB: [Int32] = []
    private var searchIndex: [UInt8] = []

    init() {
        counts.initialize(repeating: 0, count: Self.cellCount)
        sums.initialize(repeating: 0, count: Self.cellCount * 3)
        nearest.initialize(repeating: 0, count: Self.cellCount)
        stamps.initialize(repeating: 0, count: Self.cellCount)
        used.initialize(repeating: 0, count: Self.cellCount)
        exactKeys.initialize(repeating: 0, count: Self.exactSlots)
        exactIndices.initialize(repeating: 0, count: Self.exactSlots)
    }

    deinit {
        for p in [counts, sums, stamps] { p.deallocate() }
        nearest.deallocate()
        used.deallocate()
        exactKeys.deallocate()
        exactIndices.deallocate()
    }

    /// The table for the rgba8 pixels of a `width`-wide image, with each pixel's index written to `indices` (one a
    /// pixel, `indices.count` pixels).
    func quantize(
        _ rgba: UnsafeBufferPointer<UInt8>, width: Int, dither: Bool, into indices: UnsafeMutableBufferPointer<UInt8>
    ) -> GIFPalette {
        if let exact = exactPalette(rgba, into: indices) { return exact }
        stamp &+= 1
        let cells = histogram(rgba)
        var palette = medianCut(cells)
        palette = refined(palette, cells)
        prepareSearch(palette)
        for k in 0..<cells.cell.count {
            let c = Int(cells.cell[k])
            nearest[c] = UInt8(nearestEntry(cells.rgb[3 * k], cells.rgb[3 * k + 1], cells.rgb[3 * k + 2]))
            stamps[c] = stamp
        }
        let colors = palette.count / 3
        let transparent = cells.hasTransparency ? colors : nil
        if dither {
            diffuse(rgba, width: width, palette: palette, transparent: transparent, into: indices)
        } else {
            map(rgba, transparent: transparent, into: indices)
        }
        var rgb = palette.map { UInt8($0) }
        if transparent != nil { rgb += [0, 0, 0] }
        return GIFPalette(rgb: rgb, transparentIndex: transparent)
    }

    /// The exact table when the opaque pixels have at most 255 colours (indices written), else nil.
    private func exactPalette(_ rgba: UnsafeBufferPointer<UInt8>, into indices: UnsafeMutableBufferPointer<UInt8>)
        -> GIFPalette?
    {
        let mask = Self.exactSlots - 1
        var rgb: [UInt8] = []
        rgb.reserveCapacity(Self.maxColors * 3)
        var hasTransparency = false
        var colors = 0
        var fits = true
        for i in 0..<indices.count {
            let p = 4 * i
            guard rgba[p + 3] >= 128 else {
                hasTransparency = true
                indices[i] = 255
                continue
            }
            let key = UInt32(rgba[p]) << 16 | UInt32(rgba[p + 1]) << 8 | UInt32(rgba[p + 2]) | 1 << 24
            var slot = Int((key &* 2_654_435_761) >> 22) & mask
            while exactKeys[slot] != 0 && exactKeys[slot] != key { slot = (slot + 1) & mask }
            if exactKeys[slot] == 0 {
                guard colors < Self.maxColors else {
                    fits = false
                    break
                }
                exactKeys[slot] = key
                exactIndices[slot] = UInt8(colors)
                rgb += [rgba[p], rgba[p + 1], rgba[p + 2]]
                colors += 1
            }
            indices[i] = exactIndices[slot]
        }
        exactKeys.update(repeating: 0, count: Self.exactSlots)
        guard fits else { return nil }
        guard hasTransparency else { return GIFPalette(rgb: rgb, transparentIndex: nil) }
        if colors < 255 {
            for i in 0..<indices.count where indices[i] == 255 { indices[i] = UInt8(colors) }
        }
        return GIFPalette(rgb: rgb + [0, 0, 0], transparentIndex: colors)
    }

    /// The cells a frame's opaque pixels use, in parallel arrays: each one's number, pixel count and mean colour
    /// (3 a cell); and whether some pixel is transparent.
    private typealias Cells = (cell: [Int32], weight: [Double], rgb: [Int32], hasTransparency: Bool)

    /// The cells the opaque pixels use; the cell tables are left zeroed for the next frame.
    private func histogram(_ rgba: UnsafeBufferPointer<UInt8>) -> Cells {
        var usedCount = 0
        var hasTransparency = false
        var p = 0
        while p < rgba.count {
            if rgba[p + 3] < 128 {
                hasTransparency = true
            } else {
                let r = UInt32(rgba[p]), g = UInt32(rgba[p + 1]), b = UInt32(rgba[p + 2])
                let c = Int((r >> 3) << 10 | (g >> 3) << 5 | b >> 3)
                if counts[c] == 0 {
                    used[usedCount] = Int32(c)
                    usedCount += 1
                }
                counts[c] += 1
                sums[3 * c] += r
                sums[3 * c + 1] += g
                sums[3 * c + 2] += b
            }
            p += 4
        }
        var cell = [Int32](repeating: 0, count: usedCount)
        var weight = [Double](repeating: 0, count: usedCount)
        var rgb = [Int32](repeating: 0, count: usedCount * 3)
        for k in 0..<usedCount {
            let c = Int(used[k])
            let n = counts[c]
            cell[k] = Int32(c)
            weight[k] = Double(n)
            for j in 0..<3 { rgb[3 * k + j] = Int32((sums[3 * c + j] + n / 2) / n) }
            counts[c] = 0
            sums[3 * c] = 0
            sums[3 * c + 1] = 0
            sums[3 * c + 2] = 0
        }
        return (cell, weight, rgb, hasTransparency)
    }

    /// Up to 255 colours (R, G, B) cut from the cells: the box with the largest squared error split at its weighted
    /// median along the axis where it varies most, until there are 255 boxes or none can be split.
    private func medianCut(_ cells: Cells) -> [Int32] {
        let count = cells.cell.count
        guard count > 0 else { return [] }
        var order = Array(0..<count)
        func measure(_ start: Int, _ end: Int) -> (error: Double, axis: Int) {
            var w = 0.0
            var s = [0.0, 0.0, 0.0], q = [0.0, 0.0, 0.0]
            for k in order[start..<end] {
                let wk = cells.weight[k]
                w += wk
                for j in 0..<3 {
                    let v = Double(cells.rgb[3 * k + j])
                    s[j] += wk * v
                    q[j] += wk * v * v
                }
            }
            let variance = (0..<3).map { q[$0] - s[$0] * s[$0] / w }
            let axis = variance[1] >= variance[0] && variance[1] >= variance[2] ? 1 : variance[0] >= variance[2] ? 0 : 2
            return (end - start > 1 ? variance.reduce(0, +) : 0, axis)
        }
        var boxes: [(start: Int, end: Int, error: Double, axis: Int)] = []
        let first = measure(0, count)
        boxes.append((0, count, first.error, first.axis))
        while boxes.count < Self.maxColors {
            var chosen = -1
            for (i, box) in boxes.enumerated() where box.error > 0 && (chosen < 0 || box.error > boxes[chosen].error) {
                chosen = i
            }
            guard chosen >= 0 else { break }
            let box = boxes[chosen]
            let axis = box.axis
            order[box.start..<box.end].sort { cells.rgb[3 * $0 + axis] < cells.rgb[3 * $1 + axis] }
            var total = 0.0
            for k in order[box.start..<box.end] { total += cells.weight[k] }
            var split = box.start + 1
            var running = cells.weight[order[box.start]]
            while split < box.end - 1 && running + cells.weight[order[split]] <= total / 2 {
                running += cells.weight[order[split]]
                split += 1
            }
            let low = measure(box.start, split), high = measure(split, box.end)
            boxes[chosen] = (box.start, split, low.error, low.axis)
            boxes.append((split, box.end, high.error, high.axis))
        }
        var palette: [Int32] = []
        palette.reserveCapacity(boxes.count * 3)
        for box in boxes {
            var w = 0.0
            var s = [0.0, 0.0, 0.0]
            for k in order[box.start..<box.end] {
                w += cells.weight[k]
                for j in 0..<3 { s[j] += cells.weight[k] * Double(cells.rgb[3 * k + j]) }
            }
            for j in 0..<3 { palette.append(Int32((s[j] / w).rounded())) }
        }
        return palette
    }

    /// `palette` moved once to the weighted means of the cells nearest each entry (one k-means pass).
    private func refined(
        _ palette: [Int32], _ cells: Cells
    ) -> [Int32] {
        let colors = palette.count / 3
        guard colors > 1 else { return palette }
        prepareSearch(palette)
        var w = [Double](repeating: 0, count: colors)
        var s = [Double](repeating: 0, count: colors * 3)
        for k in 0..<cells.cell.count {
            let e = nearestEntry(cells.rgb[3 * k], cells.rgb[3 * k + 1], cells.rgb[3 * k + 2])
            w[e] += cells.weight[k]
            for j in 0..<3 { s[3 * e + j] += cells.weight[k] * Double(cells.rgb[3 * k + j]) }
        }
        var moved = palette
        for e in 0..<colors where w[e] > 0 {
            for j in 0..<3 { moved[3 * e + j] = Int32((s[3 * e + j] / w[e]).rounded()) }
        }
        return moved
    }

    /// Orders `palette` by green for ``nearestEntry(_:_:_:)``.
    private func prepareSearch(_ palette: [Int32]) {
        let order = (0..<palette.count / 3).sorted { palette[3 * $0 + 1] < palette[3 * $1 + 1] }
        searchRGB = order.flatMap { [palette[3 * $0], palette[3 * $0 + 1], palette[3 * $0 + 2]] }
        searchIndex = order.map { UInt8($0) }
    }

    /// The index of the table entry nearest (r, g, b) in squared RGB distance: a walk out from the entries of the
    /// same green, stopped on each side once the green difference alone exceeds the best distance.
    private func nearestEntry(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        let n = searchIndex.count
        return searchRGB.withUnsafeBufferPointer { t in
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                if t[3 * mid + 1] < g { lo = mid + 1 } else { hi = mid }
            }
            var best = Int32.max, bestAt = 0
            var up = lo, down = lo - 1
            while up < n || down >= 0 {
                if up < n {
                    let dg = t[3 * up + 1] - g
                    if dg * dg >= best {
                        up = n
                    } else {
                        let dr = t[3 * up] - r, db = t[3 * up + 2] - b
                        let d = dr * dr + dg * dg + db * db
                        if d < best { (best, bestAt) = (d, up) }
                        up += 1
                    }
                }
                if down >= 0 {
                    let dg = g - t[3 * down + 1]
                    if dg * dg >= best {
                        down = -1
                    } else {
                        let dr = t[3 * down] - r, db = t[3 * down + 2] - b
                        let d = dr * dr + dg * dg + db * db
                        if d < best { (best, bestAt) = (d, down) }
                        down -= 1
                    }
                }
            }
            return Int(searchIndex[bestAt])
        }
    }

    /// Each pixel's index: its cell's nearest entry, or `transparent`.
    private func map(
        _ rgba: UnsafeBufferPointer<UInt8>, transparent: Int?, into indices: UnsafeMutableBufferPointer<UInt8>
    ) {
        let clear = UInt8(transparent ?? 0)
        for i in 0..<indices.count {
            let p = 4 * i
            if rgba[p + 3] < 128 {
                indices[i] = clear
            } else {
                let c = (Int(rgba[p]) >> 3) << 10 | (Int(rgba[p + 1]) >> 3) << 5 | Int(rgba[p + 2]) >> 3
                indices[i] = nearest[c]
            }
        }
    }

    /// Each pixel's index with Floyd–Steinberg error diffusion (7/16 right, 3/16, 5/16 and 1/16 below); transparent
    /// pixels take `transparent` and pass no error on.
    private func diffuse(
        _ rgba: UnsafeBufferPointer<UInt8>, width: Int, palette: [Int32], transparent: Int?,
        into indices: UnsafeMutableBufferPointer<UInt8>
    ) {
        let clear = UInt8(transparent ?? 0)
        // Errors (×16) of this row and the next, with a pixel of margin on each side.
        var current = [Int32](repeating: 0, count: (width + 2) * 3)
        var below = current
        let height = indices.count / max(width, 1)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x, p = 4 * i
                guard rgba[p + 3] >= 128 else {
                    indices[i] = clear
                    continue
                }
                let e = 3 * (x + 1)
                let carried = SIMD3(current[e], current[e + 1], current[e + 2]) / 16
                let value = (SIMD3(Int32(rgba[p]), Int32(rgba[p + 1]), Int32(rgba[p + 2])) &+ carried)
                    .clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
                let c = Int(value.x >> 3) << 10 | Int(value.y >> 3) << 5 | Int(value.z >> 3)
                if stamps[c] != stamp {
                    nearest[c] = UInt8(nearestEntry(value.x, value.y, value.z))
                    stamps[c] = stamp
                }
                let chosen = Int(nearest[c])
                indices[i] = UInt8(chosen)
                let error = value &- SIMD3(palette[3 * chosen], palette[3 * chosen + 1], palette[3 * chosen + 2])
                for j in 0..<3 {
                    current[e + 3 + j] += error[j] &* 7
                    below[e - 3 + j] += error[j] &* 3
                    below[e + j] += error[j] &* 5
                    below[e + 3 + j] += error[j]
                }
            }
            swap(&current, &below)
            for k in 0..<below.count { below[k] = 0 }
        }
    }
}
