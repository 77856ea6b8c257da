/// Video-range YCbCr (Y 16–235, chroma 16–240: how VP8 and most HEVC streams code samples) widened to the
/// full range of Shrink's yuv420 (JFIF; the BT.601 matrix is the same), through two 256-entry tables.
package enum VideoRange {
    /// Y: (v − 16) × 255/219, rounded and clamped.
    package static let lumaTable: [UInt8] = (0..<256).map {
        UInt8(min(max((Double($0 - 16) * 255 / 219).rounded(), 0), 255))
    }
    /// Chroma: (v − 128) × 255/224 + 128, rounded and clamped.
    package static let chromaTable: [UInt8] = (0..<256).map {
        UInt8(min(max((Double($0 - 128) * 255 / 224 + 128).rounded(), 0), 255))
    }

    /// Widens `count` samples of a luma (`chroma` false) or chroma row into `out`.
    package static func widen(
        _ row: UnsafePointer<UInt8>, count: Int, chroma: Bool, into out: UnsafeMutablePointer<UInt8>
    ) {
        (chroma ? chromaTable : lumaTable).withUnsafeBufferPointer { table in
            for x in 0..<count { out[x] = table[Int(row[x])] }
        }
    }
}
