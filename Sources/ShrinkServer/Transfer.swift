import CShrinkCurl
import Foundation
import Shrink
import ShrinkCore
import Synchronization

/// One HTTP exchange of a download, driven by libcurl on the calling thread: sends the ``Request`` (a GET, a HEAD,
/// a PUT from memory, with its header lines), parses the status line, `Content-Length`, `Location`, `ETag` and
/// `Last-Modified`, and collects a 200 body into a buffer whose bytes are reserved from the download budget before
/// it grows (another status's body: its first KiB kept as text, the rest dropped). Its fields are touched only by
/// that thread, but for the cancellation flag.
final class Transfer: @unchecked Sendable {
    /// What is sent.
    struct Request {
        /// `GET`, `HEAD` or `PUT`.
        var method = "GET"
        /// Header lines, `Name: value`.
        var headers: [String] = []
        /// A PUT's body.
        var body: [UInt8] = []
    }

    /// What came back: the status, the fields read, and a 200 GET's body.
    struct Response {
        var status: Int
        var location: String?
        var etag: String?
        var lastModified: String?
        /// `x-amz-meta-NAME` fields by NAME (lower case): an object's user metadata in S3.
        var metadata: [String: String] = [:]
        /// A 200's body (nil for a HEAD or another status).
        var body: ImageBytes?
        /// The first KiB of another status's body (an S3 error document names its code there).
        var errorText: String
    }

    let url: String
    let cap: Int
    let downloads: DownloadBudget
    let request: Request
    private let cancelled = Atomic<Bool>(false)

    private var status = 0
    private var contentLength: Int?
    private var location: String?
    private var etag: String?
    private var lastModified: String?
    private var metadata: [String: String] = [:]
    private var buffer: UnsafeMutableRawBufferPointer?
    private var used = 0
    private var reserved = 0
    private var discarded: [UInt8] = []
    private var discardedCount = 0
    private var failure: ImageError?

    init(url: String, cap: Int, downloads: DownloadBudget, request: Request = Request()) {
        self.url = url
        self.cap = cap
        self.downloads = downloads
        self.request = request
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs the exchange (blocking) and makes its result: the response whatever its status, or an error when no
    /// whole response arrived (a deadline, a refused address, the cap, the budget, a cut body, cancellation).
    func run(pinnedAddress: String, resolve: String?, connect: Duration, firstByte: Duration, total: Duration)
        -> Result<Response, ImageError>
    {
        var f = cshrink_fetch_t()
        let lines = request.headers.map { strdup($0) }
        defer { lines.forEach { free($0) } }
        let code: Int32 = url.withCString { u in
            pinnedAddress.withCString { pin in
                ImageService.version.withCString { agent in
                    request.method.withCString { method in
                        withOptionalCString(resolve) { r in
                            lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                                request.body.withUnsafeBufferPointer { body in
                                    f.url = u
                                    f.pinned_address = pin
                                    f.user_agent = agent
                                    f.resolve = r
                                    f.method = method
                                    f.headers = headers.baseAddress
                                    f.header_count = headers.count
                                    f.body = body.baseAddress
                                    f.body_length = body.count
                                    return perform(&f, connect: connect, firstByte: firstByte, total: total)
                                }
                            }
                        }
                    }
                }
            }
        }
        let message = withUnsafeBytes(of: f.error) { raw in
            String(cBytes: raw)
        }
        let result = outcome(Int(code), message: message)
        if case .failure = result { freeBuffer() }
        return result
    }

    private func perform(_ f: inout cshrink_fetch_t, connect: Duration, firstByte: Duration, total: Duration) -> Int32 {
        f.connect_timeout_ms = Self.ms(connect)
        f.first_byte_timeout_ms = Self.ms(firstByte)
        f.total_timeout_ms = Self.ms(total)
        f.context = Unmanaged.passUnretained(self).toOpaque()
        f.on_header = { ctx, line, length in
            Unmanaged<Transfer>.fromOpaque(ctx!).takeUnretainedValue().header(line!, length) ? 1 : 0
        }
        f.on_data = { ctx, data, length in
            Unmanaged<Transfer>.fromOpaque(ctx!).takeUnretainedValue().data(data!, length) ? 1 : 0
        }
        f.is_cancelled = { ctx in
            Unmanaged<Transfer>.fromOpaque(ctx!).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
        }
        return cshrink_fetch(&f)
    }

    private func outcome(_ code: Int, message: String) -> Result<Response, ImageError> {
        if cancelled.load(ordering: .relaxed) {
            return .failure(ImageError(.cancelled, "\(url): request cancelled", name: url))
        }
        if let failure { return .failure(failure) }
        switch code {
        case Int(CSHRINK_FETCH_OK): break
        case Int(CSHRINK_FETCH_REFUSED_ADDRESS):
            return .failure(
                ImageError(
                    .io, "\(url): the connection went to an address that was not checked; refused",
                    cause: RemoteFetcher.refused))
        case Int(CSHRINK_FETCH_CONNECT_TIMEOUT), Int(CSHRINK_FETCH_FIRST_BYTE_TIMEOUT):
            return .failure(ImageError(.io, "\(url): no response in time (\(message))", cause: RemoteFetcher.timeout))
        case Int(CSHRINK_FETCH_TOTAL_TIMEOUT):
            return .failure(
                ImageError(.io, "\(url): the body did not arrive in time (\(message))", cause: RemoteFetcher.timeout))
        default:
            return .failure(ImageError(.io, "\(url): fetch failed (\(message))", cause: RemoteFetcher.origin))
        }
        var response = Response(
            status: status, location: location, etag: etag, lastModified: lastModified, metadata: metadata, body: nil,
            errorText: String(decoding: discarded, as: UTF8.self))
        guard status == 200, request.method != "HEAD" else { return .success(response) }
        if let contentLength, used != contentLength {
            return .failure(
                ImageError(
                    .io, "\(url): the body ended after \(used) of \(contentLength) bytes", cause: RemoteFetcher.origin))
        }
        guard let buffer else {
            response.body = ImageBytes([], name: url)
            return .success(response)
        }
        self.buffer = nil
        let downloads = self.downloads, reserved = self.reserved
        self.reserved = 0
        response.body = ImageBytes(adopting: buffer, count: used, name: url, onRelease: { downloads.release(reserved) })
        return .success(response)
    }

    /// A header line: a status line starts a new response (after a 1xx); the fields we need are kept.
    private func header(_ line: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let text = String(decoding: UnsafeRawBufferPointer(start: line, count: length), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
            contentLength = nil
            location = nil
            etag = nil
            lastModified = nil
            metadata = [:]
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "content-length":
            contentLength = Int(value)
            if status == 200, request.method != "HEAD", let n = contentLength, n > cap {
                failure = ImageError(.limitExceeded, "\(url): Content-Length \(n) is above the limit of \(cap) bytes")
                return false
            }
        case "location": location = value
        case "etag": etag = value
        case "last-modified": lastModified = value
        case _ where name.hasPrefix("x-amz-meta-") && metadata.count < 16:
            metadata[String(name.dropFirst("x-amz-meta-".count))] = value
        default: break
        }
        return true
    }

    /// Body bytes: kept for a 200 (the buffer grows by doubling, each growth reserved first), dropped
    /// otherwise (the first KiB kept as text; after 64 KiB the transfer stops).
    private func data(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
        guard status == 200 else {
            let keep = min(length, max(0, 1024 - discarded.count))
            if keep > 0 {
                discarded += UnsafeRawBufferPointer(start: bytes, count: keep)
            }
            discardedCount += length
            return discardedCount <= 64 << 10
        }
        guard used + length <= cap else {
            failure = ImageError(.limitExceeded, "\(url): the body passed the limit of \(cap) bytes")
            return false
        }
        if let n = contentLength, used + length > n {
            failure = ImageError(
                .io, "\(url): the body is longer than its Content-Length (\(n))", cause: RemoteFetcher.origin)
            return false
        }
        if used + length > (buffer?.count ?? 0) {
            let grown = min(cap, max((buffer?.count ?? 0) * 2, contentLength ?? (256 << 10), used + length))
            do {
                try downloads.reserve(grown - reserved, for: url) { self.cancelled.load(ordering: .relaxed) }
            } catch {
                failure = error
                return false
            }
            reserved = grown
            let next = UnsafeMutableRawBufferPointer.allocate(byteCount: grown, alignment: 16)
            if let old = buffer {
                next.copyMemory(from: UnsafeRawBufferPointer(rebasing: old[0..<used]))
                old.deallocate()
            }
            buffer = next
        }
        UnsafeMutableRawBufferPointer(rebasing: buffer![used..<(used + length)]).copyMemory(
            from: UnsafeRawBufferPointer(start: bytes, count: length))
        used += length
        return true
    }

    private func freeBuffer() {
        buffer?.deallocate()
        buffer = nil
        if reserved > 0 { downloads.release(reserved) }
        reserved = 0
    }

    private static func ms(_ d: Duration) -> Int { max(1, Int(d.inMilliseconds)) }
}

/// `body` with a C string for `text`, or NULL.
private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
