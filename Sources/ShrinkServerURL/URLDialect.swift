/// Which URL scheme a request speaks: imgproxy's or thumbor's, told apart by shape (``ThumborURL/recognizes(_:)``).
package enum URLDialect: String, Sendable {
    case imgproxy
    case thumbor
}
