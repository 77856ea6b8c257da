extension Hasher {
    /// Feeds `string`'s UTF-8 bytes, after their count, to the hasher: the bytes as they are, where `combine(string)`
    /// feeds a normalised form (so canonically equivalent spellings hash alike). One pass over the bytes.
    package mutating func combine(utf8 string: String) {
        var string = string
        combine(string.utf8.count)
        string.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
