import Foundation
@_spi(Fuzzing) import ShrinkServerURL

/// Request targets as `shrink serve` receives them (any bytes): the imgproxy URL parser, presets, signatures,
/// `local:///` resolution under a root that holds a file, a subfolder and a symlink pointing out of it, address
/// parsing and classification, `If-None-Match` matching (``ServerFuzzing/exercise(_:)``). A refusal is the
/// expected answer to most inputs; a trap (a broken invariant), hang or leak is a finding.
enum ServerURLHarness {
    /// A root made once per process under the temporary directory: `a.jpg`, `sub/b.jpg`, `out` → `/etc`.
    static let root: String = {
        let root = NSTemporaryDirectory() + "shrink-fuzz-url-\(getpid())"
        let files = FileManager.default
        try? files.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        _ = files.createFile(atPath: root + "/a.jpg", contents: Data([0xFF, 0xD8]))
        _ = files.createFile(atPath: root + "/sub/b.jpg", contents: Data([0xFF, 0xD8]))
        try? files.createSymbolicLink(atPath: root + "/out", withDestinationPath: "/etc")
        ServerFuzzing.setLocalRoot(root)
        return root
    }()

    static func fuzz(_ bytes: [UInt8]) {
        _ = root
        ServerFuzzing.exercise(bytes)
    }
}
