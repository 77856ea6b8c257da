/// A request the server answers with an error status and a message (plain text, one line): a malformed or
/// unsigned URL, a source that is refused or missing, an image that cannot be made.
package struct RequestError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status (400, 403, 404, 410, 413, 415, 422, 500, 502, 503, 504).
    package let status: Int
    /// What was wrong, for the client: no path of the server's files.
    package let message: String
    /// What was wrong, for the server's log (the message with the file's path and a library's cause).
    package let logMessage: String
    /// Seconds after which a retry may succeed (503), sent as `Retry-After`.
    package let retryAfter: Int?
    /// The error follows from the URL alone (malformed, an unknown option, a format that cannot be written): a cache
    /// may keep the answer. Any other error (the source refused, missing, damaged, its origin failing, the server
    /// busy) may change without the URL changing, and is sent `no-store`.
    package private(set) var isPropertyOfURL = false

    package init(_ status: Int, _ message: String, log logMessage: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.logMessage = logMessage ?? message
        self.retryAfter = retryAfter
    }

    /// A URL that is malformed or asks for what cannot be done (an unknown option, a bad argument): 404, as
    /// imgproxy answers it (its "Invalid URL"), so that clients and CDNs see the same statuses; the message says what.
    package static func invalidURL(_ message: String) -> RequestError { RequestError(404, message) }

    /// The same error, marked as following from the URL alone (``isPropertyOfURL``).
    package func ofTheURL() -> RequestError {
        var e = self
        e.isPropertyOfURL = true
        return e
    }

    package var description: String { "\(status): \(message)" }
}
