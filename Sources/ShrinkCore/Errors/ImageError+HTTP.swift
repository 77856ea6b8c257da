extension ImageError.Code {
    /// The HTTP status a server answers for an error with this code.
    ///
    /// | code | status |
    /// |---|---|
    /// | ``fileNotFound`` | 404 Not Found |
    /// | ``limitExceeded``, ``memoryBudgetExceeded`` | 413 Content Too Large |
    /// | ``unsupportedFormat``, ``unsupportedFeature`` | 415 Unsupported Media Type |
    /// | ``corruptData``, ``truncated`` | 422 Unprocessable Content |
    /// | ``invalidArgument`` | 400 Bad Request |
    /// | ``cancelled`` | 499 (nginx's "client closed request": nobody is left to read it) |
    /// | ``io``, ``encodingFailed``, ``outOfMemory`` | 500 Internal Server Error |
    ///
    /// Pair it with ``ImageError/reason``, which names no server path. `shrink serve` answers these statuses
    /// (and 403, 502, 504 for remote sources refused, failing or timing out).
    public var httpStatus: Int {
        switch self {
        case .fileNotFound: 404
        case .limitExceeded, .memoryBudgetExceeded: 413
        case .unsupportedFormat, .unsupportedFeature: 415
        case .corruptData, .truncated: 422
        case .invalidArgument: 400
        case .cancelled: 499
        default: 500
        }
    }
}
