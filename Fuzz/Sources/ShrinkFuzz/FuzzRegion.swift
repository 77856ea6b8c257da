import Shrink
import ShrinkFuzzSupport

/// A rectangle drawn from a fuzz input's parameters for an image of a given displayed size: mostly inside
/// it (zero parameters give the whole image), sometimes past its edges or negative, and now and then NaN,
/// ±infinity or a huge value, which the API must refuse with `.invalidArgument`.
enum FuzzRegion {
    /// Values no caller should pass, and the edges of what a Double can say.
    static let hostile: [Double] = [
        .nan, .infinity, -.infinity, 1e300, -1e300, .greatestFiniteMagnitude, Double(Int.max), Double(Int.min),
        0x1p53 + 2, -0.0, .ulpOfOne, .leastNonzeroMagnitude, 0.5, -1,
    ]

    /// The rectangle for an image of `size`.
    static func draw(_ input: inout FuzzInput, in size: PixelSize) -> FractionalRect {
        let x = coordinate(&input, extent: Double(size.width)) { $0 }
        let y = coordinate(&input, extent: Double(size.height)) { $0 }
        let width = coordinate(&input, extent: Double(size.width)) { (Double(size.width) - x) * (1 - $0 / Double(size.width)) }
        let height = coordinate(&input, extent: Double(size.height)) { (Double(size.height) - y) * (1 - $0 / Double(size.height)) }
        return FractionalRect(x: x, y: y, width: width, height: height)
    }

    /// One coordinate: a selector byte, then a 16-bit value read as a fraction of `extent` (passed through
    /// `inside`), a pixel count, a signed pixel count, or an index into ``hostile``.
    private static func coordinate(_ input: inout FuzzInput, extent: Double, inside: (Double) -> Double) -> Double {
        let kind = input.byte(), value = input.uint16()
        switch kind % 8 {
        case 0...4: return inside(Double(value) / 65536 * extent)
        case 5: return Double(value)
        case 6: return Double(Int16(bitPattern: value))
        default: return hostile[Int(value) % hostile.count]
        }
    }
}
