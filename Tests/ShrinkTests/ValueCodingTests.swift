import Foundation
import Shrink
import Testing

/// Sizes, regions and targets travel in JSON (an app's API, a job queue) and come back equal.
@Suite struct ValueCodingTests {
    @Test func sizesRegionsAndTargetsRoundTripThroughJSON() throws {
        let size = PixelSize(width: 640, height: 480)
        let rect = PixelRect(x: 10, y: 20, width: 300, height: 200)
        let targets: [ThumbnailTarget] = [
            .original, .maxPixelSize(256), .box(size, fit: .cover), .box(size, fit: .inside), .prescale(8),
        ]
        let json = try JSONEncoder().encode(size)
        #expect(String(decoding: json, as: UTF8.self).contains("\"width\":640"))
        #expect(try JSONDecoder().decode(PixelSize.self, from: json) == size)
        #expect(try JSONDecoder().decode(PixelRect.self, from: JSONEncoder().encode(rect)) == rect)
        #expect(try JSONDecoder().decode([ThumbnailTarget].self, from: JSONEncoder().encode(targets)) == targets)
        #expect(try JSONDecoder().decode(ThumbnailTarget.Fit.self, from: Data("\"cover\"".utf8)) == .cover)
    }
}
