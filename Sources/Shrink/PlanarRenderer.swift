import ShrinkCore
import ShrinkResample

/// Runs a plan on Y, Cb, Cr planes straight from a decoder (``PlaneDecoding``) into a yuv420 result: each plane is
/// resampled on its own (chroma to half the output size, whatever the source's subsampling, with the filter of
/// ``kernel(_:)``) and written to
/// its oriented position, so no RGB image ever exists.
///
/// Memory: the result (1.5 B/px), one decoder row group per plane, and a resampler ring per plane.
enum PlanarRenderer {
    /// `region` is the part of the decoded luma plane to resample (``ThumbnailPlan/decodedRegion`` by default).
    static func render(
        _ plan: ThumbnailPlan, from planes: any PlaneDecoding, region: FractionalRect? = nil,
        monitor: DecodeMonitor? = nil
    ) throws(ImageError) -> PixelBuffer {
        // Planes of another size come with their own region (a codec that cropped before scaling).
        guard planes.planeSizes[0] == plan.decodedSize || (region != nil && plan.resamples) else {
            throw ImageError(
                .invalidArgument, "decoder produces \(planes.planeSizes[0]), the plan expects \(plan.decodedSize)")
        }
        let layout = PixelFormat.yuv420.planes(for: plan.outputSize)
        return try PixelBuffer(format: .yuv420, size: plan.outputSize) { destination throws(ImageError) in
            var sinks: [PlaneSink] = []
            for i in 0..<3 {
                let (target, region) = Self.plane(
                    i, sampled: planes.factors[i], lumaRegion: region ?? plan.decodedRegion,
                    stored: plan.storedOutputSize)
                let writer = OrientedWriter(
                    destination: destination.baseAddress! + layout[i].offset, storedSize: target,
                    channels: 1, orientation: plan.orientation)
                sinks.append(
                    PlaneSink(
                        source: planes.planeSizes[i], region: region, target: target, writer: writer,
                        kernel: Self.kernel(i)))
            }
            while !sinks.allSatisfy(\.isComplete) {
                let more = try planes.readGroup { plane, y, row in sinks[plane].take(row, y: y) }
                if !more { break }
                try monitor?.checkpoint(row: planes.nextRows[0])
            }
            guard sinks.allSatisfy(\.isComplete) else {
                throw ImageError(
                    .truncated, "planar decode stopped at row \(planes.nextRows[0]) before the output was complete")
            }
            try planes.finish()
        }
    }

    /// The filter plane `i` is resampled with: Lanczos-3 for luma; for chroma, which the output holds at half the
    /// luma's size, the filter an RGB image's chroma gets on its way to 4:2:0 (``ResampleKernel/subsampledLanczos3``),
    /// so a thumbnail made through planes matches one made through RGB.
    static func kernel(_ i: Int) -> ResampleKernel { i == 0 ? .lanczos3 : .subsampledLanczos3 }

    /// Plane `i`'s stored output size (chroma: half the luma's, rounded up) and the part of it to resample: the
    /// luma region scaled by the plane's sampling (`sampled`, its size over the luma plane's). An output chroma
    /// sample covers two output luma samples, so when the output has an odd size the chroma region reaches half
    /// a luma sample past the luma region (⌈w/2⌉·2 luma samples, not w). The memory prediction
    /// (``ImageSource/planeResamplerBytes(_:)``) uses the same geometry.
    static func plane(
        _ i: Int, sampled f: (x: Double, y: Double), lumaRegion r: FractionalRect,
        stored: PixelSize
    ) -> (target: PixelSize, region: FractionalRect) {
        let target = i == 0 ? stored : PixelSize(width: (stored.width + 1) / 2, height: (stored.height + 1) / 2)
        let ex = i == 0 ? 1 : Double(2 * target.width) / Double(stored.width)
        let ey = i == 0 ? 1 : Double(2 * target.height) / Double(stored.height)
        return (
            target, FractionalRect(x: r.x * f.x, y: r.y * f.y, width: r.width * f.x * ex, height: r.height * f.y * ey)
        )
    }
}

/// One plane's path from decoder rows to the result: a straight copy when sizes match, else a resampler.
private struct PlaneSink {
    let writer: OrientedWriter
    let resampler: StreamingResampler?
    let rows: Int
    private(set) var copied = 0

    init(source: PixelSize, region: FractionalRect, target: PixelSize, writer: OrientedWriter, kernel: ResampleKernel) {
        self.writer = writer
        rows = target.height
        let whole =
            region == FractionalRect(source)
            || (abs(region.x) < 1e-9 && abs(region.y) < 1e-9
                && abs(region.width - Double(target.width)) < 1e-9 && abs(region.height - Double(target.height)) < 1e-9)
        resampler =
            whole && source == target
            ? nil
            : StreamingResampler(inputSize: source, format: .gray8, outputSize: target, region: region, kernel: kernel)
    }

    var isComplete: Bool { resampler?.isComplete ?? (copied == rows) }

    mutating func take(_ row: UnsafePointer<UInt8>, y: Int) {
        guard let resampler else {
            if y < rows {
                writer.write(row: row, y: y)
                copied += 1
            }
            return
        }
        let w = writer
        resampler.consume(UnsafeRawPointer(row), bytesPerRow: 0, count: 1) { oy, out in
            w.write(row: out.baseAddress!, y: oy)
        }
    }
}
