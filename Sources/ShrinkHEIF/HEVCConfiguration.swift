import ShrinkCore

/// An `hvcC` box: what an HEVC item's data needs before it can be decoded — chroma format, bit depths, the
/// size of the length field before each NAL unit, and the parameter sets (VPS, SPS, PPS) to give the decoder
/// first. The parameter sets stay in the file (ranges).
package struct HEVCConfiguration: Sendable, Equatable {
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    package let chromaFormat: Int
    package let bitDepthLuma: Int
    package let bitDepthChroma: Int
    /// Bytes of the big-endian length before each NAL unit of the item's data (1, 2 or 4).
    package let lengthSize: Int
    /// The parameter-set NAL units, in order, with their NAL unit types (32 VPS, 33 SPS, 34 PPS, 39 SEI…).
    package let parameterSets: [(type: Int, range: Range<Int>)]

    package static func == (a: HEVCConfiguration, b: HEVCConfiguration) -> Bool {
        a.chromaFormat == b.chromaFormat && a.bitDepthLuma == b.bitDepthLuma && a.bitDepthChroma == b.bitDepthChroma
            && a.lengthSize == b.lengthSize && a.parameterSets.map(\.type) == b.parameterSets.map(\.type)
            && a.parameterSets.map(\.range) == b.parameterSets.map(\.range)
    }

    /// Parses the `hvcC` payload at `range` of `bytes`. Fails with `.corruptData` when a field or a NAL unit
    /// runs past the box, `.unsupportedFeature` for a configuration version other than 1 or a length size of 3.
    package init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, path: String) throws(ImageError) {
        var r = BoxReader(bytes, range: range, path: path)
        let version = try r.u8("hvcC version")
        guard version == 1 else {
            throw ImageError(.unsupportedFeature, "\(path): HEVC configuration version \(version)")
        }
        try r.skip(1 + 4 + 6 + 1, "hvcC profile, compatibility, constraints and level")
        try r.skip(2 + 1, "hvcC segmentation and parallelism")
        chromaFormat = try r.u8("hvcC chroma format") & 3
        bitDepthLuma = (try r.u8("hvcC luma depth") & 7) + 8
        bitDepthChroma = (try r.u8("hvcC chroma depth") & 7) + 8
        try r.skip(2, "hvcC frame rate")
        let lengthSize = (try r.u8("hvcC length size") & 3) + 1
        guard lengthSize != 3 else { throw ImageError(.unsupportedFeature, "\(path): HEVC NAL length size of 3 bytes") }
        self.lengthSize = lengthSize
        let arrays = try r.u8("hvcC array count")
        var sets: [(type: Int, range: Range<Int>)] = []
        for _ in 0..<arrays {
            let type = try r.u8("hvcC NAL unit type") & 0x3F
            let count = try r.u16("hvcC NAL unit count")
            for _ in 0..<count {
                let length = try r.u16("hvcC NAL unit length")
                sets.append((type, try r.range(length, "hvcC NAL unit")))
            }
        }
        parameterSets = sets
    }

    /// The NAL units of `data` (an item's bytes: each unit after a `lengthSize`-byte big-endian length), as
    /// ranges of `data`. Fails with `.corruptData` when a length runs past the data, `.limitExceeded` past
    /// `maxUnits`.
    package func nalUnits(in data: UnsafeRawBufferPointer, path: String, maxUnits: Int = 4096) throws(ImageError)
        -> [Range<Int>]
    {
        var units: [Range<Int>] = []
        var r = BoxReader(data, range: 0..<data.count, path: path)
        while r.remaining > 0 {
            guard units.count < maxUnits else {
                throw ImageError(.limitExceeded, "\(path): more than \(maxUnits) HEVC NAL units in one item")
            }
            let length = try r.uint(size: lengthSize, "HEVC NAL unit length")
            units.append(try r.range(length, "HEVC NAL unit"))
        }
        return units
    }
}
