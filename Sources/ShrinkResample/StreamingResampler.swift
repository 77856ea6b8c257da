import CShrinkResample
import ShrinkCore

/// Resizes a stream of interleaved rows (gray8, rgb8, rgba8 or rgba16), given top to bottom, to an output
/// size, emitting 8-bit output rows as soon as their inputs have arrived: an integer box pre-shrink for large
/// reductions, then a separable convolution (Lanczos-3, or a ``ResampleKernel``) over a ring buffer of rows (see ``Order``: one-channel
/// planes are filtered vertically first, colour horizontally first). Everything between input and output is
/// float, so 16-bit sources reduce in full precision; alpha is premultiplied before any reduction and
/// un-premultiplied after (no dark fringes).
///
/// Memory: O(width × taps), never O(width × height): the box accumulator, a ring of `taps` float rows (for one
/// channel, of the box columns the horizontal windows read — a crop's, and the filter's reach; for colour, of
/// the output width), one row between the passes, and the weight tables. A source `region` (fractional, in
/// input pixels) selects what is resampled, which is how centre crops (fit `cover`) are made without a
/// full-size intermediate.
///
/// ```swift
/// let r = StreamingResampler(inputSize: PixelSize(width: 960, height: 400), format: .rgb8,
///                            outputSize: PixelSize(width: 400, height: 167))
/// r.consume(rows, bytesPerRow: 960 * 3, count: 16) { y, row in /* store output row y */ }
/// ```
package final class StreamingResampler {
    /// Reductions larger than `boxGap ×` start with an integer box shrink that leaves at least this
    /// factor to the Lanczos stage.
    package static let boxGap = 3.0

    package let inputSize: PixelSize
    /// The layout of input rows; output rows have the same channels, 8 bits each.
    package let format: PixelFormat
    package let channels: Int
    /// Output rows carry 16-bit samples (host order, 0–65535) instead of 8-bit ones.
    package let sixteenBitOutput: Bool
    package let outputSize: PixelSize
    /// The next input row ``consume(_:bytesPerRow:count:emit:)`` expects.
    package private(set) var nextInputRow = 0
    /// The next output row to be emitted; equals `outputSize.height` when done.
    package private(set) var nextOutputRow = 0
    /// The last input row any output row depends on: a decoder may stop after it.
    package let lastInputRowNeeded: Int

    /// Which pass runs on the rows as they arrive. Both orders make the same multiply-adds of a reduction;
    /// they differ in which loop does the larger part (the pass over the taller input).
    package enum Order: Sendable {
        /// One channel: the ring holds the box rows (the columns the windows read) and each output row is filtered down
        /// its columns (plain vector multiply-adds, 32 columns at a time), then across (a dot product per output
        /// sample, once per output row instead of once per input row): the cheaper order for one channel
        /// (BENCHMARKS.md, "Figures behind the code").
        case verticalFirst
        /// Colour: each arriving row is filtered across (all channels of a pixel in one 4-lane multiply-add per tap, as
        /// efficient as the vertical pass) and the ring holds rows of the output width — a third to a sixth of the box
        /// width's memory; also the faster order for colour (BENCHMARKS.md, "Figures behind the code").
        case horizontalFirst

        init(channels: Int) { self = channels == 1 ? .verticalFirst : .horizontalFirst }
    }

    /// The order of the two passes.
    package let order: Order

    private var box: BoxShrink
    private let horizontal: FilterWeights
    private let vertical: FilterWeights
    /// The horizontal windows' starts, relative to the first box column any of them reads: the box stage makes
    /// only the `spanWidth` columns from there.
    private let horizontalStart: [Int]
    private let spanWidth: Int
    /// `ringRows` rows, `rowFloats` apart, the vertical windows of the output rows to come: box rows
    /// (vertical first) or box rows filtered across (horizontal first).
    private var ring: [Float]
    private let ringRows: Int
    private let rowFloats: Int
    /// The row between the passes, then zeros (a window may be read as whole vectors): an output row filtered
    /// down the span's columns (vertical first) or the box row being filtered across (horizontal first).
    private var between: [Float]
    /// One output row filtered both ways.
    private var accumulator: [Float]
    private var outputRow: [UInt8]

    /// A resampler from `inputSize` to `outputSize` over `region` of the input (the whole input by default).
    package init(
        inputSize: PixelSize, format: PixelFormat, outputSize: PixelSize, region: FractionalRect? = nil,
        sixteenBitOutput: Bool = false, kernel: ResampleKernel = .lanczos3
    ) {
        precondition(inputSize.width > 0 && inputSize.height > 0 && outputSize.width > 0 && outputSize.height > 0)
        precondition([.gray8, .rgb8, .rgba8, .rgba16].contains(format), "unsupported resampler input \(format)")
        self.inputSize = inputSize
        self.format = format
        self.channels = format.channels
        self.sixteenBitOutput = sixteenBitOutput
        self.outputSize = outputSize
        let region = region ?? FractionalRect(inputSize)
        let (factorX, factorY) = Self.boxFactors(region: region, outputSize: outputSize)
        horizontal = FilterWeightsCache.weights(
            inputCount: BoxShrink.blocks(inputSize.width, factor: factorX),
            from: region.x / Double(factorX),
            to: (region.x + region.width) / Double(factorX), outputCount: outputSize.width, kernel: kernel)
        vertical = FilterWeightsCache.weights(
            inputCount: BoxShrink.blocks(inputSize.height, factor: factorY),
            from: region.y / Double(factorY),
            to: (region.y + region.height) / Double(factorY), outputCount: outputSize.height, kernel: kernel)
        ringRows = vertical.maxTaps
        // Only the box columns some horizontal window reads are made: a crop's, and the filter's reach.
        let first = horizontal.start.min() ?? 0
        spanWidth = horizontal.lastInputNeeded + 1 - first
        horizontalStart = horizontal.start.map { $0 - first }
        box = BoxShrink(
            inputWidth: inputSize.width, inputHeight: inputSize.height, format: format,
            factorX: factorX, factorY: factorY, columns: first..<first + spanWidth)
        order = Order(channels: channels)
        rowFloats = (order == .verticalFirst ? spanWidth : outputSize.width) * channels
        ring = [Float](repeating: 0, count: ringRows * rowFloats)
        between = [Float](
            repeating: 0, count: Self.betweenFloats(spanWidth: spanWidth, channels: channels, stride: horizontal.stride)
        )
        accumulator = [Float](repeating: 0, count: outputSize.width * channels)
        outputRow = [UInt8](repeating: 0, count: outputSize.width * channels * (sixteenBitOutput ? 2 : 1))
        lastInputRowNeeded = min(inputSize.height - 1, (vertical.lastInputNeeded + 1) * factorY - 1)
    }

    /// The box stage's factors across and down for `region` to `outputSize`: reductions larger than
    /// ``boxGap`` × start with blocks that leave at least that much to the Lanczos stage (1: no box).
    private static func boxFactors(region: FractionalRect, outputSize: PixelSize) -> (x: Int, y: Int) {
        (
            max(1, Int(region.width / Double(outputSize.width) / boxGap)),
            max(1, Int(region.height / Double(outputSize.height) / boxGap))
        )
    }

    /// Floats of the row between the passes (the span's columns, filtered down or not yet filtered across),
    /// then room for a horizontal window of `stride` floats read whole from any start, and for a 4-lane read of
    /// the last RGB pixel, which passes its end by one.
    private static func betweenFloats(spanWidth: Int, channels: Int, stride: Int) -> Int {
        spanWidth * channels + max(stride, 4)
    }

    /// At most how many box columns the horizontal windows of a resample read: the region's, plus the
    /// filter's reach (`support` box pixels) on each side, plus rounding; never more than the box row.
    private static func spanBound(boxWidth: Int, regionWidth: Double, support: Double) -> Int {
        min(boxWidth, Int(regionWidth.rounded(.up)) + 2 * Int(support.rounded(.up)) + 3)
    }

    /// Bytes a resampler from `inputSize` to `outputSize` over `region` would hold, predicted without
    /// building it: the ring of float rows (taps × the columns the windows read for one channel, × the output
    /// width otherwise), the row between the passes (those columns), the output float row, the output row
    /// itself and, when a box pre-shrink runs, its integer sums; the filter weights of both axes (per output
    /// sample: a start, a count and one float per tap) and the shifted horizontal starts.
    package static func predictedBytes(
        inputSize: PixelSize, format: PixelFormat, outputSize: PixelSize, region: FractionalRect? = nil,
        kernel: ResampleKernel = .lanczos3
    ) -> Int {
        let region = region ?? FractionalRect(inputSize)
        let c = format.channels
        let (fx, fy) = boxFactors(region: region, outputSize: outputSize)
        let scaleX = region.width / Double(fx) / Double(outputSize.width)
        let scaleY = region.height / Double(fy) / Double(outputSize.height)
        let supportX = kernel.support(scale: scaleX)
        let tapsX = Int(supportX.rounded(.up)) * 2 + 1
        let taps = Int(kernel.support(scale: scaleY).rounded(.up)) * 2 + 1
        let span = spanBound(
            boxWidth: BoxShrink.blocks(inputSize.width, factor: fx), regionWidth: region.width / Double(fx),
            support: supportX)
        let ringWidth = Order(channels: c) == .verticalFirst ? span : outputSize.width
        let floats =
            taps * ringWidth * c + betweenFloats(spanWidth: span, channels: c, stride: (tapsX + 7) / 8 * 8)
            + outputSize.width * c
        let outputRow = outputSize.width * c * 2 // 16-bit output at most
        let box = BoxShrink.predictedBytes(
            inputWidth: min(inputSize.width, span * fx), format: format, factorX: fx, factorY: fy)
        let weights =
            outputSize.width * (24 + 4 * ((tapsX + 7) / 8 * 8)) + outputSize.height * (16 + 4 * ((taps + 7) / 8 * 8))
        return floats * 4 + outputRow + box + weights
    }

    /// True once every output row has been emitted.
    package var isComplete: Bool { nextOutputRow == outputSize.height }

    /// Bytes of working memory this resampler holds (ring, accumulators, weight tables).
    package var workingBytes: Int {
        (ring.count + between.count + accumulator.count) * 4 + box.workingBytes
            + outputRow.count
            + (horizontal.weights.count + vertical.weights.count) * 4
            + (horizontal.start.count + vertical.start.count) * 16 + horizontalStart.count * 8
    }

    /// Feeds `count` input rows starting at ``nextInputRow`` (`bytesPerRow` apart) and calls `emit` with each
    /// output row (index, `outputSize.width × channels` samples of 1 or 2 bytes) that becomes complete. Rows after
    /// ``lastInputRowNeeded`` are ignored.
    package func consume(
        _ rows: UnsafeRawPointer, bytesPerRow: Int, count: Int,
        emit: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        for i in 0..<count {
            let y = nextInputRow
            nextInputRow += 1
            guard !isComplete, y <= lastInputRowNeeded else { continue }
            // A box row below the current output window's start is never needed again: skip its work. A
            // completed box row goes straight into its ring slot (vertical first) or is filtered across into it.
            let boxRow = y / box.factorY
            let needed = boxRow >= vertical.start[nextOutputRow]
            let slot = (boxRow % ringRows) * rowFloats
            let completed: Int?
            switch order {
            case .verticalFirst:
                completed = ring.withUnsafeMutableBufferPointer { ring in
                    box.add(row: rows + i * bytesPerRow, y: y, accumulate: needed, into: ring.baseAddress! + slot)
                }
            case .horizontalFirst:
                completed = between.withUnsafeMutableBufferPointer { between in
                    box.add(row: rows + i * bytesPerRow, y: y, accumulate: needed, into: between.baseAddress!)
                }
                if completed != nil, needed { filterAcross(into: slot) }
            }
            guard let completed, needed else { continue }
            emitRows(through: completed, emit: emit)
        }
    }

    /// Horizontal first: the box row in ``between`` filtered across into the ring at float `slot`.
    private func filterAcross(into slot: Int) {
        between.withUnsafeBufferPointer { input in
            ring.withUnsafeMutableBufferPointer { ring in
                horizontal.weights.withUnsafeBufferPointer { w in
                    Self.convolveRow(
                        input.baseAddress!, count: input.count, into: ring.baseAddress! + slot, channels: channels,
                        outputWidth: outputSize.width, start: horizontalStart, count: horizontal.count,
                        weights: w.baseAddress!, stride: horizontal.stride)
                }
            }
        }
    }

    /// Emits every output row whose vertical window ends at or before box row `r`.
    private func emitRows(through r: Int, emit: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        while nextOutputRow < outputSize.height,
            vertical.start[nextOutputRow] + vertical.count[nextOutputRow] - 1 <= r
        {
            let y = nextOutputRow
            filterRow(y)
            outputRow.withUnsafeBufferPointer { emit(y, $0) }
            nextOutputRow += 1
        }
    }

    /// Output row `y` from its window's ring rows: vertical first, filtered down the span's columns into
    /// ``between`` and across that; horizontal first, filtered down the ring's columns. Then 8 or 16 bits.
    private func filterRow(_ y: Int) {
        let c = channels, taps = vertical.stride
        accumulator.withUnsafeMutableBufferPointer { acc in
            ring.withUnsafeBufferPointer { ring in
                vertical.weights.withUnsafeBufferPointer { w in
                    switch order {
                    case .verticalFirst:
                        between.withUnsafeMutableBufferPointer { between in
                            shrink_resample_columns(
                                ring.baseAddress!, ringRows, rowFloats, spanWidth * c,
                                vertical.start[y], vertical.count[y], w.baseAddress! + y * taps,
                                between.baseAddress!)
                            horizontal.weights.withUnsafeBufferPointer { hw in
                                Self.convolveRow(
                                    between.baseAddress!, count: between.count, into: acc.baseAddress!, channels: c,
                                    outputWidth: outputSize.width, start: horizontalStart, count: horizontal.count,
                                    weights: hw.baseAddress!, stride: horizontal.stride)
                            }
                        }
                    case .horizontalFirst:
                        shrink_resample_columns(
                            ring.baseAddress!, ringRows, rowFloats, rowFloats, vertical.start[y],
                            vertical.count[y], w.baseAddress! + y * taps, acc.baseAddress!)
                    }
                }
            }
            outputRow.withUnsafeMutableBufferPointer { out in
                Self.quantize(
                    acc.baseAddress!, width: outputSize.width * c, into: out.baseAddress!,
                    unpremultiplyEvery: box.premultiplies ? c : 0, sixteenBit: sixteenBitOutput)
            }
        }
    }

    /// Horizontal pass over one float row of `inputCount` floats (padding included: colour pixels are read as
    /// 4-lane vectors). One channel: `shrink_resample_row1`, each window as whole 8-lane vectors (its weights
    /// are zero past the window) where the row has the floats, else tap by tap.
    private static func convolveRow(
        _ input: UnsafePointer<Float>, count inputCount: Int, into out: UnsafeMutablePointer<Float>,
        channels: Int, outputWidth: Int, start: [Int], count: [Int], weights: UnsafePointer<Float>,
        stride taps: Int
    ) {
        start.withUnsafeBufferPointer { start in
            count.withUnsafeBufferPointer { count in
                switch channels {
                case 1:
                    // In C, built for AVX2 too (8-float vectors where the CPU has them, 4 otherwise).
                    shrink_resample_row1(
                        input, inputCount, out, outputWidth, start.baseAddress!, count.baseAddress!,
                        weights, taps)
                case 3, 4:
                    // In C: one 4-lane multiply-add per tap; for RGB the fourth lane is the next pixel's red, ignored.
                    shrink_resample_row4(
                        input, inputCount, out, outputWidth, channels, start.baseAddress!, count.baseAddress!, weights,
                        taps)
                default:
                    for x in 0..<outputWidth {
                        let w = weights + x * taps, p = input + start[x] * channels
                        for c in 0..<channels {
                            var s: Float = 0
                            for k in 0..<count[x] { s += w[k] * p[k * channels + c] }
                            out[x * channels + c] = s
                        }
                    }
                }
            }
        }
    }

    /// A filtered row rounded and clamped to 8 bits (or 16); with alpha (`unpremultiplyEvery` = channels),
    /// colour is divided by alpha again first (0 where alpha rounds to 0).
    private static func quantize(
        _ acc: UnsafeMutablePointer<Float>, width: Int, into output: UnsafeMutablePointer<UInt8>,
        unpremultiplyEvery c: Int, sixteenBit: Bool
    ) {
        if c > 0 {
            var i = 0
            while i < width {
                let a = acc[i + c - 1]
                let scale: Float = a < 0.5 ? 0 : 255 / a
                for k in 0..<(c - 1) { acc[i + k] *= scale }
                i += c
            }
        }
        if sixteenBit {
            // The float scale is 0–255 with fractions: × 257 gives 0–65535 at full precision.
            let wide = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt16.self)
            for i in 0..<width {
                let v = acc[i] * 257 + 0.5
                wide[i] = v <= 0 ? 0 : v >= 65535 ? 65535 : UInt16(v)
            }
            return
        }
        shrink_resample_quantize8(acc, width, output)
    }
}
