import Foundation
import Testing
import ShrinkCore
@testable import ShrinkHEIF
import ShrinkTestSupport

/// HEVC tiles through libde265: an iPhone photo's 48 tiles decoded one by one with one decoder, placed by the
/// grid, agree with the photo's own HEVC thumbnail (an independent image of the same scene) — a tile put in the
/// wrong place, or planes copied with the wrong stride, would not.
@Suite struct HEVCDecoderTests {
    static func picture(
        _ c: HEIFContainer, _ id: Int, _ raw: UnsafeRawBufferPointer, _ decoder: HEVCDecoder,
        path: String
    ) throws -> HEIFPicture {
        guard
            case .hevcConfiguration(let range)? = c.properties(of: id).first(where: {
                if case .hevcConfiguration = $0 { true } else { false }
            })
        else { throw ImageError(.corruptData, "no hvcC") }
        let config = try HEVCConfiguration(raw, range: range, path: path)
        let data = try c.data(of: id, bytes: raw, maxBytes: 1 << 26, path: path)
        return try data.withUnsafeBytes { d in
            let units = try config.nalUnits(in: d, path: path).map { UnsafeRawBufferPointer(rebasing: d[$0]) }
            return try decoder.decode(
                parameterSets: config.parameterSets.map { UnsafeRawBufferPointer(rebasing: raw[$0.range]) },
                units: units)
        }
    }

    @Test(.needsCorpus)
    func gridTilesAgreeWithTheEmbeddedThumbnail() throws {
        let path = Corpus.path("heic/exif-samples/iphone_13_pro_max.HEIC")
        let bytes = try #require(Corpus.readBytes(path))
        try bytes.withUnsafeBytes { raw in
            let c = try HEIFContainer(bytes: raw, path: path)
            let grid = try c.grid(c.primaryID, bytes: raw, path: path)
            let tiles = c.references("dimg", from: c.primaryID)
            #expect(grid.rows == 6 && grid.columns == 8 && tiles.count == 48)
            let decoder = try HEVCDecoder(path: path)
            let (w, h) = (grid.outputWidth, grid.outputHeight)
            var luma = [UInt8](repeating: 0, count: w * h)
            for (k, id) in tiles.enumerated() {
                let tile = try Self.picture(c, id, raw, decoder, path: path)
                #expect(
                    tile.sizes == [
                        PixelSize(width: 512, height: 512), PixelSize(width: 256, height: 256),
                        PixelSize(width: 256, height: 256),
                    ])
                let (tx, ty) = ((k % grid.columns) * 512, (k / grid.columns) * 512)
                for row in 0..<512 where ty + row < h {
                    let n = min(512, w - tx)
                    luma.replaceSubrange(
                        (ty + row) * w + tx..<(ty + row) * w + tx + n,
                        with: UnsafeBufferPointer(start: tile.row(0, row), count: n))
                }
            }
            let thumbID = try #require(c.items(referencing: c.primaryID, with: "thmb").first)
            let thumb = try Self.picture(c, thumbID, raw, decoder, path: path)
            let (tw, th) = (thumb.sizes[0].width, thumb.sizes[0].height)
            #expect(abs(Double(tw) / Double(th) - Double(w) / Double(h)) < 0.02)
            // The grid's luma averaged over each thumbnail pixel's area, against the thumbnail's luma.
            var squared = 0.0
            for y in 0..<th {
                for x in 0..<tw {
                    let x0 = x * w / tw, x1 = (x + 1) * w / tw, y0 = y * h / th, y1 = (y + 1) * h / th
                    var sum = 0
                    for yy in y0..<y1 { for xx in x0..<x1 { sum += Int(luma[yy * w + xx]) } }
                    let d = Double(sum) / Double((x1 - x0) * (y1 - y0)) - Double(thumb.row(0, y)[x])
                    squared += d * d
                }
            }
            let psnr = 10 * log10(255 * 255 / (squared / Double(tw * th)))
            // The same with the grid shifted by one tile column, as a control.
            var wrong = 0.0
            for y in 0..<th {
                for x in 0..<tw {
                    let x0 = x * w / tw, x1 = (x + 1) * w / tw, y0 = y * h / th, y1 = (y + 1) * h / th
                    var sum = 0
                    for yy in y0..<y1 { for xx in x0..<x1 { sum += Int(luma[yy * w + ((xx + 512) % w)]) } }
                    let d = Double(sum) / Double((x1 - x0) * (y1 - y0)) - Double(thumb.row(0, y)[x])
                    wrong += d * d
                }
            }
            let shifted = 10 * log10(255 * 255 / (wrong / Double(tw * th)))
            // Measured: 24.4 dB as placed (the thumbnail is its own, smaller encoding), 10.2 dB with every tile
            // one column off: the comparison tells a right assembly from a wrong one.
            #expect(psnr > 20 && psnr > shifted + 8, "grid against thumbnail: \(psnr) dB (one tile off: \(shifted) dB)")
        }
    }
}
