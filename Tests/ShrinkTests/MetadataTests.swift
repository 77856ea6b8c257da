import Testing
import Shrink
import ShrinkTestSupport

@Suite struct MetadataTests {
    /// A JPEG with an ICC profile split over two APP2 chunks and EXIF orientation 6.
    func jpegWithMetadata() throws -> [UInt8] {
        let base = try TestImages.jpeg(TestImages.pattern(width: 40, height: 30), orientation: 6)
        let profile = (0..<300).map { UInt8($0 % 256) }
        func app2(_ seq: UInt8, _ part: ArraySlice<UInt8>) -> [UInt8] {
            let body = Array("ICC_PROFILE\0".utf8) + [seq, 2] + part
            return [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        // Chunks stored out of order: reassembly follows the sequence numbers.
        return Array(base[0..<2]) + app2(2, profile[150...]) + app2(1, profile[..<150]) + Array(base[2...])
    }

    @Test func iccIsKeptWhenAskedAndEXIFStrippedByDefault() throws {
        let source = try ImageSource(bytes: try jpegWithMetadata(), name: "m.jpg")
        #expect(source.info.iccProfileBytes == 300)
        // By default the profile is converted to sRGB and dropped; this one is not a profile lcms2 can read: a
        // warning, the pixels left as they are, no profile written.
        let converted = try source.thumbnail(maxPixelSize: 20)
        #expect(converted.metadata.iccProfile == nil && converted.warnings.contains { $0.contains("cannot be read") })
        let thumb = try source.thumbnail(maxPixelSize: 20, options: ThumbnailOptions(color: .keep))
        #expect(thumb.pixels.bytes == converted.pixels.bytes && thumb.warnings.isEmpty && thumb.colorConversion == nil)
        #expect(thumb.metadata.iccProfile == (0..<300).map { UInt8($0 % 256) })
        let out = try ImageSource(bytes: try thumb.encoded(as: .jpeg(.init())))
        #expect(out.info.iccProfileBytes == 300)
        #expect(out.info.exifBytes == 0 && out.info.orientation == .up)
        let png = try ImageSource(bytes: try thumb.encoded(as: .png(.init())))
        #expect(png.info.iccProfileBytes == 300 && png.info.exifBytes == 0)
    }

    @Test func keptEXIFSaysUpright() throws {
        let source = try ImageSource(bytes: try jpegWithMetadata())
        let thumb = try source.thumbnail(maxPixelSize: 20, options: ThumbnailOptions(color: .keep))
        #expect(thumb.size == PixelSize(width: 15, height: 20))
        var options = JPEGEncoder.Options()
        options.keepEXIF = true
        let out = try ImageSource(bytes: try thumb.encoded(as: .jpeg(options)))
        #expect(out.info.exifBytes > 0)
        #expect(out.info.orientation == .up)
        #expect(out.info.size == PixelSize(width: 15, height: 20))
        let png = try ImageSource(bytes: try thumb.encoded(as: .png(.init(keepEXIF: true))))
        #expect(png.info.exifBytes > 0 && png.info.orientation == .up)
        let stripped = try ImageSource(bytes: try thumb.encoded(as: .png(.init(keepICCProfile: false))))
        #expect(stripped.info.iccProfileBytes == 0)
    }

    @Test(arguments: PNGEncoder.Filters.allCases)
    func everyFilterChoiceRoundTrips(_ filters: PNGEncoder.Filters) throws {
        let image = TestImages.pattern(width: 31, height: 9)
        let png = try PNGEncoder(options: .init(filters: filters)).encode(image)
        #expect(
            try ImageSource(bytes: png).image(options: .init(pixelFormat: .exactly(.rgb8))).pixels.bytes == image.bytes)
    }

    /// `auto` filters adaptively up to 4 MP and not at all above: a thumbnail's bytes equal the adaptive
    /// encoding, a 2048x2049 image's (just above 4 MP) equal the unfiltered one.
    @Test func autoFiltersSmallImagesAdaptivelyAndLargeOnesNot() throws {
        func encodings(_ image: PixelBuffer) throws -> (auto: [UInt8], adaptive: [UInt8], none: [UInt8]) {
            func encode(_ f: PNGEncoder.Filters) throws -> [UInt8] {
                try PNGEncoder(options: .init(compressionLevel: 1, filters: f)).encode(image)
            }
            return (try encode(.auto), try encode(.adaptive), try encode(.none))
        }
        let small = try encodings(TestImages.pattern(width: 300, height: 200))
        #expect(small.adaptive != small.none)
        #expect(small.auto == small.adaptive)
        let large = try encodings(TestImages.pattern(width: 2048, height: 2049))
        #expect(large.adaptive != large.none)
        #expect(large.auto == large.none)
    }

    @Test func sixteenBitOutputWidensExactly() throws {
        let image = TestImages.pattern(width: 7, height: 5)
        let png = try PNGEncoder(options: .init(bitDepth: 16)).encode(image)
        let source = try ImageSource(bytes: png)
        #expect(source.info.bitsPerComponent == 16)
        // Decoding reduces 16 → 8 bits by rounding v × 255 / 65535, which undoes v × 257 exactly.
        #expect(try source.image(options: .init(pixelFormat: .exactly(.rgb8))).pixels.bytes == image.bytes)
    }
}
