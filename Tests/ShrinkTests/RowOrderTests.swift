import Testing
import Shrink
import ShrinkTestSupport

/// A decoder of a synthetic gradient that records every row request.
final class RecordingDecoder: RowDecoding {
    let size: PixelSize
    let format = PixelFormat.gray8
    private(set) var nextRow = 0
    private(set) var requests: [Int] = []
    private(set) var finished = false

    init(size: PixelSize) { self.size = size }

    func readRows(startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(ImageError) -> Int
    {
        requests.append(row)
        guard row == nextRow else { throw ImageError(.invalidArgument, "out of order: \(row), next \(nextRow)") }
        let n = min(maxRows, size.height - row)
        for i in 0..<n {
            let p = buffer.assumingMemoryBound(to: UInt8.self) + i * bytesPerRow
            for x in 0..<size.width { p[x] = UInt8((row + i) % 200 + 30) }
        }
        nextRow += n
        return n
    }

    func finish() throws(ImageError) { finished = true }
}

@Suite struct RowOrderTests {
    func plan(_ size: PixelSize, _ target: ThumbnailTarget) throws -> ThumbnailPlan {
        let info = ImageInfo(format: .jpeg, size: size, colorModel: .gray)
        return try ThumbnailPlan(info: info, target: target, options: ThumbnailOptions(), prescales: [1]) { _ in size }
    }

    @Test(arguments: [
        ThumbnailTarget.maxPixelSize(37), .original, .box(PixelSize(width: 50, height: 50), fit: .cover),
        .box(PixelSize(width: 50, height: 10), fit: .cover),
    ])
    func rowsAreRequestedStrictlyTopToBottom(_ target: ThumbnailTarget) throws {
        let size = PixelSize(width: 120, height: 400)
        let decoder = RecordingDecoder(size: size)
        let p = try plan(size, target)
        let image = try RowRenderer.render(p, from: decoder)
        #expect(image.size == p.outputSize)
        #expect(decoder.finished)
        #expect(!decoder.requests.isEmpty)
        // The gradient's value at source row y is y % 200 + 30 in every column. An output row y samples the
        // source around c = top + (y + 0.5) · height / outputHeight − 0.5 (the region the plan keeps: the whole
        // image, or a cover crop centred vertically). Where the filter's reach (3 source rows per output row,
        // and one more) neither leaves the image nor crosses the wrap from 229 to 30, a linear ramp resamples
        // to its own value at c, within rounding.
        let out = image.size
        var top = 0.0, height = Double(size.height)
        if case .box(let box, .cover) = target {
            let scale = max(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
            height = min(Double(size.height), Double(box.height) / scale)
            top = (Double(size.height) - height) / 2
        }
        let step = height / Double(out.height), reach = 3 * max(step, 1) + 1
        var checked = 0
        for y in 0..<out.height {
            let c = top + (Double(y) + 0.5) * step - 0.5
            guard c - reach >= 0, c + reach <= Double(size.height - 1), Int(c - reach) / 200 == Int(c + reach) / 200
            else { continue }
            let expected = c.truncatingRemainder(dividingBy: 200) + 30
            for x in 0..<out.width {
                let v = Double(image.bytes[y * out.width + x])
                #expect(abs(v - expected) <= 1, "\(target): (\(x), \(y)) is \(v), the ramp gives \(expected)")
            }
            checked += 1
        }
        #expect(checked >= 3, "\(target): \(checked) rows checked")
        if case .original = target {
            var gradient: [UInt8] = []
            for y in 0..<size.height { gradient += [UInt8](repeating: UInt8(y % 200 + 30), count: size.width) }
            #expect(image.bytes == gradient)
        }
        var expected = 0
        for r in decoder.requests {
            #expect(r == expected)
            expected = r + RowRenderer.stripRows
        }
    }

    @Test func decodingStopsAfterTheLastNeededRow() throws {
        // A wide cover crop of a tall image needs only the middle rows: the decoder is never asked past them.
        let size = PixelSize(width: 100, height: 1000)
        let decoder = RecordingDecoder(size: size)
        let p = try plan(size, .box(PixelSize(width: 100, height: 10), fit: .cover))
        _ = try RowRenderer.render(p, from: decoder)
        // The crop keeps rows 495..<505; the resampler reaches a few rows past them, a strip at a time.
        #expect(decoder.nextRow >= 505 && decoder.nextRow < 560, "\(decoder.nextRow)")
        #expect(decoder.finished)
    }
}
