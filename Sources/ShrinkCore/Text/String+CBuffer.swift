extension String {
    /// The text a C function wrote into `buffer`: the bytes before the first NUL (all of them when there is none),
    /// read as UTF-8 with invalid sequences repaired. One pass over the buffer.
    package init(cBuffer buffer: [CChar]) {
        self = buffer.withUnsafeBytes { String(cBytes: $0) }
    }

    /// The text in a C character array held in place, such as a fixed-size field of a C struct read with
    /// `withUnsafeBytes(of:)`: the bytes before the first NUL, as ``init(cBuffer:)`` reads them.
    package init(cBytes bytes: UnsafeRawBufferPointer) {
        self = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
