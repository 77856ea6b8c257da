import Shrink
import ShrinkTestSupport
import Testing

/// GIFs whose LZW minimum code size giflib refuses (9 to 11: codes still within 12 bits, and Pillow and libvips
/// decode them) read by Shrink's own LZW decoder: every index back, through clears, a full table and interlacing;
/// damage and a size of 12 refused with typed errors.
@Suite struct GIFLZWTests {
    /// A GIF89a of one `width`×`height` frame: a 256-entry gray global table (entry i is i, i, i), the frame's
    /// `indices` LZW-coded with minimum code size `size`, in sub-blocks of 255 bytes.
    static func gif(width: Int, height: Int, indices: [UInt8], size: Int, interlaced: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        let data = TestLZW.encode(indices, literalBits: size, msbFirst: false, earlyChange: false)
        var blocks: [UInt8] = []
        for start in stride(from: 0, to: data.count, by: 255) {
            let chunk = data[start..<min(start + 255, data.count)]
            blocks += [UInt8(chunk.count)] + chunk
        }
        return Array("GIF89a".utf8) + u16(width) + u16(height) + [0xF7, 0, 0]
            + (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }
            + [0x2C] + u16(0) + u16(0) + u16(width) + u16(height) + [interlaced ? 0x40 : 0, UInt8(size)] + blocks
            + [0, 0x3B]
    }

    /// Gray indices that repeat enough to fill the table: a 300x200 frame's codes pass 4095 and clear.
    static func indices(width: Int, height: Int) -> [UInt8] {
        (0..<width * height).map { i in UInt8(truncatingIfNeeded: (i % width) / 3 * 7 + (i / width) / 2 * 13) }
    }

    static func gray(_ bytes: [UInt8]) throws(ImageError) -> [UInt8] {
        let image = try ImageSource(bytes: bytes, name: "t.gif").image(
            options: ThumbnailOptions(pixelFormat: .exactly(.rgb8)))
        return stride(from: 0, to: image.pixels.bytes.count, by: 3).map { image.pixels.bytes[$0] }
    }

    @Test(arguments: [9, 10, 11]) func everyIndexComesBackThroughClearsAndAFullTable(size: Int) throws {
        let indices = Self.indices(width: 300, height: 200)
        let bytes = Self.gif(width: 300, height: 200, indices: indices, size: size)
        #expect(try Self.gray(bytes) == indices)
        // Interlaced: the encoder is handed the rows in pass order; they come back in place.
        let order = TestGIF.interlacedOrder(200)
        let passes = order.flatMap { indices[$0 * 300..<($0 + 1) * 300] }
        #expect(
            try Self.gray(Self.gif(width: 300, height: 200, indices: passes, size: size, interlaced: true)) == indices)
    }

    @Test func animationFramesUseTheSameDecoder() throws {
        let indices = Self.indices(width: 64, height: 48)
        let bytes = Self.gif(width: 64, height: 48, indices: indices, size: 10)
        let source = try ImageSource(bytes: bytes, name: "t.gif")
        #expect(source.info.size == PixelSize(width: 64, height: 48))
        #expect(try Self.gray(bytes).count == 64 * 48)
    }

    @Test func damageAndACodeSizeOf12AreTypedErrors() throws {
        let indices = Self.indices(width: 120, height: 90)
        let whole = Self.gif(width: 120, height: 90, indices: indices, size: 10)
        // Cut in the middle of the data: the rows the file does not have are not made up.
        do {
            _ = try Self.gray(Array(whole.prefix(whole.count / 2)))
            Issue.record("a cut frame decoded")
        } catch {
            #expect(error.code == .truncated)
        }
        // A code beyond the table: the first code after the clear names entry 2000.
        var invalid = Self.gif(width: 120, height: 90, indices: indices, size: 10)
        let data = 13 + 768 + 10 + 1 + 1 // the first data byte: after the header, table, descriptor, size and length
        // 11-bit codes: bits 0-10 are the clear (1024), bits 11-21 the first code.
        let first = 2000
        invalid[data + 1] = (invalid[data + 1] & 0x07) | UInt8((first << 3) & 0xF8)
        invalid[data + 2] = (invalid[data + 2] & 0xC0) | UInt8((first >> 5) & 0x3F)
        do {
            _ = try Self.gray(invalid)
            Issue.record("an invalid code decoded")
        } catch {
            #expect(error.code == .corruptData)
            #expect(error.message.contains("code 2000 is not in the table"))
        }
        do {
            _ = try Self.gray(Self.gif(width: 8, height: 8, indices: [UInt8](repeating: 1, count: 64), size: 12))
            Issue.record("a code size of 12 decoded")
        } catch {
            #expect(error.code == .corruptData)
            #expect(error.message.contains("minimum code size 12"))
        }
    }
}
