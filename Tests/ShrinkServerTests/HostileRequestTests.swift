import Foundation
import Shrink
import ShrinkTestSupport
import Testing
@testable import ShrinkServer
@testable import ShrinkServerURL

/// The regression files and the corpus `corrupt/` folder through the server: an image or a 4xx with a
/// message, never a crash or a 5xx.
@Suite struct HostileRequestTests {
    @Test(.needsCorpus)
    func corruptAndRegressionFilesGetAnImageOrA4xx() async throws {
        let corpus = try #require(Corpus.root)
        let shared = (corpus as NSString).deletingLastPathComponent
        var c = ServerConfiguration()
        c.localRoot = shared
        c.budget = 128 << 20
        c.concurrency = 2
        let service = try ImageService(configuration: c)
        var files: [String] = []
        for dir in ["corpus/corrupt", "regressions"] {
            let base = shared + "/" + dir
            let e = try #require(FileManager.default.enumerator(atPath: base))
            while let name = e.nextObject() as? String {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isDir), !isDir.boolValue,
                    !name.hasSuffix(".md"), !name.hasSuffix(".txt")
                {
                    files.append(dir + "/" + name)
                }
            }
        }
        #expect(files.count > 100)
        var statuses: [Int: Int] = [:]
        for file in files {
            let escaped = SignedPath.escape("local:///" + file)
            let r = await service.respond(to: Substring("/insecure/rs:fit:64:64/plain/" + escaped))
            statuses[r.status, default: 0] += 1
            #expect(
                r.status == 200 || (400..<500).contains(r.status),
                "\(file): \(r.status) \(String(decoding: r.body.prefix(200), as: UTF8.self))")
            if r.status != 200 { #expect(!r.body.isEmpty, "\(file): an error carries a message") }
        }
        #expect((statuses[200] ?? 0) > 0 && statuses.keys.contains { $0 >= 400 })
    }
}
