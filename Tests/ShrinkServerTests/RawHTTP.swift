import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over a socket to 127.0.0.1 (tests only ever connect to loopback): the request
/// target is sent byte for byte, as a CDN would forward it.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    static func connect(port: Int) throws -> Int32 {
        try connect(port: port, waiting: true)
    }

    /// A socket to 127.0.0.1:`port` whose connection is under way (non-blocking): for opening many at once.
    static func connectWithoutWaiting(port: Int) throws -> Int32 {
        try connect(port: port, waiting: false)
    }

    private static func connect(port: Int, waiting: Bool) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | (waiting ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 || (!waiting && errno == EINPROGRESS) else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Runs `body` on a thread of its own and returns what it returns: blocking socket calls must never hold
    /// Swift's cooperative pool, which the server under test runs on (two threads on a 2-core machine: two tests
    /// blocking there at once stall every in-process server).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            Thread.detachNewThread { c.resume(with: Result { try body() }) }
        }
    }

    /// GET `target` with `Connection: close`, reading the whole response, on a thread of its own (``onThread(_:)``).
    static func get(port: Int, _ target: String, headers: [String: String] = [:], method: String = "GET")
        async throws -> Response
    {
        try await onThread { try blockingGet(port: port, target, headers: headers, method: method) }
    }

    static func blockingGet(port: Int, _ target: String, headers: [String: String] = [:], method: String = "GET")
        throws -> Response
    {
        let fd = try connect(port: port)
        defer { close(fd) }
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        send(fd, text + "\r\n")
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buf, buf.count, 0)
            if n <= 0 { break }
            data += buf[0..<n]
        }
        return try parse(data)
    }

    /// Sends GETs of `targets` one after another on one kept-alive connection, each after the previous response
    /// (read by its `Content-Length`) arrived; returns the responses and whether the server closed the
    /// connection after the last one. Runs on a thread of its own, like ``get(port:_:headers:)``.
    static func keepAlive(port: Int, _ targets: [(String, [String: String])]) async throws -> (
        [Response], closedAfter: Bool
    ) {
        try await onThread {
            let fd = try connect(port: port)
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var pending: [UInt8] = []
            var buf = [UInt8](repeating: 0, count: 65536)
            var responses: [Response] = []
            for (target, headers) in targets {
                var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                for (k, v) in headers { text += "\(k): \(v)\r\n" }
                send(fd, text + "\r\n")
                while true {
                    // A 304 has no body, and may come without Content-Length.
                    if let r = try? parse(pending),
                        let length = Int(r.headers["content-length"] ?? "") ?? (r.status == 304 ? 0 : nil),
                        r.body.count >= length
                    {
                        let headEnd = pending.count - r.body.count
                        responses.append(
                            Response(
                                status: r.status, headers: r.headers, body: Array(r.body.prefix(length))))
                        pending = Array(pending[(headEnd + length)...])
                        break
                    }
                    let n = recv(fd, &buf, buf.count, 0)
                    guard n > 0 else { throw POSIXError(.ECONNRESET) }
                    pending += buf[0..<n]
                }
            }
            let n = recv(fd, &buf, buf.count, 0)
            return (responses, n == 0)
        }
    }

    static func parse(_ data: [UInt8]) throws -> Response {
        guard
            let end = (0..<max(0, data.count - 3)).first(where: {
                data[$0] == 13 && data[$0 + 1] == 10 && data[$0 + 2] == 13 && data[$0 + 3] == 10
            })
        else {
            throw POSIXError(.EBADMSG)
        }
        let head = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
        }
        return Response(status: status, headers: headers, body: Array(data[(end + 4)...]))
    }
}

/// An origin server on 127.0.0.1 with a port of its own, answering each connection with `handler` (given
/// the request line and the socket) on a thread: slow bodies, endless bodies, lying `Content-Length`,
/// resets and redirects are all a few lines of it. It counts the connections it accepted.
final class RawOrigin: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private final class Counters: Sendable {
        let hits = Mutex(0)
        let stopped = Mutex(false)
    }
    private let counters = Counters()

    init(_ handler: @escaping @Sendable (String, Int32) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(listener, 64)
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
        }
        port = Int(UInt16(bigEndian: bound.sin_port))
        let fd = listener, counters = self.counters
        Thread.detachNewThread {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                if counters.stopped.withLock({ $0 }) { close(c); return }
                counters.hits.withLock { $0 += 1 }
                Thread.detachNewThread {
                    var buf = [UInt8](repeating: 0, count: 8192)
                    var data: [UInt8] = []
                    while !String(decoding: data, as: UTF8.self).contains("\r\n\r\n") {
                        let n = recv(c, &buf, buf.count, 0)
                        if n <= 0 { break }
                        data += buf[0..<n]
                    }
                    let line = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
                    handler(line, c)
                    close(c)
                }
            }
        }
    }

    var hits: Int { counters.hits.withLock { $0 } }

    func stop() {
        counters.stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    /// Writes `text` then `body` to `fd`.
    static func reply(_ fd: Int32, _ text: String, body: [UInt8] = []) {
        RawHTTP.send(fd, text)
        var sent = 0
        while sent < body.count {
            let n = body[sent...].withUnsafeBytes {
                send(fd, $0.baseAddress, min($0.count, 65536), Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            sent += n
        }
    }
}
