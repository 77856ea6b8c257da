import Testing
import ShrinkCore
import Shrink
import ShrinkTestSupport

/// AVIF through ImageSource: dav1d decodes (and says so), single images stream from dav1d's own picture,
/// grids and per-tile alpha go through the HEIC tile path, transforms are applied once, colour comes from the
/// sequence header when the container says nothing, and broken files are typed errors.
@Suite struct AVIFDecodeTests {
    static func source(_ file: String) throws(ImageError) -> ImageSource {
        try ImageSource(path: Corpus.path("avif/" + file))
    }

    @Test(.needsCorpus)
    func singleImagesDecodeThroughDav1d() throws {
        let fox = try Self.source("av1-avif/fox.profile0.8bpc.yuv420.avif")
        #expect(fox.info.format == .avif && fox.info.size == PixelSize(width: 1204, height: 800))
        #expect(fox.info.features.first?.hasPrefix("AV1 (dav1d ") == true, "\(fox.info.features)")
        let small = try fox.thumbnail(maxPixelSize: 300)
        #expect(small.size == PixelSize(width: 300, height: 199) && small.decoder?.hasPrefix("dav1d ") == true)
        #expect(small.decodePath == .wholeImage && small.pixels.format == .yuv420)
        // Planes (limited range widened) and RGB rows (converted with BT.601 from nclx 1/13/6) agree.
        let rows = try fox.thumbnail(maxPixelSize: 300, options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(PixelOps.psnr(PixelConverter.convert(small.pixels, to: .rgb8), rows.pixels) > 35)
        // 10-bit 4:4:4 at odd sizes, 12-bit 4:2:2, 10-bit monochrome: shifted to 8 bits, every row delivered.
        for (file, size) in [
            ("av1-avif/fox.profile1.10bpc.yuv444.odd-width.odd-height.avif", PixelSize(width: 1203, height: 799)),
            ("av1-avif/fox.profile2.12bpc.yuv422.avif", PixelSize(width: 1204, height: 800)),
            ("av1-avif/fox.profile0.10bpc.yuv420.monochrome.avif", PixelSize(width: 1204, height: 800)),
        ] {
            let other = try Self.source(file)
            let full = try other.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
            #expect(full.size == size, "\(file)")
            // Against the 8-bit 4:2:0 encoding of the same fox: the same picture. Thumbnails of both, so that
            // the odd-sized file (1203x799) is compared too: 300 on the long side is 300x199 for all of them.
            let rgb = ThumbnailOptions(pixelFormat: .exactly(.rgb8))
            let thumb = try other.thumbnail(maxPixelSize: 300, options: rgb),
                reference = try fox.thumbnail(maxPixelSize: 300, options: rgb)
            #expect(thumb.size == PixelSize(width: 300, height: 199) && reference.size == thumb.size, "\(file)")
            let psnr = PixelOps.psnr(thumb.pixels, reference.pixels)
            #expect(psnr > (file.contains("monochrome") ? 12 : 28), "\(file): \(psnr) dB")
        }
        // An odd-sized 4:2:0 image hands out its last chroma row (it once stopped one row short).
        let star = try Self.source("link-u/star-8bpc.avifs").image()
        #expect(star.size == PixelSize(width: 159, height: 159))
    }

    @Test(.needsCorpus)
    func transformsGridsAndAlpha() throws {
        // irot 270 on 1024x722: portrait, once.
        let rotated = try Self.source("av1-avif/kimono.rotate90.avif")
        #expect(rotated.info.displayedSize == PixelSize(width: 722, height: 1024))
        #expect(try rotated.thumbnail(maxPixelSize: 256).size == PixelSize(width: 181, height: 256))
        // The same kimono stored mirrored (imir): both display the original picture.
        let mirror = try Self.source("av1-avif/kimono.mirror-horizontal.avif")
        let a = try rotated.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))).pixels
        let b = try mirror.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8))).pixels
        #expect(a.size == b.size)
        if a.size == b.size { #expect(PixelOps.psnr(a, b) > 30) }
        // A 5x4 grid of 1280x720 AV1 tiles, a row of tiles at a time.
        let grid = try Self.source("av1-avif/Summer_in_Tomsk_720p_5x4_grid.avif")
        #expect(
            grid.info.size == PixelSize(width: 6400, height: 2880)
                && grid.info.features.contains { $0.hasPrefix("grid 5x4") })
        let thumb = try grid.thumbnail(maxPixelSize: 400)
        #expect(thumb.size == PixelSize(width: 400, height: 180) && thumb.decodePath == DecodePath("tileRows"))
        // Alpha per tile of a colour grid (libavif's color_grid_alpha_nogrid): transparent and opaque pixels.
        let alphaGrid = try Self.source("libavif/color_grid_alpha_nogrid.avif")
        #expect(alphaGrid.info.hasAlpha)
        let rgba = try alphaGrid.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgba8))).pixels
        let alphas = Set(stride(from: 3, to: rgba.bytes.count, by: 4).map { rgba.bytes[$0] })
        #expect(alphas.count > 1 && alphas.contains(255), "\(alphas.sorted().prefix(8))")
    }

    @Test(.needsCorpus)
    func colorFromTheSequenceHeaderWhenTheContainerHasNone() throws {
        // No colr box: the AV1 sequence header says BT.709, limited range.
        let tomsk = try Self.source("av1-avif/Tomsk_with_thumbnails.avif")
        #expect(tomsk.info.features.contains("nclx 1/13/1/limited"), "\(tomsk.info.features)")
    }

    @Test(.needsCorpus)
    func brokenFilesAreTypedErrors() throws {
        for (file, code) in [
            ("mp4parse/no-av1C.avif", ImageError.Code.corruptData), ("mp4parse/no-ispe.avif", .corruptData),
            ("mp4parse/no-pitm.avif", .corruptData), ("mp4parse/ipma-invalid-property-index.avif", .corruptData),
            ("mp4parse/imir-missing-essential.avif", .corruptData),
            ("libavif/clap_irot_imir_non_essential.avif", .corruptData),
        ] {
            do throws(ImageError) {
                _ = try Self.source(file).thumbnail(maxPixelSize: 64)
                Issue.record("\(file) decoded")
            } catch {
                #expect(error.code == code, "\(file): \(error)")
                #expect(error.message.contains(file.split(separator: "/").last!), "\(file): \(error)")
            }
        }
        // Cut short anywhere: a typed error, never a crash. Every cut is refused (the first inside ftyp and meta,
        // which end at 274; the rest leave the item's extent in mdat past the end): all 30, recorded once.
        let bytes = try #require(Corpus.readBytes(Corpus.path("avif/libavif/kodim03_yuv420_8bpc.avif")))
        var cuts = 0, refused = 0
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 29)) {
            cuts += 1
            do throws(ImageError) {
                _ = try ImageSource(bytes: Array(bytes[0..<n]), name: "cut.avif").thumbnail(maxPixelSize: 32)
                Issue.record("a file cut at \(n) of 25430 bytes decoded")
            } catch {
                refused += 1
                #expect(
                    [ImageError.Code.truncated, .corruptData, .unsupportedFormat, .unsupportedFeature].contains(
                        error.code), "\(n): \(error)")
            }
        }
        #expect(refused == cuts && cuts == 30)
    }
}
