import Testing
import ShrinkCore

@Suite struct ImageFormatTests {
    func sniff(_ bytes: [UInt8]) -> ImageFormat? { bytes.withUnsafeBytes { ImageFormat(sniffing: $0) } }

    @Test func recognisesSignatures() {
        #expect(sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(sniff([0, 0, 0, 24] + Array("ftypheic".utf8)) == .heif)
        #expect(sniff([0, 0, 0, 24] + Array("ftypavif".utf8)) == .avif)
        #expect(sniff(Array("GIF89a".utf8)) == .gif)
        #expect(sniff([0xFF, 0xD8]) == nil)
        #expect(sniff([]) == nil)
        #expect(sniff(Array("hello world".utf8)) == nil)
    }
}
