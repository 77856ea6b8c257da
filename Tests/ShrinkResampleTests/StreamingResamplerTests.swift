import Testing
import ShrinkCore
import ShrinkResample
import ShrinkTestSupport
#if canImport(Glibc)
    import Glibc
#endif

@Suite struct StreamingResamplerTests {
    /// Feeds `input` in strips of `strip` rows and collects the output, checking rows come once, in order.
    func run(
        _ input: PixelBuffer, to size: PixelSize, region: FractionalRect? = nil, strip: Int = 5,
        kernel: ResampleKernel = .lanczos3
    ) -> PixelBuffer {
        let c = input.format.channels
        let r = StreamingResampler(
            inputSize: input.size, format: input.format, outputSize: size, region: region, kernel: kernel)
        var out = [UInt8](repeating: 0, count: size.width * size.height * c)
        var expectedRow = 0
        input.bytes.withUnsafeBufferPointer { src in
            var y = 0
            while y < input.size.height {
                let n = min(strip, input.size.height - y)
                r.consume(src.baseAddress! + y * input.bytesPerRow, bytesPerRow: input.bytesPerRow, count: n) {
                    oy, row in
                    #expect(oy == expectedRow)
                    expectedRow += 1
                    for i in 0..<row.count { out[oy * size.width * c + i] = row[i] }
                }
                y += n
            }
        }
        #expect(r.isComplete)
        return PixelBuffer(format: input.format, size: size, bytes: out)
    }

    /// One channel of the test pattern as a gray8 plane.
    func plane(_ size: PixelSize, channel: Int) -> PixelBuffer {
        let color = TestImages.pattern(width: size.width, height: size.height)
        let c = color.format.channels
        return PixelBuffer(
            format: .gray8, size: size, bytes: (0..<size.width * size.height).map { color.bytes[$0 * c + channel] })
    }

    /// A direct, non-streaming Lanczos-3 (Pillow's weights) over the whole image in Double precision.
    func reference(_ input: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        func weights(_ inCount: Int, _ outCount: Int) -> [(Int, [Double])] {
            let scale = Double(inCount) / Double(outCount), fs = max(scale, 1), support = 3 * fs
            return (0..<outCount).map { i in
                let center = (Double(i) + 0.5) * scale
                let lo = max(Int(center - support + 0.5), 0), hi = min(Int(center + support + 0.5), inCount)
                var w = (lo..<hi).map { k -> Double in
                    let x = (Double(k) - center + 0.5) / fs
                    if x == 0 { return 1 }
                    if abs(x) >= 3 { return 0 }
                    return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
                }
                let total = w.reduce(0, +)
                w = w.map { $0 / total }
                return (lo, w)
            }
        }
        let c = input.format.channels, wx = weights(input.size.width, size.width),
            wy = weights(input.size.height, size.height)
        var out = [UInt8](repeating: 0, count: size.width * size.height * c)
        for y in 0..<size.height {
            for x in 0..<size.width {
                for ch in 0..<c {
                    var s = 0.0
                    for (j, vy) in wy[y].1.enumerated() {
                        for (k, vx) in wx[x].1.enumerated() {
                            s +=
                                vy * vx * Double(input.bytes[((wy[y].0 + j) * input.size.width + wx[x].0 + k) * c + ch])
                        }
                    }
                    out[(y * size.width + x) * c + ch] = UInt8(max(0, min(255, (s + 0.5).rounded(.down))))
                }
            }
        }
        return PixelBuffer(format: input.format, size: size, bytes: out)
    }

    @Test(arguments: [
        (PixelSize(width: 40, height: 30), PixelSize(width: 17, height: 13)),
        (PixelSize(width: 33, height: 50), PixelSize(width: 15, height: 21)),
        (PixelSize(width: 20, height: 20), PixelSize(width: 31, height: 9)),
    ])
    func matchesDirectLanczos(_ from: PixelSize, _ to: PixelSize) {
        let input = TestImages.pattern(width: from.width, height: from.height)
        let ours = run(input, to: to)
        let ref = reference(input, to: to)
        #expect(PixelOps.maxDifference(ours, ref) <= 1)
    }

    /// One channel (gray, and each YUV plane) convolves whole 8-lane windows where the row has the floats and
    /// tap by tap at the right edge: both must match the direct convolution.
    @Test(arguments: [
        (PixelSize(width: 40, height: 30), PixelSize(width: 17, height: 13)),
        (PixelSize(width: 200, height: 150), PixelSize(width: 71, height: 55)),
        (PixelSize(width: 97, height: 61), PixelSize(width: 40, height: 23)),
        (PixelSize(width: 20, height: 20), PixelSize(width: 31, height: 9)),
    ])
    func matchesDirectLanczosOnOneChannel(_ from: PixelSize, _ to: PixelSize) {
        let input = plane(from, channel: 1)
        let ours = run(input, to: to, strip: 3)
        let ref = reference(input, to: to)
        #expect(PixelOps.maxDifference(ours, ref) <= 1)
        // A second resampler of the same geometry takes its weights from the shared cache: same pixels.
        #expect(run(input, to: to).bytes == ours.bytes)
    }

    /// The chroma kernel stands for what an RGB image's chroma goes through on its way to a 4:2:0 JPEG: Lanczos-3 to
    /// the luma's size, then 2×2 boxes (the encoder's subsampling). Made both ways from the same plane, the two
    /// agree closely, and much more closely than plain Lanczos-3 to the chroma's size does.
    @Test(arguments: [
        (PixelSize(width: 200, height: 150), PixelSize(width: 50, height: 37)),
        (PixelSize(width: 256, height: 192), PixelSize(width: 100, height: 75)),
        (PixelSize(width: 204, height: 153), PixelSize(width: 100, height: 75)),
        (PixelSize(width: 97, height: 61), PixelSize(width: 80, height: 50)),
    ])
    func subsampledKernelMatchesLanczosToLumaSizeThenTheEncodersBox(_ from: PixelSize, _ to: PixelSize) {
        let plane = plane(from, channel: 2)
        let luma = run(plane, to: PixelSize(width: to.width * 2, height: to.height * 2))
        var boxed = [UInt8](repeating: 0, count: to.width * to.height)
        for y in 0..<to.height {
            for x in 0..<to.width {
                let at = { (dx: Int, dy: Int) in Int(luma.bytes[(2 * y + dy) * luma.size.width + 2 * x + dx]) }
                boxed[y * to.width + x] = UInt8((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4)
            }
        }
        let expected = PixelBuffer(format: .gray8, size: to, bytes: boxed)
        func meanDifference(_ a: PixelBuffer) -> Double {
            Double(zip(a.bytes, expected.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(boxed.count)
        }
        let subsampled = run(plane, to: to, strip: 7, kernel: .subsampledLanczos3)
        let plain = run(plane, to: to, strip: 7)
        #expect(PixelOps.maxDifference(subsampled, expected) <= 2)
        #expect(meanDifference(subsampled) <= 0.1)
        #expect(meanDifference(subsampled) * 3 <= meanDifference(plain), "plain \(meanDifference(plain))")
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100, 255, 256, 300])
    func constantStaysConstantWithNoBlackEdges(_ n: Int) {
        let input = PixelBuffer(
            format: .rgb8, size: PixelSize(width: 301, height: 257),
            bytes: [UInt8](repeating: 200, count: 301 * 257 * 3))
        let size = PixelSize(width: n, height: max(1, n * 257 / 301))
        let out = run(input, to: size, strip: 16)
        #expect(out.bytes.allSatisfy { $0 == 200 }, "\(n): every sample must stay 200")
    }

    @Test func largeReductionUsesTheBoxStageAndStaysAccurate() {
        // 1000 px ramp to 10 px: box pre-shrink (factor 33) then Lanczos. The mean of each output pixel's
        // source span is the expected value of a linear ramp.
        let w = 1000, h = 20
        var bytes = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { bytes[y * w + x] = UInt8(x * 255 / (w - 1)) } }
        let out = run(
            PixelBuffer(format: .gray8, size: PixelSize(width: w, height: h), bytes: bytes),
            to: PixelSize(width: 10, height: 1))
        for x in 1..<9 {
            let expected = (Double(x) + 0.5) * 100 * 255 / 999
            #expect(abs(Double(out.bytes[x]) - expected) <= 2, "pixel \(x): \(out.bytes[x]) vs \(expected)")
        }
    }

    /// Box blocks whose premultiplied sums pass 32 bits (800 px to 1: blocks of 266 × 266 pixels, colour × alpha
    /// up to 65,025 each) are summed in 64 bits: a flat colour stays exactly that colour, in 8 and 16 bits.
    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func hugeBlocksDoNotOverflow(_ format: PixelFormat) {
        let n = 800
        let pixel: [UInt8] = format == .rgba16 ? [200, 200, 100, 100, 50, 50, 255, 255] : [200, 100, 50, 255]
        let row = [[UInt8]](repeating: pixel, count: n).flatMap { $0 }
        let bytes = [[UInt8]](repeating: row, count: n).flatMap { $0 }
        let r = StreamingResampler(
            inputSize: PixelSize(width: n, height: n), format: format, outputSize: PixelSize(width: 1, height: 1))
        var out: [UInt8] = []
        bytes.withUnsafeBytes { src in
            r.consume(src.baseAddress!, bytesPerRow: n * format.bytesPerPixel, count: n) { _, row in out = Array(row) }
        }
        #expect(out == [200, 100, 50, 255])
    }

    @Test func regionSelectsACentreCrop() {
        // A left half of 50 and right half of 250: resampling only the right half gives 250 everywhere.
        let w = 100, h = 10
        var bytes = [UInt8](repeating: 50, count: w * h)
        for y in 0..<h { for x in 50..<w { bytes[y * w + x] = 250 } }
        let input = PixelBuffer(format: .gray8, size: PixelSize(width: w, height: h), bytes: bytes)
        let out = run(
            input, to: PixelSize(width: 10, height: 5), region: FractionalRect(x: 60, y: 0, width: 40, height: 10))
        #expect(out.bytes.allSatisfy { $0 == 250 })
        let r = StreamingResampler(
            inputSize: PixelSize(width: 10, height: 1000), format: .gray8,
            outputSize: PixelSize(width: 10, height: 10),
            region: FractionalRect(x: 0, y: 0, width: 10, height: 100))
        // Only the top 100 rows plus the filter's reach (3 × the 10× reduction) are needed.
        #expect(r.lastInputRowNeeded >= 99 && r.lastInputRowNeeded <= 130)
    }
}

@Suite struct ResamplerMemoryTests {
    /// The prediction made without building a resampler covers what one built holds, for every format,
    /// reductions and enlargements, with and without a fractional region (a crop): 400 random geometries.
    @Test func predictionCoversWhatAResamplerHolds() {
        var g = SeededGenerator(state: 17)
        for _ in 0..<400 {
            let input = PixelSize(
                width: Int.random(in: 1...3000, using: &g), height: Int.random(in: 1...2000, using: &g))
            let output = PixelSize(
                width: Int.random(in: 1...max(1, min(900, input.width * 2)), using: &g),
                height: Int.random(in: 1...max(1, min(900, input.height * 2)), using: &g))
            var region: FractionalRect?
            if Bool.random(using: &g) {
                let w = Double.random(in: 0.01...Double(input.width), using: &g),
                    h = Double.random(in: 0.01...Double(input.height), using: &g)
                region = FractionalRect(
                    x: Double.random(in: 0...(Double(input.width) - w), using: &g),
                    y: Double.random(in: 0...(Double(input.height) - h), using: &g), width: w, height: h)
            }
            for (format, kernel) in [
                (PixelFormat.gray8, ResampleKernel.lanczos3), (.gray8, .subsampledLanczos3), (.rgb8, .lanczos3),
                (.rgba8, .lanczos3), (.rgba16, .lanczos3),
            ] {
                let r = StreamingResampler(
                    inputSize: input, format: format, outputSize: output, region: region, kernel: kernel)
                let predicted = StreamingResampler.predictedBytes(
                    inputSize: input, format: format, outputSize: output, region: region, kernel: kernel)
                #expect(
                    predicted >= r.workingBytes,
                    "\(format) \(kernel) \(input) -> \(output) over \(String(describing: region))")
            }
        }
    }

    /// A narrow crop of a wide plane: the one-channel ring holds the columns the crop reads, not the plane's width.
    @Test func aCropsRingHoldsOnlyTheColumnsItReads() {
        // 6000x1000 to 60x300 filling the box: a 200-pixel-wide centre column of the plane.
        let crop = StreamingResampler(
            inputSize: PixelSize(width: 6000, height: 1000), format: .gray8,
            outputSize: PixelSize(width: 60, height: 300),
            region: FractionalRect(x: 2900, y: 0, width: 200, height: 1000))
        // 21 rows of about 222 columns (the crop and the filter's reach), not 21 of 6000.
        #expect(crop.workingBytes < 21 * 300 * 4 + 40_000, "\(crop.workingBytes)")
    }

    /// One channel filters vertically first, so its ring holds rows of the input's width; colour filters
    /// horizontally first and its ring holds rows of the output's width.
    @Test func oneChannelFiltersVerticallyFirstColorHorizontally() {
        let gray = StreamingResampler(
            inputSize: PixelSize(width: 1000, height: 750), format: .gray8,
            outputSize: PixelSize(width: 400, height: 300))
        let rgb = StreamingResampler(
            inputSize: PixelSize(width: 1000, height: 750), format: .rgb8,
            outputSize: PixelSize(width: 400, height: 300))
        #expect(gray.order == .verticalFirst)
        #expect(rgb.order == .horizontalFirst)
        // 17 taps for a 2.5x reduction: 17 rows of 1000 floats against 17 rows of 400 three-float pixels; the
        // weight tables (24 floats and a start and count per output sample, 80 kB) and two rows besides.
        #expect(
            gray.workingBytes >= 17 * 1000 * 4 && gray.workingBytes < 17 * 1000 * 4 + 100_000, "\(gray.workingBytes)")
        #expect(
            rgb.workingBytes >= 17 * 400 * 3 * 4 && rgb.workingBytes < 17 * 400 * 3 * 4 + 100_000, "\(rgb.workingBytes)"
        )
        // The prediction made without building one is what a built one holds, give or take its array headers.
        for (r, format) in [(gray, PixelFormat.gray8), (rgb, .rgb8)] {
            let predicted = StreamingResampler.predictedBytes(
                inputSize: r.inputSize, format: format, outputSize: r.outputSize)
            #expect(
                predicted >= r.workingBytes - 1024 && predicted <= r.workingBytes + 4096,
                "\(format): \(predicted) vs \(r.workingBytes)")
        }
    }

    @Test func workingMemoryDoesNotGrowWithInputHeight() {
        // O(width × taps): a 100× taller input of the same width needs the same working memory.
        let short = StreamingResampler(
            inputSize: PixelSize(width: 1280, height: 600), format: .rgb8,
            outputSize: PixelSize(width: 400, height: 188))
        let tall = StreamingResampler(
            inputSize: PixelSize(width: 1280, height: 60_000), format: .rgb8,
            outputSize: PixelSize(width: 400, height: 188))
        #expect(tall.workingBytes < short.workingBytes + 188 * 16 * 100)
        // And it is a few rows of the output width, not an image.
        #expect(short.workingBytes < 1_280 * 3 * 4 * 24)
    }
}
