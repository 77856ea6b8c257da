import Foundation
import Shrink
import ShrinkCore
import ShrinkServerURL
import Synchronization

/// The pipeline's shared tier in an S3-compatible bucket (`SHRINK_RESULT_STORE=s3://BUCKET[/PREFIX]`): each result
/// is an object named by the SHA-256 of its cache key under the prefix — content-addressed, so two nodes writing
/// the same key write the same name and either write is a whole result (a plain PUT is idempotent by construction;
/// no conditional put is needed). The object carries its format, pixel size and the SHA-256 of its bytes as user
/// metadata; a result read back is served only when its length matches the response's `Content-Length` (the
/// transfer checks it) and its bytes hash to the stored checksum: a torn or altered object is a miss, decoded again
/// and written over.
///
/// Failure is not an outage: lookups and writes have short deadlines of their own, failures are counted, and after
/// five in a row a ``CircuitBreaker`` stops asking for 30 s (requests decode as without a store). Writes run in the
/// background, at most 16 at once (more are skipped), results larger than ``maxObjectBytes`` are not written.
/// Eviction is the bucket's business (its lifecycle rules; docs/SCALING.md).
package final class S3ResultStore: SharedResultStore {
    /// What the store did, for `/metrics`.
    package struct Statistics: Sendable, Equatable {
        package var hits = 0
        package var misses = 0
        /// Objects that failed their check (length or checksum): treated as misses.
        package var rejected = 0
        package var errors = 0
        package var writes = 0
        package var writeErrors = 0
        /// Lookups and writes not tried: the breaker open, too many writes in flight, a result too large.
        package var skipped = 0
    }

    let client: ObjectStoreClient
    package let bucket: String
    package let prefix: String
    /// Largest result written.
    package let maxObjectBytes: Int
    let breaker: CircuitBreaker
    private let deadlines: RemoteFetcher.Deadlines
    private let stats = Mutex(Statistics())
    private let writing = Atomic<Int>(0)
    private static let maxWritesInFlight = 16

    package init(
        client: ObjectStoreClient, bucket: String, prefix: String, maxObjectBytes: Int = 16 << 20,
        timeout: Duration = .seconds(2), breaker: CircuitBreaker = CircuitBreaker()
    ) {
        self.client = client
        self.bucket = bucket
        self.prefix = prefix
        self.maxObjectBytes = maxObjectBytes
        self.breaker = breaker
        deadlines = RemoteFetcher.Deadlines(connect: min(timeout, .seconds(1)), firstByte: timeout, total: timeout * 2)
    }

    package var statistics: Statistics { stats.withLock { $0 } }

    /// True while the breaker keeps requests from the store.
    package var isBypassed: Bool { breaker.isOpen }

    /// The object a result of `key` is stored as.
    package func location(for key: String) -> S3Location {
        S3Location(bucket: bucket, key: (prefix.isEmpty ? "" : prefix + "/") + SHA256.hex(Array(key.utf8)))
    }

    package func result(for key: String) async -> [UInt8]? {
        guard breaker.allows() else {
            count { $0.skipped += 1 }
            return nil
        }
        let response: Transfer.Response
        do {
            response = try await client.send("GET", location(for: key), deadlines: deadlines)
        } catch {
            if error.code != .cancelled { breaker.failed() }
            count { $0.errors += 1 }
            return nil
        }
        switch response.status {
        case 200:
            breaker.succeeded()
        case 404:
            breaker.succeeded()
            count { $0.misses += 1 }
            return nil
        default:
            breaker.failed()
            count { $0.errors += 1 }
            return nil
        }
        guard let body = response.body else { return nil }
        let bytes = [UInt8](body.bytes)
        guard let checksum = response.metadata["shrink-sha256"], SHA256.hex(bytes) == checksum,
            response.metadata["shrink-length"] == String(bytes.count)
        else {
            count { $0.rejected += 1 }
            return nil
        }
        count { $0.hits += 1 }
        return bytes
    }

    package func store(_ image: EncodedImage, for key: String) {
        guard image.bytes.count <= maxObjectBytes else {
            count { $0.skipped += 1 }
            return
        }
        guard writing.add(1, ordering: .relaxed).newValue <= Self.maxWritesInFlight else {
            writing.subtract(1, ordering: .relaxed)
            count { $0.skipped += 1 }
            return
        }
        guard breaker.allows() else {
            writing.subtract(1, ordering: .relaxed)
            count { $0.skipped += 1 }
            return
        }
        let location = location(for: key)
        Task.detached {
            defer { self.writing.subtract(1, ordering: .relaxed) }
            await self.put(image, at: location)
        }
    }

    /// The PUT of `image` with its metadata, counted, its outcome told to the breaker.
    private func put(_ image: EncodedImage, at location: S3Location) async {
        // One hash of the bytes: the checksum readers verify, and the payload hash the signature covers.
        let checksum = SHA256.hex(image.bytes)
        let metadata: [(name: String, value: String)] = [
            ("x-amz-meta-shrink-sha256", checksum),
            ("x-amz-meta-shrink-length", String(image.bytes.count)),
            ("x-amz-meta-shrink-format", image.format.name),
            ("x-amz-meta-shrink-size", "\(image.size.width)x\(image.size.height)"),
        ]
        do {
            let response = try await client.send(
                "PUT", location, extra: ["Content-Type: \(image.mimeType)"], signed: metadata, body: image.bytes,
                bodyHash: checksum, deadlines: deadlines)
            guard response.status == 200 else {
                breaker.failed()
                count { $0.writeErrors += 1 }
                return
            }
            breaker.succeeded()
            count { $0.writes += 1 }
        } catch {
            breaker.failed()
            count { $0.writeErrors += 1 }
        }
    }

    private func count(_ change: (inout Statistics) -> Void) { stats.withLock { change(&$0) } }
}
