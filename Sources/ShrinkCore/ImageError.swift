/// The one error type of Shrink: a stable ``Code``, a message that names the file and what was wrong, and
/// the underlying cause when there is one.
///
/// The library never prints and never exits; the CLI maps codes to exit statuses.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
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
    /// ``naming(_:)``, which every `ImageSource` entry point applies.
    public var name: String?

    /// Makes an error; `message` should say what was wrong in one line and may start with the file's name.
    public init(_ code: Code, _ message: String, cause: String? = nil, name: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.name = name
    }

    /// What was wrong without the file's name or path: ``message`` with a leading `NAME: ` removed. For
    /// clients that must not learn where a server keeps its files (an HTTP error body, say).
    public var reason: String {
        guard let name, !name.isEmpty, message.hasPrefix(name + ": ") else { return message }
        return String(message.dropFirst(name.count + 2))
    }

    /// The message with the cause appended, on one line.
    public var description: String {
        if let cause, !cause.isEmpty, !message.contains(cause) { return "\(message): \(cause)" }
        return message
    }

    /// The same error with `path` named at the front of the message, unless it already names it, and
    /// recorded as ``name``.
    public func naming(_ path: String) -> ImageError {
        if message.hasPrefix(path) { return ImageError(code, message, cause: cause, name: path) }
        return ImageError(code, "\(path): \(message)", cause: cause, name: path)
    }
}
