import CShrinkCurl
import Foundation
import Shrink
import Synchronization
import ShrinkServerURL

/// Downloads http(s) sources without letting a URL reach inside the network: every hop's host is resolved
/// here, every address it resolves to must pass ``AddressClassifier`` (unless `host:port` is explicitly
/// allowed), and the transfer is pinned to the checked address — curl is told to use it for the host name
/// (TLS still verifies the name) and refuses to open a socket to any other address — so a DNS answer cannot
/// change between the check and the connect. Redirects are followed by hand, at most 5, each re-checked
/// against the allowlist and the classifier. Proxies from the environment are never used.
///
/// Deadlines are Shrink's own: connect, first byte (the first response header line), whole transfer. The body
/// is streamed into one buffer that never grows past ``ServerConfiguration/maxSourceBytes`` (a larger
/// `Content-Length` is refused before reading), reserving its bytes from ``downloads`` as it grows, then handed
/// to the decoder without a copy. Transfers run on threads of their own (libcurl blocks), never on Swift's
/// cooperative pool; ``shutdown()`` cancels the ones in flight and waits for them.
package final class RemoteFetcher: Sendable {
    private let configuration: ServerConfiguration
    /// What downloads may hold; bytes are reserved before the buffer grows and returned when they are freed.
    package let downloads: DownloadBudget
    private let state = Mutex((running: 0, stopping: false))

    package init(configuration: ServerConfiguration, downloads: DownloadBudget) {
        self.configuration = configuration
        self.downloads = downloads
    }

    /// Cancels transfers in flight and waits for their threads to end.
    package func shutdown() async {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) > 0 { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// A loader whose identity is the URL (and the cache buster), fetched when the pipeline loads it.
    package func loader(for url: String, cacheBuster: String? = nil) -> RemoteLoader {
        RemoteLoader(url: url, cacheBuster: cacheBuster, fetcher: self)
    }

    /// The body of `url`, following at most 5 redirects. Errors carry a ``RemoteFetcher`` cause tag
    /// (``refused``, ``timeout``, ``origin``) that the service maps to 403, 504 and 502; too large is
    /// `.limitExceeded`; cancelled is `.cancelled`.
    package func fetch(_ url: String) async throws(ImageError) -> ImageBytes {
        var current = url
        for _ in 0...5 {
            switch try await fetchOnce(current) {
            case .body(let bytes): return bytes
            case .redirect(let next):
                guard configuration.allows(source: next) else {
                    throw ImageError(
                        .io, "\(url): redirected to \(next.prefix(200)), which is not an allowed source",
                        cause: Self.refused)
                }
                current = next
            }
        }
        throw ImageError(.io, "\(url): more than 5 redirects", cause: Self.origin)
    }

    enum Hop { case body(ImageBytes), redirect(String) }

    /// How long an exchange may take to connect, to its first response header line, and in all.
    struct Deadlines {
        var connect: Duration
        var firstByte: Duration
        var total: Duration
    }

    private func fetchOnce(_ url: String) async throws(ImageError) -> Hop {
        let response = try await exchange(url, checksAddress: true)
        if (300..<400).contains(response.status), let location = response.location {
            guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString else {
                throw ImageError(.io, "\(url): redirect to a malformed Location", cause: Self.origin)
            }
            return .redirect(next)
        }
        guard response.status == 200, let body = response.body else {
            throw ImageError(
                response.status == 404 ? .fileNotFound : .io, "\(url): the origin answered \(response.status)",
                cause: Self.origin)
        }
        return .body(body)
    }

    /// One exchange with `url` (http or https) on a thread of its own, under the fetch deadlines, a 200's body
    /// capped at ``ServerConfiguration/maxSourceBytes`` and reserved from ``downloads``. The host's addresses pass
    /// ``AddressClassifier`` when `checksAddress` (a source named by a URL); an endpoint the operator configured
    /// (the object store's) is trusted. Either way the connection is pinned to the address resolved here.
    /// `deadlines` replace the fetch deadlines (connect, first byte, whole exchange) when given.
    func exchange(
        _ url: String, request: Transfer.Request = Transfer.Request(), checksAddress: Bool,
        deadlines: Deadlines? = nil
    ) async throws(ImageError) -> Transfer.Response {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty
        else {
            throw ImageError(.invalidArgument, "\(url): not an http(s) URL")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let address = try await checkedAddress(host: host, port: port, url: url, classifies: checksAddress)
        let transfer = Transfer(url: url, cap: configuration.maxSourceBytes, downloads: downloads, request: request)
        let literal = IPAddress(host) != nil
        let resolve = literal ? nil : "\(host):\(port):\(address.contains(":") ? "[\(address)]" : address)"
        let go = state.withLock { s -> Bool in
            guard !s.stopping else { return false }
            s.running += 1
            return true
        }
        guard go else { throw ImageError(.cancelled, "\(url): the server is shutting down") }
        let d =
            deadlines
            ?? Deadlines(
                connect: configuration.connectTimeout, firstByte: configuration.firstByteTimeout,
                total: configuration.downloadTimeout)
        let result: Result<Transfer.Response, ImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { (k: CheckedContinuation<Result<Transfer.Response, ImageError>, Never>) in
                Thread.detachNewThread {
                    let r = transfer.run(
                        pinnedAddress: address, resolve: resolve, connect: d.connect, firstByte: d.firstByte,
                        total: d.total)
                    self.state.withLock { $0.running -= 1 }
                    k.resume(returning: r)
                }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }

    /// The address to connect to for `host`: the literal itself, or the first of its resolved addresses —
    /// every one of which must pass the classifier (one bad answer refuses the host). `host:port` in
    /// ``ServerConfiguration/allowedPrivateHosts``, or `classifies` false, skips the classifier.
    private func checkedAddress(host: String, port: Int, url: String, classifies: Bool) async throws(ImageError)
        -> String
    {
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            addresses = await Self.resolve(host)
            guard !addresses.isEmpty else {
                throw ImageError(.io, "\(url): cannot resolve \(host)", cause: Self.origin)
            }
        }
        let hostPort = (host.contains(":") ? "[\(host)]" : host).lowercased() + ":\(port)"
        if classifies, !configuration.allowedPrivateHosts.contains(hostPort) {
            for a in addresses {
                if let why = AddressClassifier.refusal(a) {
                    throw ImageError(
                        .io, "\(url): \(host) resolves to \(a), a \(why) address; refused", cause: Self.refused)
                }
            }
        }
        return addresses[0].description
    }

    /// `getaddrinfo` on a thread of its own (it blocks), TCP addresses only.
    static func resolve(_ host: String) async -> [IPAddress] {
        await withCheckedContinuation { c in
            Thread.detachNewThread {
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                var list: UnsafeMutablePointer<addrinfo>?
                var out: [IPAddress] = []
                if getaddrinfo(host, nil, &hints, &list) == 0 {
                    var p = list
                    while let ai = p {
                        // The address's bytes straight from the sockaddr (no text round trip).
                        if ai.pointee.ai_family == AF_INET, let sa = ai.pointee.ai_addr {
                            out.append(
                                sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                                    IPAddress($0.pointee.sin_addr)
                                })
                        } else if ai.pointee.ai_family == AF_INET6, let sa = ai.pointee.ai_addr {
                            out.append(
                                sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                                    IPAddress($0.pointee.sin6_addr)
                                })
                        }
                        p = ai.pointee.ai_next
                    }
                    freeaddrinfo(list)
                }
                c.resume(returning: out)
            }
        }
    }

    /// libcurl's version line (for the start-up summary).
    package static var curlVersion: String { String(cString: cshrink_curl_version()) }

    /// `ImageError.cause` tags of fetch failures, which the service maps to 403, 504 and 502.
    package static let refused = "source refused", timeout = "source timed out", origin = "origin failed"
}
