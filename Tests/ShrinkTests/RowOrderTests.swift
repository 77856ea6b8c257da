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

    func readRows(startingAt row: Int, into buffer: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int) throws(ImageError) -> Int {
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

    @Test(arguments: [ThumbnailTarget.maxPixelSize(37), .original, .box(PixelSize(width: 50, height: 50), fit: .cover),
                      .box(PixelSize(width: 50, height: 10), fit: .cover)])
    func rowsAreRequestedStrictlyTopToBottom(_ target: ThumbnailTarget) throws {
        let size = PixelSize(width: 120, height: 400)
        let decoder = RecordingDecoder(size: size)
        let p = try plan(size, target)
        let image = try RowRenderer.render(p, from: decoder)
        #expect(image.size == p.outputSize)
        #expect(decoder.finished)
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
        #expect(decoder.nextRow < 560)
        #expect(decoder.finished)
    }
}
