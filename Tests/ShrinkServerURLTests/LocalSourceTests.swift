import Foundation
import Testing
@testable import ShrinkServerURL

/// Path traversal under the local root: `..`, `%2e%2e`, encoded slashes and symlinks out of the root; hidden files.
@Suite struct LocalSourceTests {
    let dir: String
    let local: LocalSource

    init() throws {
        dir = NSTemporaryDirectory() + "shrink-local-\(UInt32.random(in: 0...UInt32.max))"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/root/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        _ = fm.createFile(atPath: dir + "/root/sub/a.jpg", contents: Data([1, 2, 3]))
        _ = fm.createFile(atPath: dir + "/outside/secret.jpg", contents: Data([4, 5, 6]))
        try fm.createSymbolicLink(atPath: dir + "/root/escape.jpg", withDestinationPath: dir + "/outside/secret.jpg")
        try fm.createSymbolicLink(atPath: dir + "/root/escapedir", withDestinationPath: dir + "/outside")
        try fm.createSymbolicLink(atPath: dir + "/root/inside.jpg", withDestinationPath: dir + "/root/sub/a.jpg")
        try fm.createDirectory(atPath: dir + "/root/.git", withIntermediateDirectories: true)
        _ = fm.createFile(atPath: dir + "/root/.hidden.jpg", contents: Data([7]))
        _ = fm.createFile(atPath: dir + "/root/.git/b.jpg", contents: Data([8]))
        _ = fm.createFile(atPath: dir + "/root/sub/.upload-1.part", contents: Data([9]))
        try fm.createSymbolicLink(atPath: dir + "/root/shown.jpg", withDestinationPath: dir + "/root/.hidden.jpg")
        _ = fm.createFile(atPath: dir + "/root/.\u{301}x.jpg", contents: Data([10]))
        local = try LocalSource(root: dir + "/root")
    }

    /// Parses a request target as the server does (percent-decoding included), then resolves its source.
    private func status(_ source: String) -> Int {
        do {
            let url = try ProcessingURL(Substring("/insecure/w:10/plain/" + source))
            _ = try local.resolve(url.source)
            return 200
        } catch {
            return error.status
        }
    }

    @Test func insideTheRootResolves() throws {
        #expect(try local.resolve("local:///sub/a.jpg").hasSuffix("/root/sub/a.jpg"))
        #expect(try local.resolve("local:///inside.jpg").hasSuffix("/root/sub/a.jpg"))
        #expect(status("local:///sub%2Fa.jpg") == 200)
    }

    @Test func traversalIsRefused() {
        #expect(status("local:///../outside/secret.jpg") == 403)
        #expect(status("local:///sub/../../outside/secret.jpg") == 403)
        #expect(status("local:///%2e%2e/outside/secret.jpg") == 403)
        #expect(status("local:///%2E%2E%2Foutside%2Fsecret.jpg") == 403)
        #expect(status("local:///sub/..%2f..%2foutside/secret.jpg") == 403)
        #expect(status("local:///escape.jpg") == 403)
        #expect(status("local:///escapedir/secret.jpg") == 403)
        #expect(status("local:///../../../../../../etc/passwd") == 403)
    }

    /// Security review, hole 5: the image route served dotfiles and the gallery's upload temporaries, which the
    /// gallery hides. Any component starting with `.`, asked for or reached through a symlink, is 403.
    @Test func hiddenFilesAreRefused() {
        for source in [
            "local:///.hidden.jpg", "local:///.git/b.jpg", "local:///sub/.upload-1.part", "local:///shown.jpg",
            "local:///%2Ehidden.jpg", "local:///sub/../sub/a.jpg", "local:///sub/./a.jpg", "local:///.\u{301}x.jpg",
        ] {
            #expect(status(source) == 403, "\(source)")
        }
        #expect(status("local:///sub/a.jpg") == 200)
    }

    @Test func missingAndMalformed() {
        #expect(status("local:///nope.jpg") == 404)
        #expect(status("local:///sub") == 404) // a directory is not an image
        #expect(status("local://sub/a.jpg") == 404) // two slashes: a host, not a path
        #expect(status("local:///a%00b.jpg") == 404)
    }
}
