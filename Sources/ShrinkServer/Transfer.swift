import CShrinkCurl
import Foundation
import Shrink
import ShrinkCore
import Synchronization

/// One hop of a download, driven by libcurl on the calling thread: parses the status line, `Content-Length`
/// and `Location`, and collects a 200 body into a buffer whose bytes are reserved from the download budget
/// before it grows. Its fields are touched only by that thread, but for the cancellation flag.
final class Transfer: @unchecked Sendable {
    let url: String
    let cap: Int
    let downloads: DownloadBudget
    private let cancelled = Atomic<Bool>(false)

    private var status = 0
    private var contentLength: Int?
    private var location: String?
    private var buffer: UnsafeMutableRawBufferPointer?
    private var used = 0
    private var reserved = 0
    private var discarded = 0
    private var failure: ImageError?

    init(url: String, cap: Int, downloads: DownloadBudget) {
        self.url = url
        self.cap = cap
        self.downloads = downloads
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Runs the transfer (blocking) and makes its result: the body, a redirect, or an error.
    func run(pinnedAddress: String, resolve: String?, connect: Duration, firstByte: Duration, total: Duration)
        -> Result<RemoteFetcher.Hop, ImageError>
    {
        var f = cshrink_fetch_t()
        let code: Int32 = url.withCString { u in
            pinnedAddress.withCString { pin in
                ImageService.version.withCString { agent in
                    withOptionalCString(resolve) { r in
                        f.url = u
                        f.pinned_address = pin
                        f.user_agent = agent
                        f.resolve = r
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
                            Unmanaged<Transfer>.fromOpaque(ctx!).takeUnretainedValue().cancelled.load(
                                ordering: .relaxed) ? 1 : 0
                        }
                        return cshrink_fetch(&f)
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

    private func outcome(_ code: Int, message: String) -> Result<RemoteFetcher.Hop, ImageError> {
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
        if (300..<400).contains(status), let location {
            guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString else {
                return .failure(
                    ImageError(.io, "\(url): redirect to a malformed Location", cause: RemoteFetcher.origin))
            }
            return .success(.redirect(next))
        }
        guard status == 200 else {
            return .failure(
                ImageError(
                    status == 404 ? .fileNotFound : .io, "\(url): the origin answered \(status)",
                    cause: RemoteFetcher.origin))
        }
        if let contentLength, used != contentLength {
            return .failure(
                ImageError(
                    .io, "\(url): the body ended after \(used) of \(contentLength) bytes", cause: RemoteFetcher.origin))
        }
        guard let buffer else {
            return .success(.body(ImageBytes([], name: url)))
        }
        self.buffer = nil
        let downloads = self.downloads, reserved = self.reserved
        self.reserved = 0
        return .success(
            .body(ImageBytes(adopting: buffer, count: used, name: url, onRelease: { downloads.release(reserved) })))
    }

    /// A header line: a status line starts a new response (after a 1xx); the fields we need are kept.
    private func header(_ line: UnsafePointer<CChar>, _ length: Int) -> Bool {
        let text = String(decoding: UnsafeRawBufferPointer(start: line, count: length), as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
            contentLength = nil
            location = nil
            return true
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "content-length":
            contentLength = Int(value)
            if status == 200, let n = contentLength, n > cap {
                failure = ImageError(.limitExceeded, "\(url): Content-Length \(n) is above the limit of \(cap) bytes")
                return false
            }
        case "location": location = value
        default: break
        }
        return true
    }

    /// Body bytes: kept for a 200 (the buffer grows by doubling, each growth reserved first), dropped
    /// otherwise (up to 64 KiB, then the transfer stops).
    private func data(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
        guard status == 200 else {
            discarded += length
            return discarded <= 64 << 10
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
