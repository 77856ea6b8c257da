import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

/// The DC-first path against libjpeg's own 1/8 decode of the same bytes.
@Suite struct DCFirstDecoderTests {
    static func rows(_ decoder: any RowDecoding) throws -> [UInt8] {
        let stride = decoder.size.width * decoder.format.bytesPerPixel
        var out = [UInt8](repeating: 0, count: stride * decoder.size.height)
        try out.withUnsafeMutableBytes { raw in
            while decoder.nextRow < decoder.size.height {
                let row = decoder.nextRow
                _ = try decoder.readRows(
                    startingAt: row, into: raw.baseAddress! + row * stride, bytesPerRow: stride, maxRows: 7)
            }
        }
        try decoder.finish()
        return out
    }

    @Test(arguments: [(false, 333, 251), (true, 333, 251), (false, 64, 64), (true, 17, 9), (true, 1000, 8)])
    func matchesLibjpegAtOneEighth(_ chroma444: Bool, _ width: Int, _ height: Int) throws {
        let bytes = try TestImages.jpeg(
            TestImages.pattern(width: width, height: height), quality: 92, chroma444: chroma444,
            progressive: true)
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "generated")
        #expect(decoder.decodesDCFirst)
        let ours = try Self.rows(decoder.startDCFirst())
        let libjpeg = try Self.rows(decoder.startRows(scaleDenominator: 8))
        #expect(ours.count == libjpeg.count)
        let diff = zip(ours, libjpeg).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(diff <= 2, "max difference \(diff) for \(width)x\(height) \(chroma444 ? "4:4:4" : "4:2:0")")
        // The whole point: a few bytes per block, not libjpeg's coefficient buffer.
        let eighth = decoder.route(RouteRequest(scaleDenominator: 8)),
            quarter = decoder.route(RouteRequest(scaleDenominator: 4))
        #expect(eighth.path == .dcFirst && eighth.decoder == "shrink" && quarter.decoder == "libjpeg-turbo")
        #expect(eighth.workingBytes < quarter.workingBytes / 10)
    }

    /// Every plane of `decoder`, whole.
    static func planes(_ decoder: any PlaneDecoding) throws -> [[UInt8]] {
        var planes = decoder.planeSizes.map { [UInt8](repeating: 0, count: $0.pixelCount) }
        let sizes = decoder.planeSizes
        while try decoder.readGroup({ plane, y, row in
            for x in 0..<sizes[plane].width { planes[plane][y * sizes[plane].width + x] = row[x] }
        }) {}
        try decoder.finish()
        return planes
    }

    /// Wanting planes at 1/8, the DC-first route hands out the DC values as they are — luma at 1/8, 4:2:0
    /// chroma at 1/16 — reading no AC scan; libjpeg's planar 1/8 decode of the same bytes (chroma given the
    /// luma's 1×1 IDCT, its coefficient buffer filled by every scan) gives the same samples.
    @Test(arguments: [(false, 333, 251), (true, 333, 251), (false, 17, 9), (false, 1000, 8)])
    func dcPlanesMatchLibjpegPlanes(_ chroma444: Bool, _ width: Int, _ height: Int) throws {
        let bytes = try TestImages.jpeg(
            TestImages.pattern(width: width, height: height), quality: 92, chroma444: chroma444,
            progressive: true)
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "generated")
        let route = decoder.route(RouteRequest(scaleDenominator: 8, wantsPlanes: true))
        #expect(route.path == .dcFirst && route.output == .planes)
        guard case .planes(let dc) = try route.start(options: DecodeOptions()) else {
            Issue.record("the DC-first route gave rows")
            return
        }
        let libjpeg = try decoder.startPlanes(scaleDenominator: 8)
        #expect(dc.planeSizes == libjpeg.planeSizes)
        #expect(dc.planeSizes[1].width == (chroma444 ? (width + 7) / 8 : (width + 15) / 16))
        let ours = try Self.planes(dc), theirs = try Self.planes(libjpeg)
        for i in 0..<3 {
            let diff = zip(ours[i], theirs[i]).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(diff == 0, "plane \(i): max difference \(diff) for \(width)x\(height)")
        }
        // DC values and one byte per block: no AC scan's data is held or decoded.
        #expect(route.workingBytes < decoder.route(RouteRequest(scaleDenominator: 8)).workingBytes * 2)
    }

    @Test func grayProgressive() throws {
        let bytes = try TestImages.jpeg(TestImages.grayRamp(width: 200, height: 120), quality: 90, progressive: true)
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "gray")
        #expect(decoder.decodesDCFirst)
        let ours = try Self.rows(decoder.startDCFirst())
        let libjpeg = try Self.rows(decoder.startRows(scaleDenominator: 8))
        #expect(ours == libjpeg)
    }

    @Test func baselineFilesDoNotTakeThePath() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 64, height: 64))
        let decoder = try JPEGDecoder(bytes: ImageBytes(bytes), path: "baseline")
        #expect(!decoder.decodesDCFirst)
    }

    @Test func truncatedAndDamagedDataNeverCrash() throws {
        let bytes = try TestImages.jpeg(
            TestImages.pattern(width: 160, height: 120), quality: 90, chroma444: false, progressive: true)
        // A cut file has no EOI: every cut that reaches the DC-first decode is refused as truncated, strict or not.
        // Of the 19 cuts, 3 fail in the header and 14 do not take the DC-first path; two (at 1572 and 1766 of
        // 1835 bytes) do, twice each (recorded once).
        var refused = 0
        for cut in stride(from: 20, to: bytes.count, by: 97) {
            let data = Array(bytes[0..<cut])
            guard let decoder = try? JPEGDecoder(bytes: ImageBytes(data), path: "cut"), decoder.decodesDCFirst else {
                continue
            }
            for strict in [true, false] {
                do {
                    _ = try Self.rows(decoder.startDCFirst(options: DecodeOptions(strict: strict)))
                    Issue.record("a file cut at \(cut) of \(bytes.count) bytes decoded (strict: \(strict))")
                } catch {
                    #expect((error as? ImageError)?.code == .truncated, "cut at \(cut): \(error)")
                    refused += 1
                }
            }
        }
        #expect(refused == 4)
        // Flip bytes inside the scans (seeded: the same files every run). Strict decoding refuses damage as
        // corrupt or truncated; lenient decoding steps over all of it here and always gives the 20x15 picture.
        // Counts recorded once: 103 of the 200 damaged files take the DC-first path.
        var strictOutcomes = (images: 0, corrupt: 0, truncated: 0), lenient = (images: 0, errors: 0)
        var damage = SeededDamage()
        for _ in 0..<200 {
            let data = damage.next(bytes, flips: 4, from: 200)
            guard let decoder = try? JPEGDecoder(bytes: ImageBytes(data), path: "flipped"), decoder.decodesDCFirst
            else { continue }
            do {
                _ = try Self.rows(decoder.startDCFirst(options: DecodeOptions(strict: true)))
                strictOutcomes.images += 1
            } catch {
                switch (error as? ImageError)?.code {
                case .corruptData?: strictOutcomes.corrupt += 1
                case .truncated?: strictOutcomes.truncated += 1
                default: Issue.record("strict: \(error)")
                }
            }
            do {
                let image = try Self.rows(decoder.startDCFirst(options: DecodeOptions(strict: false)))
                #expect(image.count == 20 * 15 * 3) // 160x120 at 1/8, rgb8
                lenient.images += 1
            } catch {
                let code = (error as? ImageError)?.code
                #expect(code == .corruptData || code == .truncated, "\(error)")
                lenient.errors += 1
            }
        }
        #expect(
            strictOutcomes.images == 36 && strictOutcomes.corrupt == 30 && strictOutcomes.truncated == 37,
            "\(strictOutcomes)")
        #expect(lenient.images == 103 && lenient.errors == 0, "\(lenient)")
    }
}
