import Shrink
import ShrinkTestSupport
import Testing

/// ``Trim``: the background's borders found on a reduced decode, the content's region decoded.
@Suite struct TrimTests {
    /// A `width`×`height` PNG of `background` with an opaque patch at `patch`.
    private func source(
        width: Int, height: Int, patch: PixelRect, background: [UInt8] = [255, 255, 255, 255]
    ) throws -> ImageSource {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= patch.x && x < patch.x + patch.width && y >= patch.y && y < patch.y + patch.height
                let i = (y * width + x) * 4
                let c: [UInt8] = inside ? [UInt8(40 + x % 100), 90, UInt8(30 + y % 120), 255] : background
                for k in 0..<4 { bytes[i + k] = c[k] }
            }
        }
        let png = try PNGEncoder().encode(
            PixelBuffer(format: .rgba8, size: PixelSize(width: width, height: height), bytes: bytes))
        return try ImageSource(bytes: png, name: "trim.png")
    }

    private func trimmed(_ source: ImageSource, _ trim: Trim, _ target: ThumbnailTarget = .original) throws
        -> DecodedImage
    {
        var o = ThumbnailOptions()
        o.trim = trim
        return try source.image(target, options: o)
    }

    @Test func theBackgroundsBordersAreCutAway() throws {
        let small = try source(width: 300, height: 200, patch: PixelRect(x: 80, y: 50, width: 100, height: 60))
        let cut = try trimmed(small, Trim())
        #expect(
            cut.size == PixelSize(width: 100, height: 60)
                && cut.plan.window == PixelRect(x: 80, y: 50, width: 100, height: 60))
        // Equal cuts: the smaller of left (80) and right (120); of top (50) and bottom (90).
        #expect(try trimmed(small, Trim(equalHorizontal: true)).size == PixelSize(width: 140, height: 60))
        #expect(try trimmed(small, Trim(equalVertical: true)).size == PixelSize(width: 100, height: 100))
        // A named colour that is not the background: nothing is background.
        #expect(
            try trimmed(small, Trim(color: RGBColor(red: 1, green: 2, blue: 3))).size
                == PixelSize(width: 300, height: 200))
        // Transparent borders; the bottom-right corner naming the background.
        let clear = try source(
            width: 120, height: 90, patch: PixelRect(x: 10, y: 20, width: 50, height: 40), background: [0, 0, 0, 0])
        #expect(try trimmed(clear, Trim(corner: .bottomRight)).size == PixelSize(width: 50, height: 40))
        // Then the target applies to what is left.
        #expect(try trimmed(small, Trim(), .maxPixelSize(50)).size == PixelSize(width: 50, height: 30))
    }

    @Test func largeImagesAreTrimmedFromAReducedDecode() throws {
        let large = try source(width: 3000, height: 2000, patch: PixelRect(x: 1000, y: 600, width: 500, height: 400))
        let cut = try trimmed(large, Trim())
        // Found on a 1024-pixel decode: exact to within one of its pixels (about 3 here).
        #expect(abs(cut.size.width - 500) <= 6 && abs(cut.size.height - 400) <= 6, "\(cut.size)")
        #expect(abs(cut.plan.window.x - 1000) <= 3 && abs(cut.plan.window.y - 600) <= 3, "\(cut.plan.window)")
        var o = ThumbnailOptions()
        let plan = try large.plan(.maxPixelSize(200))
        let untrimmed = large.predictedPeakBytes(for: plan, options: o)
        o.trim = Trim()
        let trimmedPlan = try large.plan(.maxPixelSize(200), options: o)
        #expect(trimmedPlan.outputSize == plan.outputSize) // planned as untrimmed: the region is found at decode
        let thumbnail = try large.image(.maxPixelSize(200), options: o)
        #expect(thumbnail.predictedPeakBytes >= untrimmed && thumbnail.size.width == 200)
    }
}
