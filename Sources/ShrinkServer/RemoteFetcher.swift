import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Shrink

/// Downloads http(s) sources without letting a URL reach inside the network: every hop's host is resolved
/// here, every address it resolves to must pass ``AddressClassifier`` (unless `host:port` is explicitly
/// allowed), and the connection is pinned to the checked address (AsyncHTTPClient's `dnsOverride`, so TLS
/// still verifies the name) — a DNS answer cannot change between the check and the connect. Redirects are
/// followed by hand, at most 5, each re-checked against the allowlist and the classifier.
///
/// Deadlines are Shrink's own: connect, first byte (response head), whole body. The body is streamed into
/// one buffer that never grows past ``ServerConfiguration/maxSourceBytes`` (a larger `Content-Length` is
/// refused before reading), then handed to the decoder without a copy. The fetcher has its own event loop
/// group, shut down with it — never the shared singleton.
package final class RemoteFetcher: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let configuration: ServerConfiguration
    /// Called with each address a hop is about to connect to (tests check that no refused address is ever
    /// connected to).
    private let onConnect: (@Sendable (String) -> Void)?

    package init(configuration: ServerConfiguration, onConnect: (@Sendable (String) -> Void)? = nil) {
        self.configuration = configuration
        self.onConnect = onConnect
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    package func shutdown() async {
        try? await group.shutdownGracefully()
    }

    /// A loader whose identity is the URL (and the cache buster), fetched when the pipeline loads it.
    package func loader(for url: String, cacheBuster: String? = nil) -> RemoteLoader {
        RemoteLoader(url: url, cacheBuster: cacheBuster, fetcher: self)
    }

    /// The body of `url`, following at most 5 redirects. Errors are `.io` (refused, unreachable, timed out,
    /// HTTP error), `.limitExceeded` (too large).
    package func fetch(_ url: String) async throws(ImageError) -> ImageBytes {
        var current = url
        for _ in 0...5 {
            switch try await fetchOnce(current) {
            case .body(let bytes): return bytes
            case .redirect(let next):
                guard configuration.allowedSources.contains(where: { next.hasPrefix($0) }) else {
                    throw ImageError(.io, "\(url): redirected to \(next.prefix(200)), which is not an allowed source", cause: Self.refused)
                }
                current = next
            }
        }
        throw ImageError(.io, "\(url): more than 5 redirects", cause: Self.origin)
    }

    private enum Hop { case body(ImageBytes), redirect(String) }

    private func fetchOnce(_ url: String) async throws(ImageError) -> Hop {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", var host = components.host, !host.isEmpty else {
            throw ImageError(.invalidArgument, "\(url): not an http(s) URL")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let address = try await checkedAddress(host: host, port: port, url: url)
        onConnect?(address)

        var clientConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                           timeout: .init(connect: Self.amount(configuration.connectTimeout)))
        if IPAddress(host) == nil { clientConfiguration.dnsOverride = [host: address] }
        let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: clientConfiguration)
        defer { Task { try? await client.shutdown() } }
        var request = HTTPClientRequest(url: IPAddress(host) == nil ? url : url)
        request.headers.add(name: "User-Agent", value: ImageService.version)
        request.headers.add(name: "Accept", value: "image/*")
        do {
            let response = try await firstByte(of: request, on: client, url: url)
            if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
                guard let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString else {
                    throw ImageError(.io, "\(url): redirect to a malformed Location", cause: Self.origin)
                }
                return .redirect(next)
            }
            guard response.status == .ok else {
                throw ImageError(response.status == .notFound ? .fileNotFound : .io,
                                 "\(url): the origin answered \(response.status.code) \(response.status.reasonPhrase)", cause: Self.origin)
            }
            let cap = configuration.maxSourceBytes
            let declared = response.headers.first(name: "Content-Length").flatMap(Int.init)
            if let declared, declared > cap {
                throw ImageError(.limitExceeded, "\(url): Content-Length \(declared) is above the limit of \(cap) bytes")
            }
            return .body(try await readBody(response.body, declared: declared, cap: cap, url: url))
        } catch let error as ImageError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw ImageError(.io, "\(url): no response within \(configuration.firstByteTimeout)", cause: Self.timeout)
        } catch let error as HTTPClientError where error == .connectTimeout {
            throw ImageError(.io, "\(url): could not connect within \(configuration.connectTimeout)", cause: Self.timeout)
        } catch {
            throw ImageError(.io, "\(url): fetch failed (\(String(describing: error).prefix(120)))", cause: Self.origin)
        }
    }

    /// The response head of `request`, within the first-byte deadline (our own timer: a race that cancels the
    /// request when it fires, whatever state the client is in).
    private func firstByte(of request: HTTPClientRequest, on client: HTTPClient, url: String) async throws -> HTTPClientResponse {
        let deadline = configuration.firstByteTimeout
        return try await withThrowingTaskGroup(of: HTTPClientResponse?.self) { group in
            group.addTask { try await client.execute(request, timeout: Self.amount(deadline) + .seconds(1)) }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw ImageError(.io, "\(url): no response within \(deadline)", cause: Self.timeout)
            }
            return response
        }
    }

    /// Streams the body into one buffer (sized by `Content-Length` when declared), within the download
    /// deadline and the byte cap; a body shorter or longer than declared is an error.
    private func readBody(_ body: HTTPClientResponse.Body, declared: Int?, cap: Int, url: String) async throws -> ImageBytes {
        let deadline = configuration.downloadTimeout
        return try await withThrowingTaskGroup(of: ImageBytes?.self) { group in
            group.addTask {
                var capacity = min(cap, max(1, declared ?? (256 << 10)))
                var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
                var used = 0
                do {
                    for try await chunk in body {
                        guard used + chunk.readableBytes <= cap else {
                            throw ImageError(.limitExceeded, "\(url): the body passed the limit of \(cap) bytes")
                        }
                        if let declared, used + chunk.readableBytes > declared {
                            throw ImageError(.io, "\(url): the body is longer than its Content-Length (\(declared))", cause: Self.origin)
                        }
                        if used + chunk.readableBytes > capacity {
                            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(cap, max(capacity * 2, used + chunk.readableBytes)), alignment: 16)
                            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
                            buffer.deallocate()
                            buffer = grown
                            capacity = grown.count
                        }
                        chunk.withUnsafeReadableBytes { raw in
                            UnsafeMutableRawBufferPointer(rebasing: buffer[used..<(used + raw.count)]).copyMemory(from: raw)
                        }
                        used += chunk.readableBytes
                    }
                } catch {
                    buffer.deallocate()
                    throw error
                }
                if let declared, used != declared {
                    buffer.deallocate()
                    throw ImageError(.io, "\(url): the body ended after \(used) of \(declared) bytes", cause: Self.origin)
                }
                return ImageBytes(adopting: buffer, count: used, name: url)
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else {
                throw ImageError(.io, "\(url): the body did not arrive within \(deadline)", cause: Self.timeout)
            }
            return bytes
        }
    }

    /// The address to connect to for `host`: the literal itself, or the first of its resolved addresses —
    /// every one of which must pass the classifier (one bad answer refuses the host). `host:port` in
    /// ``ServerConfiguration/allowedPrivateHosts`` skips the classifier.
    private func checkedAddress(host: String, port: Int, url: String) async throws(ImageError) -> String {
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            addresses = await Self.resolve(host)
            guard !addresses.isEmpty else { throw ImageError(.io, "\(url): cannot resolve \(host)", cause: Self.origin) }
        }
        let hostPort = (host.contains(":") ? "[\(host)]" : host).lowercased() + ":\(port)"
        if !configuration.allowedPrivateHosts.contains(hostPort) {
            for a in addresses {
                if let why = AddressClassifier.refusal(a) {
                    throw ImageError(.io, "\(url): \(host) resolves to \(a), a \(why) address; refused", cause: Self.refused)
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
                        var buf = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                        if ai.pointee.ai_family == AF_INET, let sa = ai.pointee.ai_addr {
                            sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { var a = $0.pointee.sin_addr; inet_ntop(AF_INET, &a, &buf, socklen_t(buf.count)) }
                        } else if ai.pointee.ai_family == AF_INET6, let sa = ai.pointee.ai_addr {
                            sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { var a = $0.pointee.sin6_addr; inet_ntop(AF_INET6, &a, &buf, socklen_t(buf.count)) }
                        }
                        if let ip = IPAddress(String(cString: buf)) { out.append(ip) }
                        p = ai.pointee.ai_next
                    }
                    freeaddrinfo(list)
                }
                c.resume(returning: out)
            }
        }
    }

    /// `ImageError.cause` tags of fetch failures, which the service maps to 403, 504 and 502.
    package static let refused = "source refused", timeout = "source timed out", origin = "origin failed"

    private static func amount(_ d: Duration) -> TimeAmount {
        let (s, a) = d.components
        return .nanoseconds(s * 1_000_000_000 + a / 1_000_000_000)
    }
}
