import Foundation
import Testing
import ShrinkCore
import ShrinkJPEG
import ShrinkTestSupport

@Suite struct JPEGStreamWriterTests {
    private static func temporaryPath() -> String { NSTemporaryDirectory() + "shrink-writer-\(UUID().uuidString).jpg" }

    private static func code(_ body: () throws -> Void) -> ImageError.Code? {
        do { try body() } catch let error as ImageError { return error.code } catch { return nil }
        return nil
    }

    /// yuv420 planes written band by band (an odd size, bands of different even heights, an odd last band)
    /// make the very file the one-shot encoder makes of the same planes: raw data both ways, edges padded alike.
    @Test func planesWrittenInBandsMatchTheOneShotEncoder() throws {
        let size = PixelSize(width: 53, height: 41)
        let planes = PixelConverter.convert(TestImages.pattern(width: size.width, height: size.height), to: .yuv420)
        let oneShot = try JPEGEncoder(options: .init(quality: 85, optimizeHuffmanTables: false)).encode(planes)
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try JPEGStreamWriter(path: path, size: size, format: .yuv420, quality: 85)
        let p = planes.planes
        try planes.bytes.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            var row = 0
            for count in [6, 18, 2, 14, 1] {
                try writer.write(
                    luma: base + p[0].offset + row * p[0].width, lumaStride: p[0].width,
                    cb: base + p[1].offset + row / 2 * p[1].width, cr: base + p[2].offset + row / 2 * p[2].width,
                    chromaStride: p[1].width, count: count)
                row += count
            }
        }
        #expect(writer.rowsWritten == size.height)
        try writer.finish()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == oneShot)
    }

    @Test func misuseIsAnInvalidArgumentAndLeavesNoFile() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            Self.code {
                _ = try JPEGStreamWriter(
                    path: path, size: PixelSize(width: 8, height: 8), format: .yuv420, chroma444: true)
            }
                == .invalidArgument)
        let writer = try JPEGStreamWriter(path: path, size: PixelSize(width: 8, height: 8), format: .yuv420)
        let luma = [UInt8](repeating: 100, count: 64), chroma = [UInt8](repeating: 128, count: 16)
        #expect(Self.code { try writer.write(rows: luma, bytesPerRow: 8, count: 1) } == .invalidArgument)
        try writer.write(luma: luma, lumaStride: 8, cb: chroma, cr: chroma, chromaStride: 4, count: 3)
        // The next band would start on row 3, inside a chroma row.
        #expect(
            Self.code { try writer.write(luma: luma, lumaStride: 8, cb: chroma, cr: chroma, chromaStride: 4, count: 2) }
                == .invalidArgument)
        #expect(Self.code { try writer.finish() } == .invalidArgument)
        #expect(!FileManager.default.fileExists(atPath: path))

        let rgb = try JPEGStreamWriter(path: path, size: PixelSize(width: 8, height: 8), format: .rgb8)
        #expect(
            Self.code { try rgb.write(luma: luma, lumaStride: 8, cb: chroma, cr: chroma, chromaStride: 4, count: 2) }
                == .invalidArgument)
    }
}
