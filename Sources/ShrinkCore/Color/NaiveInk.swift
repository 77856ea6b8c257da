/// CMYK to RGB without a profile: each channel is (1 − ink) × (1 − black), what browsers and Pillow do with a CMYK JPEG
/// that carries no ICC profile. A few integer operations a pixel (BENCHMARKS.md, "Figures behind the code"); holds
/// nothing.
package struct NaiveInk: InkConverting {
    package init() {}

    package func convert(_ ink: UnsafePointer<UInt8>, inverted: Bool, into rgb: UnsafeMutablePointer<UInt8>, count: Int)
    {
        // With the stored values s (inverted: s = 255 − ink), light = s_c × s_k / 255, rounded as Pillow does.
        let flip: Int = inverted ? 0 : 255
        for x in 0..<count {
            let k = Int(ink[x * 4 + 3]) ^ flip
            for c in 0..<3 {
                let s = Int(ink[x * 4 + c]) ^ flip
                let t = s * k + 128
                rgb[x * 3 + c] = UInt8(((t >> 8) + t) >> 8)
            }
        }
    }
}
