/// A file's own reduced images (an icon's smaller entries, a TIFF pyramid's levels) as decode-time scale
/// denominators: denominator `d` stands for the smallest image at least 1/`d` of the full size on both axes, so the
/// planner's choice of the largest `d` that still covers the output picks the smallest image that does.
package struct ReducedSizes: Sendable {
    /// The image's own size.
    package let full: PixelSize
    /// The sizes, smallest first; the last is ``full``.
    package let sizes: [PixelSize]

    /// `reduced` (any order; sizes not smaller than `full` are left out) and `full`.
    package init(full: PixelSize, reduced: [PixelSize]) {
        self.full = full
        sizes =
            Array(Set(reduced.filter { $0.pixelCount < full.pixelCount })).sorted { $0.pixelCount < $1.pixelCount } + [
                full
            ]
    }

    /// 1, and for each reduced size the least denominator it covers.
    package var denominators: [Int] {
        let reduced = sizes.dropLast().map {
            max((full.width + $0.width - 1) / $0.width, (full.height + $0.height - 1) / $0.height)
        }
        return Array(Set([1] + reduced)).sorted()
    }

    /// The index in ``sizes`` of the smallest size at least 1/`d` of the full size on both axes.
    package func index(denominator d: Int) -> Int {
        let need = PixelSize(width: (full.width + d - 1) / d, height: (full.height + d - 1) / d)
        return sizes.firstIndex { $0.width >= need.width && $0.height >= need.height } ?? sizes.count - 1
    }

    /// True when `size` has the full size's shape (each side within one pixel of the same factor, as a pyramid's
    /// levels halve with rounding).
    package func sameShape(_ size: PixelSize) -> Bool {
        Self.sameShape(size, full)
    }

    /// True when `a` and `b` have one shape: scaling `a` by either side's factor gives `b` within a pixel.
    package static func sameShape(_ a: PixelSize, _ b: PixelSize) -> Bool {
        guard a.width > 0, a.height > 0 else { return false }
        let byWidth = Double(b.width) / Double(a.width), byHeight = Double(b.height) / Double(a.height)
        return abs(Double(a.height) * byWidth - Double(b.height)) <= max(1, byWidth)
            && abs(Double(a.width) * byHeight - Double(b.width)) <= max(1, byHeight)
    }
}
