import Foundation
import Testing
import Shrink
import ShrinkTestSupport

/// `shrink thumbnail --prescale 1/N`: exactly libjpeg's DCT scale, no resampling, orientation applied.
@Suite struct PrescaleTests {
    let cli = CLITests()

    /// `djpeg -scale 1/n -ppm` of `path`, as rgb8.
    func djpeg(_ path: String, scale n: Int) async throws -> PixelBuffer {
        let data = try await ChildProcess.bytes("/usr/bin/djpeg", ["-scale", "1/\(n)", "-ppm", path])
        // P6\n<w> <h>\n255\n<pixels>
        var fields: [Int] = [], i = 2, current = 0, inNumber = false
        while fields.count < 3 {
            let c = data[i]
            if c >= 48 && c <= 57 {
                current = current * 10 + Int(c - 48); inNumber = true
            } else if inNumber {
                fields.append(current); current = 0; inNumber = false
            }
            i += 1
        }
        let size = PixelSize(width: fields[0], height: fields[1])
        return PixelBuffer(format: .rgb8, size: size, bytes: Array(data[i..<i + size.width * size.height * 3]))
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/djpeg"), "needs djpeg (libjpeg-turbo-progs)"))
    func prescaleMatchesDjpegScaleAndAppliesOrientation() async throws {
        let w = try cli.workspace() // photo.jpg: 300×200, 4:2:0, EXIF orientation 6
        for n in [2, 4, 8] {
            let out = w.dir + "/p\(n).png"
            let r = try await cli.shrink("thumbnail", w.photo, "--prescale", "1/\(n)", "-o", out, "--json")
            #expect(r.status == 0)
            #expect(r.out.contains("\"prescale\":\"1/\(n)\""))
            let ours = try await ImageSource(path: out).image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
                .pixels
            let reference = PixelOps.exifTranspose(try await djpeg(w.photo, scale: n), orientation: 6)
            #expect(ours.size == reference.size)
            #expect(ours.size == PixelSize(width: (200 + n - 1) / n, height: (300 + n - 1) / n))
            if ours.size == reference.size { #expect(PixelOps.maxDifference(ours, reference) <= 2) }
        }
    }

    @Test func prescaleErrors() async throws {
        let w = try cli.workspace()
        #expect(try await cli.shrink("thumbnail", w.photo, "--prescale", "1/8", "--size", "100").status == 2)
        #expect(try await cli.shrink("thumbnail", w.photo, "--prescale", "1/3").status == 2)
        let png = w.dir + "/a.png"
        #expect(try await cli.shrink("thumbnail", w.photo, "-o", png).status == 0)
        let r = try await cli.shrink("thumbnail", png, "--prescale", "1/2", "-o", w.dir + "/b.png")
        #expect(r.status == 1)
        #expect(r.err.contains("cannot scale by 1/2"))
    }
}
