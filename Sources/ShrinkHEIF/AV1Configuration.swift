import ShrinkCore

/// An `av1C` box: what an AV1 item's data is before it is decoded — profile, bit depth and chroma
/// subsampling. (The sequence header the box may repeat is in the item's data too, where dav1d reads it.)
package struct AV1Configuration: Sendable, Equatable {
    /// 0 Main (4:2:0 and monochrome), 1 High (4:4:4), 2 Professional (4:2:2, 12-bit).
    package let profile: Int
    /// 8, 10 or 12.
    package let bitDepth: Int
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (as in ``HEVCConfiguration/chromaFormat``).
    package let chromaFormat: Int

    /// Parses the `av1C` payload at `range` of `bytes`. Fails with `.corruptData` when it is shorter than its
    /// 4 fixed bytes, `.unsupportedFeature` for a marker or version other than 1.
    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, path: String) throws(ImageError) {
        var r = BoxReader(bytes, range: range, path: path)
        let marker = try r.u8("av1C marker and version")
        guard marker == 0x81 else {
            throw ImageError(.unsupportedFeature, "\(path): AV1 configuration version \(marker & 0x7F)")
        }
        profile = try r.u8("av1C profile") >> 5
        let flags = try r.u8("av1C depth and subsampling")
        let high = flags & 0x40 != 0, twelve = flags & 0x20 != 0, mono = flags & 0x10 != 0
        let sx = flags & 0x08 != 0, sy = flags & 0x04 != 0
        bitDepth = high ? (twelve ? 12 : 10) : 8
        chromaFormat = mono ? 0 : sx && sy ? 1 : sx ? 2 : 3
        try r.skip(1, "av1C presentation delay")
    }
}
