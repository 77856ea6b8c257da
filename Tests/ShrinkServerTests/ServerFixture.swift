import Dispatch
import Foundation
import Shrink
import ShrinkTestSupport
import Synchronization
@testable import ShrinkServer

/// A temporary local root with generated JPEGs, and services over it whose decodes are counted.
final class ServerFixture: @unchecked Sendable {
    let root: String
    let decodes = Mutex(0)
    /// When set, every decode waits for it before starting (to hold the queue full).
    let hold = Mutex<DispatchSemaphore?>(nil)

    init() throws {
        root = NSTemporaryDirectory() + "shrink-serve-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try write("a.jpg", try TestImages.jpeg(TestImages.pattern(width: 400, height: 300)))
        try write("b.jpg", try TestImages.jpeg(TestImages.pattern(width: 640, height: 480)))
        try write("tall.jpg", try TestImages.jpeg(TestImages.pattern(width: 300, height: 400), orientation: 6))
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + name))
    }

    /// A service over the root (signing off unless `configure` sets keys), counting decodes.
    func service(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> ImageService {
        var c = ServerConfiguration()
        c.localRoot = root
        c.budget = 256 << 20
        c.concurrency = 2
        configure(&c)
        return try ImageService(configuration: c) { [self] event in
            if case .decodeStarted = event {
                decodes.withLock { $0 += 1 }
                if let gate = hold.withLock({ $0 }) { gate.wait(); gate.signal() }
            }
        }
    }

    var decodeCount: Int { decodes.withLock { $0 } }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// The pixel size of an encoded response body.
func imageSize(_ body: [UInt8]) throws -> PixelSize {
    try ImageSource(bytes: ImageBytes(body), name: "response").info.displayedSize
}
