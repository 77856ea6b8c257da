import Testing
import Shrink
import ShrinkTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// What a server shows a client: `reason` (the message without the file's path) and `code.httpStatus`, on errors
/// the entry points really throw.
@Suite struct ImageErrorReasonTests {
    /// The error `body` throws, or a failed expectation when it throws none.
    func error(_ body: () throws(ImageError) -> Void) -> ImageError? {
        do throws(ImageError) {
            try body()
            Issue.record("no error thrown")
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFileIs404WithoutItsPath() throws {
        let path = "/tmp/shrink-no-such-dir-\(getpid())/secret/photo.jpg"
        let e = try #require(error { () throws(ImageError) in _ = try ImageSource(path: path) })
        #expect(e.code == .fileNotFound)
        #expect(e.code.httpStatus == 404)
        #expect(e.name == path)
        #expect(e.message.hasPrefix(path + ": "))
        #expect(!e.reason.contains("shrink-no-such-dir"))
        #expect(!e.reason.isEmpty)
    }

    @Test func notAnImageIs415NamingNoUpload() throws {
        let e = try #require(
            error { () throws(ImageError) in
                _ = try ImageSource(bytes: Array("hello, world".utf8), name: "uploads/7f3a.bin")
            })
        #expect(e.code == .unsupportedFormat)
        #expect(e.code.httpStatus == 415)
        #expect(e.name == "uploads/7f3a.bin")
        #expect(e.description.contains("uploads/7f3a.bin"))
        #expect(!e.reason.contains("7f3a"))
        #expect(e.reason.hasPrefix("not a supported image format"))
    }

    @Test func overTheLimitIs413() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 200, height: 100))
        let e = try #require(
            error { () throws(ImageError) in
                _ = try ImageSource(bytes: bytes, name: "big.jpg", limits: ImageLimits(maxPixels: 19_999)).thumbnail(
                    maxPixelSize: 10)
            })
        #expect(e.code == .limitExceeded)
        #expect(e.code.httpStatus == 413)
        #expect(!e.reason.contains("big.jpg"))
    }

    @Test func truncatedDecodeIs422WithoutItsName() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 640, height: 480))
        let cut = Array(bytes.prefix(bytes.count / 3))
        let e = try #require(
            error { () throws(ImageError) in
                _ = try ImageSource(bytes: cut, name: "cut.jpg").thumbnail(maxPixelSize: 64)
            })
        #expect(e.code == .truncated)
        #expect(e.code.httpStatus == 422)
        #expect(e.name == "cut.jpg")
        #expect(e.description.hasPrefix("cut.jpg: "))
        #expect(!e.reason.contains("cut.jpg"))
    }

    @Test func invalidRequestIs400() throws {
        let bytes = try TestImages.jpeg(TestImages.pattern(width: 64, height: 64))
        let e = try #require(
            error { () throws(ImageError) in _ = try ImageSource(bytes: bytes, name: "a.jpg").thumbnail(maxPixelSize: 0)
            })
        #expect(e.code == .invalidArgument)
        #expect(e.code.httpStatus == 400)
    }

    /// The documented table, code by code (a new code must be given its status here and in the docs).
    @Test(arguments: [
        (ImageError.Code.fileNotFound, 404), (.limitExceeded, 413), (.memoryBudgetExceeded, 413),
        (.unsupportedFormat, 415), (.unsupportedFeature, 415), (.corruptData, 422), (.truncated, 422),
        (.invalidArgument, 400), (.cancelled, 499), (.io, 500), (.encodingFailed, 500), (.outOfMemory, 500),
    ])
    func statusTable(code: ImageError.Code, status: Int) {
        #expect(code.httpStatus == status)
    }

    /// Errors that do not come from a decode name their file too: a write that cannot create its file, and a
    /// pipeline task cancelled before it finished.
    @Test func writesAndCancellationsNameTheirFileOutsideTheReason() async throws {
        let image = try ImageSource(bytes: try TestImages.jpeg(TestImages.pattern(width: 32, height: 32))).thumbnail(
            maxPixelSize: 16)
        let target = "/tmp/shrink-no-such-dir-\(getpid())/deep/t.jpg"
        let write = try #require(error { () throws(ImageError) in try image.write(to: target) })
        #expect(write.code == .io && write.name == target && !write.reason.contains("shrink-no-such-dir"), "\(write)")

        let gate = Gate()
        let task = ImagePipeline().imageTask(
            with: ImageRequest(
                loader: MemoryLoader(bytes: [0xFF, 0xD8, 0xFF], id: "/srv/photos/secret.jpg", gate: gate),
                target: .maxPixelSize(8)))
        task.cancel()
        gate.open()
        do {
            _ = try await task.response
            Issue.record("a cancelled task answered")
        } catch {
            #expect(error.code == .cancelled && error.code.httpStatus == 499)
            #expect(error.name == "/srv/photos/secret.jpg" && !error.reason.contains("secret"), "\(error)")
        }
    }

    /// An image inside the file (an EXIF thumbnail) names itself after the file: the reason leaves both out.
    @Test func nestedNamesAreLeftOutOfTheReason() {
        let inner = ImageError(.corruptData, "photo.jpg (EXIF thumbnail): bad Huffman table")
        let named = inner.naming("photo.jpg")
        #expect(named.message == "photo.jpg (EXIF thumbnail): bad Huffman table")
        #expect(named.reason == "bad Huffman table")
    }

    /// What a debugger, `dump` or a failed expectation prints names the type as users import it, with the
    /// loader's own error; equality leaves that error out.
    @Test func debugDescriptionAndUnderlyingError() {
        struct BucketDown: Error {}
        let e = ImageError(
            .io, "s3://photos/a.jpg: cannot fetch the object", name: "s3://photos/a.jpg", underlying: BucketDown())
        #expect(
            String(reflecting: e).hasPrefix(
                "Shrink.ImageError(code: .io, message: \"s3://photos/a.jpg: cannot fetch the object\""))
        #expect(String(reflecting: e).contains("underlying: "))
        #expect(e.underlying is BucketDown)
        #expect(e == ImageError(.io, "s3://photos/a.jpg: cannot fetch the object", name: "s3://photos/a.jpg"))
        #expect(e.reason == "cannot fetch the object" && e.code.httpStatus == 500)
    }

    /// An error made without a name (by a codec, a loader) keeps its whole message as its reason.
    @Test func reasonWithoutANameIsTheMessage() {
        let e = ImageError(.corruptData, "x.jpg: bad Huffman table")
        #expect(e.reason == "x.jpg: bad Huffman table")
        #expect(e.naming("x.jpg").reason == "bad Huffman table")
        #expect(e.naming("y.jpg").description == "y.jpg: x.jpg: bad Huffman table")
    }
}
