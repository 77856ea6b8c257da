import Foundation
import Shrink
import ShrinkTestSupport
import Testing

/// JPEG XL files written by libjxl's own encoder (cjxl, from PNGs Shrink writes), decoded through the registry:
/// lossless pixels back exactly, thumbnails summed from the rendered groups, alpha and gray, damage and bombs refused
/// as typed errors (the time a bomb takes is measured by scripts/bench-formats).
@Suite struct JXLDecoderTests {
    /// `pixels` as a JPEG XL file: written as PNG, then `cjxl` with `arguments` (lossless, `-d 0`, by default).
    static func jxl(_ pixels: PixelBuffer, _ arguments: [String] = ["-d", "0"]) async throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jxl-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("in.png"), out = directory.appendingPathComponent("out.jxl")
        try Data(try PNGEncoder().encode(pixels)).write(to: png)
        let result = try await ChildProcess.run("/usr/bin/cjxl", [png.path, out.path] + arguments)
        #expect(result.status == 0, "cjxl: \(result.err)")
        return [UInt8](try Data(contentsOf: out))
    }

    /// A `width`×`height` RGB image whose pixel (x, y) is (20x, 30y, 7), or with alpha 255 − 10x.
    static func gradient(width: Int, height: Int, alpha: Bool = false) -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(20 * x), UInt8(30 * y), 7] + (alpha ? [UInt8(255 - 10 * x)] : [])
            }
        }
        return PixelBuffer(
            format: alpha ? .rgba8 : .rgb8, size: PixelSize(width: width, height: height), bytes: bytes)
    }

    static func native(_ bytes: [UInt8]) throws(ImageError) -> DecodedImage {
        try ImageSource(bytes: bytes, name: "t.jxl").image(options: ThumbnailOptions(pixelFormat: .native))
    }

    @Test func losslessPixelsComeBackExactly() async throws {
        let bytes = try await Self.jxl(Self.gradient(width: 9, height: 7))
        let source = try ImageSource(bytes: bytes, name: "t.jxl")
        #expect(source.info.format == .jxl)
        #expect(source.info.size == PixelSize(width: 9, height: 7))
        #expect(source.info.features.contains("original colour space"))
        let image = try Self.native(bytes)
        #expect(image.pixels.format == .rgb8)
        for (x, y) in [(0, 0), (8, 0), (4, 3), (0, 6), (8, 6)] {
            #expect(Array(image.pixels.pixel(x: x, y: y)) == [UInt8(20 * x), UInt8(30 * y), 7])
        }
    }

    @Test func alphaComesBackStraight() async throws {
        let image = try Self.native(try await Self.jxl(Self.gradient(width: 8, height: 3, alpha: true)))
        #expect(image.pixels.format == .rgba8)
        for (x, y) in [(0, 0), (7, 2), (3, 1)] {
            #expect(Array(image.pixels.pixel(x: x, y: y)) == [UInt8(20 * x), UInt8(30 * y), 7, UInt8(255 - 10 * x)])
        }
    }

    @Test func grayStaysGray() async throws {
        let ramp = TestImages.grayRamp(width: 16, height: 4)
        let image = try Self.native(try await Self.jxl(ramp))
        #expect(image.pixels.format == .gray8)
        #expect(Array(image.pixels.bytes) == Array(ramp.bytes))
    }

    @Test func aReducedDecodeIsTheBoxMeansOfTheRenderedPixels() async throws {
        // 8×4 at 1/4 (a lossless file has no DC image to stop at): each pixel the mean of a 4×4 block.
        let source = try ImageSource(bytes: try await Self.jxl(Self.gradient(width: 8, height: 4)), name: "box.jxl")
        let thumbnail = try source.image(.prescale(4), options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(thumbnail.plan.prescale == 4)
        #expect(thumbnail.size == PixelSize(width: 2, height: 1))
        #expect(thumbnail.decodePath == .jxlFrame)
        // Columns 0–3: red (0+20+40+60)/4 = 30; rows 0–3: green (0+30+60+90)/4 = 45.
        #expect(Array(thumbnail.pixels.pixel(x: 0, y: 0)) == [30, 45, 7])
        #expect(Array(thumbnail.pixels.pixel(x: 1, y: 0)) == [110, 45, 7])
    }

    @Test func aLossyFileDecodesCloseToItsSource() async throws {
        // cjxl's default lossy setting (distance 1, XYB): every sample within a few levels of the source on average.
        let pattern = TestImages.pattern(width: 256, height: 128)
        let bytes = try await Self.jxl(pattern, ["-d", "1"])
        let source = try ImageSource(bytes: bytes, name: "lossy.jxl")
        #expect(source.info.features.contains("lossy (XYB)"))
        let image = try source.image(options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        #expect(image.decodePath == .jxlFrame)
        let decoded = Array(image.pixels.bytes), original = Array(pattern.bytes)
        let difference = zip(decoded, original).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(difference) / Double(original.count) < 4, "mean difference from the source")
    }

    @Test func aTruncatedFileIsATypedError() async throws {
        let bytes = try await Self.jxl(TestImages.pattern(width: 64, height: 64), ["-d", "1"])
        #expect(throws: ImageError.self) { try Self.native(Array(bytes.prefix(bytes.count / 2))) }
        do {
            _ = try Self.native(Array(bytes.prefix(bytes.count / 2)))
        } catch {
            #expect(error.code == .corruptData)
            #expect(error.message.contains("t.jxl"))
        }
    }

    @Test func aHugeHeaderIsRefusedBeforeAnyPixel() throws {
        // A bare codestream header: 1,000,000 × 1,000,000, default metadata, nothing after it.
        var writer = BitWriter()
        writer.write(0xFF0A >> 8, 8)
        writer.write(0x0A, 8)
        writer.write(0, 1) // not small
        writer.write(3, 2) // height: 30 bits
        writer.write(999_999, 30)
        writer.write(0, 3) // no ratio: the width follows
        writer.write(3, 2)
        writer.write(999_999, 30)
        writer.write(1, 1) // all_default metadata
        #expect(throws: ImageError.self) { _ = try ImageSource(bytes: writer.bytes, name: "bomb.jxl") }
        do {
            _ = try ImageSource(bytes: writer.bytes, name: "bomb.jxl")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }
}

/// Bits written least significant first, as JPEG XL's headers are read.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: Int, _ count: Int) {
        for i in 0..<count {
            if used == 0 { bytes.append(0) }
            if value >> i & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << used) }
            used = (used + 1) % 8
        }
    }
}
