/// What the server sends for one request, independent of the HTTP library: status, headers, body.
package struct ServerResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (any case).
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// A plain-text response (errors, health).
    package static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> ServerResponse {
        ServerResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
            body: Array((text + "\n").utf8))
    }
}
