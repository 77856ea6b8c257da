/// The one error type of Shrink: a stable ``Code``, a message that names the file and what was wrong, and
/// the underlying cause when there is one.
///
/// Every throwing API declares `throws(ImageError)`, so a `do throws(ImageError)` block catches it typed:
///
/// ```swift
/// do throws(ImageError) {
///     let thumb = try source.thumbnail(maxPixelSize: 256)
/// } catch {
///     switch error.code {
///     case .limitExceeded, .memoryBudgetExceeded: print("too large:", error.reason)
///     default: print(error)               // the message, with the file's name
///     }
/// }
/// ```
///
/// ``message`` names the file; ``reason`` is the same without it, for clients that must not learn where a
/// server keeps its files; `code.httpStatus` is the status a server answers. A ``DataLoading`` of your own
/// reports its failures as `ImageError`s too, carrying its own error as ``underlying``.
///
/// The library never prints and never exits; the CLI maps codes to exit statuses.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is. A struct over a private enum so that codes can be added without
    /// breaking exhaustive switches in user code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case fileNotFound, io, unsupportedFormat, unsupportedFeature, corruptData, truncated
            case limitExceeded, memoryBudgetExceeded, invalidArgument, encodingFailed, outOfMemory, cancelled
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The file does not exist or cannot be opened.
        public static let fileNotFound = Code(.fileNotFound)
        /// Reading or writing failed (permissions, disk full, mmap failure).
        public static let io = Code(.io)
        /// The bytes are not an image format Shrink decodes.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// A valid file using a feature Shrink does not support (12-bit or lossless JPEG, say).
        public static let unsupportedFeature = Code(.unsupportedFeature)
        /// The data is malformed.
        public static let corruptData = Code(.corruptData)
        /// The data ends before the image does.
        public static let truncated = Code(.truncated)
        /// A configured limit (pixels, dimensions, input bytes) was exceeded; checked from the header.
        public static let limitExceeded = Code(.limitExceeded)
        /// Decoding would need more working memory than the configured budget allows.
        public static let memoryBudgetExceeded = Code(.memoryBudgetExceeded)
        /// The request itself is invalid (a zero target size, say).
        public static let invalidArgument = Code(.invalidArgument)
        /// An encoder failed.
        public static let encodingFailed = Code(.encodingFailed)
        /// An allocation failed.
        public static let outOfMemory = Code(.outOfMemory)
        /// The work was cancelled before it finished (every waiter gave up); nothing it made was kept.
        public static let cancelled = Code(.cancelled)

        /// A short stable name, e.g. `corruptData`.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// One line naming the file (when known) and what was wrong.
    public var message: String
    /// The lower-level error text (a libjpeg message, an errno string), when there is one.
    public var cause: String?
    /// The file the error is about (its path, or the name given to bytes in memory), when known: set by
    /// ``naming(_:)``, which every `ImageSource` entry point and the pipeline apply.
    public var name: String?
    /// The error a lower layer threw, when there was one: what a ``DataLoading`` of your own caught from its
    /// HTTP client or database, kept for logs and for `catch` clauses that look for it. It takes no part in
    /// `==` (errors compare by code, message, cause and name).
    public var underlying: (any Error)?

    /// Makes an error; `message` should say what was wrong in one line and may start with the file's name.
    /// `underlying` keeps the error that caused this one (a loader's own).
    public init(
        _ code: Code, _ message: String, cause: String? = nil, name: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.name = name
        self.underlying = underlying
    }

    /// Errors are equal when their code, message, cause and name are: the underlying error is not compared.
    public static func == (a: ImageError, b: ImageError) -> Bool {
        a.code == b.code && a.message == b.message && a.cause == b.cause && a.name == b.name
    }

    /// What was wrong without the file's name or path: ``message`` with a leading `NAME: ` removed. For
    /// clients that must not learn where a server keeps its files (an HTTP error body, say).
    public var reason: String {
        guard let name, !name.isEmpty, message.hasPrefix(name) else { return message }
        // `NAME: what`, or `NAME (EXIF thumbnail): what` for an error of an image inside the file.
        var rest = message.dropFirst(name.count)
        while !rest.isEmpty {
            if rest.hasPrefix(": ") { return String(rest.dropFirst(2)) }
            rest = rest.dropFirst()
        }
        return message
    }

    /// The message with the cause appended, on one line.
    public var description: String {
        if let cause, !cause.isEmpty, !message.contains(cause) { return "\(message): \(cause)" }
        return message
    }

    /// The same error with `path` named at the front of the message, unless it already names it, and
    /// recorded as ``name``.
    public func naming(_ path: String) -> ImageError {
        var named = self
        named.name = path
        if !message.hasPrefix(path) { named.message = "\(path): \(message)" }
        return named
    }

    /// `Shrink.ImageError(code: …, message: …)`, with the cause and the underlying error when there are
    /// some: what `String(reflecting:)`, `dump` and test failures print.
    public var debugDescription: String {
        var text = "Shrink.ImageError(code: .\(code), message: \(String(reflecting: message))"
        if let cause { text += ", cause: \(String(reflecting: cause))" }
        if let underlying { text += ", underlying: \(String(reflecting: underlying))" }
        return text + ")"
    }
}
