import Foundation
import Testing
@testable import Shrink
import ShrinkTestSupport

@Suite struct ContactSheetTests {
    private static func solid(width: Int, height: Int, _ rgba: [UInt8], right: [UInt8]? = nil) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                bytes.replaceSubrange(
                    (y * width + x) * 4..<(y * width + x + 1) * 4, with: x >= width / 2 ? right ?? rgba : rgba)
            }
        }
        return PixelBuffer(format: .rgba8, size: PixelSize(width: width, height: height), bytes: bytes)
    }

    /// A sheet of a 4:2:0 JPEG, a gray JPEG and a PNG whose left half is transparent, with an odd gap: the
    /// sheet is written from yuv420 planes, so check where each photo landed and its colours, the alpha
    /// composited over the background, and the background itself.
    @Test func cellsLandCentredOnTheBackgroundWithAlphaComposited() async throws {
        let dir = NSTemporaryDirectory() + "shrink-sheet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let red = try TestImages.jpeg(
            PixelConverter.convert(Self.solid(width: 96, height: 64, [220, 30, 30, 255]), to: .rgb8),
            quality: 95, chroma444: false)
        let gray = try TestImages.jpeg(
            PixelConverter.convert(Self.solid(width: 40, height: 80, [90, 90, 90, 255]), to: .gray8))
        let png = try PNGEncoder().encode(Self.solid(width: 64, height: 64, [0, 0, 0, 0], right: [20, 40, 230, 255]))
        let paths = ["a.jpg", "b.jpg", "c.png"].map { dir + "/" + $0 }
        for (path, bytes) in zip(paths, [red, gray, png]) { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

        let layout = ContactSheet.Layout(cell: 32, columns: 3, gap: 3, background: (0, 128, 0))
        let sheet = ContactSheet(layout: layout, encoder: JPEGEncoder(options: .init(quality: 95)))
        let pipeline = ImagePipeline(
            configuration: .init(maxConcurrentDecodes: 2, memoryCache: sheet.memoryCacheConfiguration()))
        let summary = try await sheet.render(paths, to: dir + "/sheet.jpg", pipeline: pipeline)
        #expect(summary.shown == 3 && summary.failed == 0)
        #expect(summary.size == PixelSize(width: 3 * 32 + 4 * 3, height: 32 + 2 * 3))

        let image = try ImageSource(path: dir + "/sheet.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        ).pixels
        #expect(image.size == summary.size)
        func near(_ x: Int, _ y: Int, _ rgb: [Int], within tolerance: Int = 24, _ what: Comment) {
            let p = image.pixel(x: x, y: y).map(Int.init)
            #expect(
                zip(p, rgb).allSatisfy { abs($0 - $1) <= tolerance }, "\(what) at (\(x), \(y)): \(p), expected \(rgb)")
        }
        near(1, 1, [0, 128, 0], "background, top gap")
        near(54, 36, [0, 128, 0], "background, bottom gap")
        // Cell 0 (x 3..<35): the red photo fitted to 32×21, centred at rows 3 + 5 ..< 3 + 26.
        near(19, 19, [220, 30, 30], "red photo")
        near(19, 5, [0, 128, 0], "above the red photo")
        // Cell 1 (x 38..<70): the gray photo fitted to 16×32, centred at columns 38 + 8 ..< 38 + 24.
        near(54, 19, [90, 90, 90], "gray photo")
        near(42, 19, [0, 128, 0], "left of the gray photo")
        // Cell 2 (x 73..<105, placed from the even column 72): transparent left half shows the background.
        near(78, 19, [0, 128, 0], "transparent half")
        near(99, 19, [20, 40, 230], within: 30, "opaque half")
    }

    /// Three rows of cells with an odd cell and gap (bands of different heights, the last one odd), photos
    /// whose fitted width and height are odd: each lands in its cell in its colour, the gaps stay background,
    /// and the pixel past a photo's odd edge shows the photo's colour at half strength at most (its 4:2:0
    /// chroma sample is shared with the background and averaged with it).
    @Test func oddCellsAndGapsOverSeveralRows() async throws {
        let dir = NSTemporaryDirectory() + "shrink-sheet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let colors: [[UInt8]] = [[220, 30, 30], [30, 200, 40], [40, 60, 220], [230, 220, 40], [200, 40, 200]]
        var paths: [String] = []
        for (i, c) in colors.enumerated() {
            // 62 × 42 fits a 31 cell as 31 × 21: odd both ways.
            let rgb = PixelConverter.convert(Self.solid(width: 62, height: 42, c + [255]), to: .rgb8)
            let path = dir + "/p\(i).jpg"
            try Data(try TestImages.jpeg(rgb, quality: 95, chroma444: false)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let layout = ContactSheet.Layout(cell: 31, columns: 2, gap: 3, background: (128, 128, 128))
        let sheet = ContactSheet(layout: layout, encoder: JPEGEncoder(options: .init(quality: 95)))
        let pipeline = ImagePipeline(
            configuration: .init(maxConcurrentDecodes: 2, memoryCache: sheet.memoryCacheConfiguration()))
        let summary = try await sheet.render(paths, to: dir + "/sheet.jpg", pipeline: pipeline)
        #expect(summary.size == PixelSize(width: 2 * 31 + 3 * 3, height: 3 * 31 + 4 * 3))
        let image = try ImageSource(path: dir + "/sheet.jpg").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))
        ).pixels
        #expect(image.size == summary.size)
        func pixel(_ x: Int, _ y: Int) -> [Int] { image.pixel(x: x, y: y).map(Int.init) }
        for (i, c) in colors.enumerated() {
            let (row, column) = (i / 2, i % 2)
            let left = 3 + column * 34, top = 3 + row * 34
            // The photo: 31 × 21 from the even column at or left of `left`, rows from the even row at or above top + 5.
            let (x0, y0) = (left & ~1, (top + 5) & ~1)
            let centre = pixel(x0 + 15, y0 + 10)
            #expect(
                zip(centre, c).allSatisfy { abs($0 - Int($1)) <= 20 },
                "photo \(i) at its centre: \(centre), expected \(c)")
            let above = pixel(x0 + 15, y0 - 2)
            #expect(above.allSatisfy { abs($0 - 128) <= 12 }, "above photo \(i): \(above)")
            // The background pixel sharing a chroma sample with the photo's last column: the shared sample is half
            // photo, half background, so the photo's colour shows at most half strength there (60 from grey
            // here; copied as it is, the photo's chroma put it 110–124 off).
            let past = pixel(x0 + 31, y0 + 10)
            #expect(past.allSatisfy { abs($0 - 128) <= 75 }, "right of photo \(i): \(past)")
        }
        for y in [0, 35, 69, summary.size.height - 1] {
            let gap = pixel(40, y)
            #expect(gap.allSatisfy { abs($0 - 128) <= 12 }, "gap row \(y): \(gap)")
        }
    }
}
