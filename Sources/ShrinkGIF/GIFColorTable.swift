import ShrinkCore

/// The first frame's colours as 256 RGBA entries (1 KiB), indexed by the frame's pixel values: its colour
/// table's entries, black with full alpha for indices past the table's end, the transparent index with alpha 0
/// (its colour kept), and — when the file has no colour table at all — gray levels equal to the index (what
/// Pillow shows, decoding such files as mode L).
struct GIFColorTable {
    /// 256 × (R, G, B, A).
    private(set) var rgba: [UInt8]

    /// The table for `frame` of the file in `bytes`.
    init(bytes: ImageBytes, frame: GIFFrame) {
        var rgba = [UInt8](repeating: 0, count: 1024)
        for i in 0..<256 { rgba[i * 4 + 3] = 255 }
        if let range = frame.palette {
            let b = bytes.bytes
            // The range was checked against the file by GIFStructure; min() keeps a hand-made frame in bounds too.
            let entries = min(256, (min(range.upperBound, b.count) - range.lowerBound) / 3)
            for i in 0..<max(0, entries) {
                for k in 0..<3 { rgba[i * 4 + k] = b[range.lowerBound + i * 3 + k] }
            }
        } else {
            for i in 0..<256 { for k in 0..<3 { rgba[i * 4 + k] = UInt8(i) } }
        }
        if let t = frame.transparentIndex, (0..<256).contains(t) { rgba[t * 4 + 3] = 0 }
        self.rgba = rgba
    }

    /// The pixel of index `index` in `channels`-byte form (3: RGB, 4: RGBA).
    func pixel(_ index: Int, channels: Int) -> [UInt8] { Array(rgba[index * 4..<index * 4 + channels]) }
}
