import ShrinkCore
import ShrinkResample

/// Runs a plan: pulls rows from a decoder strictly top to bottom, resamples them as they arrive (when the
/// plan says so) and writes each finished row straight to its displayed position in the result.
///
/// Memory: the result buffer, one strip of decoded rows (`stripRows × decoded width`), and the resampler's
/// ring of rows. The decoder is stopped as soon as the rows the output needs have been read.
package enum RowRenderer {
    /// Rows decoded per call.
    package static let stripRows = 16

    /// Renders `plan` from `rows`, whose size must be the plan's decoded size, into `output` (gray8, rgb8
    /// or rgba8, rgba16 from rgba16 rows, or yuv420/nv12 converted row by row; the rows' own 8-bit format by
    /// default).
    /// With a `monitor`, a checkpoint runs after every strip: a cancelled decode stops there. `region` is the
    /// part of the decoded image to resample, when it is not ``ThumbnailPlan/decodedRegion`` (a codec whose
    /// scaler maps the source uniformly, see ``DecodeRoute/Geometry``).
    package static func render(
        _ plan: ThumbnailPlan, from rows: any RowDecoding, as output: PixelFormat? = nil,
        region explicitRegion: FractionalRect? = nil, monitor: DecodeMonitor? = nil
    ) throws(ImageError) -> PixelBuffer {
        // The region in the coordinates of what `rows` produces (it may decode only a window).
        let decodedRegion = explicitRegion ?? plan.decodedRegion
        let region = FractionalRect(
            x: decodedRegion.x - Double(rows.origin.x), y: decodedRegion.y - Double(rows.origin.y),
            width: decodedRegion.width, height: decodedRegion.height)
        let windowed = rows.origin != (0, 0) || rows.size != plan.decodedSize
        guard rows.origin.x + rows.size.width <= plan.decodedSize.width,
            rows.origin.y + rows.size.height <= plan.decodedSize.height,
            !windowed || plan.resamples
        else {
            throw ImageError(
                .invalidArgument,
                "decoder produces \(rows.size) at \(rows.origin), the plan expects \(plan.decodedSize)")
        }
        let output = output ?? RowConverter.eightBit(rows.format)
        let pixels = try PixelBuffer(format: output, size: plan.outputSize) { destination throws(ImageError) in
            let writer = OrientedWriter(
                destination: destination.baseAddress!, storedSize: plan.storedOutputSize,
                channels: output.bytesPerPixel, orientation: plan.orientation)
            if output.isPlanar {
                try renderYUV(
                    plan, from: rows, into: destination.baseAddress!, as: output, region: region, monitor: monitor)
            } else if !plan.resamples && plan.orientation == .up && rows.format == output {
                try decodeInPlace(
                    rows, into: destination.baseAddress!, bytesPerRow: plan.outputSize.width * output.bytesPerPixel,
                    monitor: monitor)
            } else if !plan.resamples {
                let converted = RowBuffer(format: rows.format, output: output, width: plan.storedOutputSize.width)
                try forEachStrip(of: rows, until: rows.size.height - 1, monitor: monitor) { strip, stride, count in
                    for i in 0..<count {
                        writer.write(row: converted.convert(strip + i * stride), y: rows.nextRow - count + i)
                    }
                }
            } else {
                // 16-bit rows stay 16-bit through the resampler when the result is rgba16.
                let wide = output == .rgba16 && rows.format == .rgba16
                let resampler = StreamingResampler(
                    inputSize: rows.size, format: rows.format,
                    outputSize: plan.storedOutputSize, region: region,
                    sixteenBitOutput: wide)
                let converted = RowBuffer(
                    format: wide ? .rgba16 : RowConverter.eightBit(rows.format), output: output,
                    width: plan.storedOutputSize.width)
                try forEachStrip(of: rows, until: resampler.lastInputRowNeeded, monitor: monitor) {
                    strip, stride, count in
                    resampler.consume(strip, bytesPerRow: stride, count: count) { y, row in
                        writer.write(row: converted.convert(UnsafeRawPointer(row.baseAddress!)), y: y)
                    }
                }
                guard resampler.isComplete else {
                    throw ImageError(
                        .truncated, "decoder stopped at row \(rows.nextRow) before the output was complete")
                }
            }
            try rows.finish()
        }
        return pixels
    }

    /// RGB rows (resampled when the plan says so) converted to YUV planes as they arrive.
    private static func renderYUV(
        _ plan: ThumbnailPlan, from rows: any RowDecoding, into destination: UnsafeMutablePointer<UInt8>,
        as output: PixelFormat, region: FractionalRect, monitor: DecodeMonitor?
    ) throws(ImageError) {
        let sink = YUVRowSink(
            destination: destination, format: output, displayedSize: plan.outputSize, orientation: plan.orientation)
        if plan.resamples {
            let resampler = StreamingResampler(
                inputSize: rows.size, format: rows.format,
                outputSize: plan.storedOutputSize, region: region)
            let rgb = RowBuffer(
                format: RowConverter.eightBit(rows.format), output: .rgb8, width: plan.storedOutputSize.width)
            try forEachStrip(of: rows, until: resampler.lastInputRowNeeded, monitor: monitor) { strip, stride, count in
                resampler.consume(strip, bytesPerRow: stride, count: count) { y, row in
                    sink.take(rgb.convert(UnsafeRawPointer(row.baseAddress!)), y: y)
                }
            }
            guard resampler.isComplete else {
                throw ImageError(.truncated, "decoder stopped at row \(rows.nextRow) before the output was complete")
            }
        } else {
            let rgb = RowBuffer(format: rows.format, output: .rgb8, width: plan.storedOutputSize.width)
            try forEachStrip(of: rows, until: rows.size.height - 1, monitor: monitor) { strip, stride, count in
                for i in 0..<count { sink.take(rgb.convert(strip + i * stride), y: rows.nextRow - count + i) }
            }
        }
    }

    private static func decodeInPlace(
        _ rows: any RowDecoding, into destination: UnsafeMutablePointer<UInt8>,
        bytesPerRow: Int, monitor: DecodeMonitor?
    ) throws(ImageError) {
        while rows.nextRow < rows.size.height {
            let row = rows.nextRow
            let n = try rows.readRows(
                startingAt: row, into: destination + row * bytesPerRow, bytesPerRow: bytesPerRow,
                maxRows: min(stripRows, rows.size.height - row))
            guard n > 0 else { throw ImageError(.truncated, "decoder produced no rows at row \(row)") }
            try monitor?.checkpoint(row: rows.nextRow)
        }
    }

    /// Reads strips of rows up to and including row `last`, handing each to `body` (strip, stride, count).
    private static func forEachStrip(
        of rows: any RowDecoding, until last: Int, monitor: DecodeMonitor?,
        _ body: (UnsafeRawPointer, Int, Int) -> Void
    ) throws(ImageError) {
        let stride = rows.format.byteCount(for: PixelSize(width: rows.size.width, height: 1))
        let strip = UnsafeMutableRawPointer.allocate(byteCount: stride * stripRows, alignment: 16)
        defer { strip.deallocate() }
        while rows.nextRow <= last {
            let row = rows.nextRow
            let n = try rows.readRows(
                startingAt: row, into: strip, bytesPerRow: stride,
                maxRows: min(stripRows, last + 1 - row))
            guard n > 0 else { throw ImageError(.truncated, "decoder produced no rows at row \(row)") }
            body(UnsafeRawPointer(strip), stride, n)
            try monitor?.checkpoint(row: rows.nextRow)
        }
    }
}
