import Shrink
import ShrinkFuzzSupport

/// A rectangle drawn from a fuzz input's parameters for an image of a given displayed size: mostly inside
/// it (zero parameters give the whole image), sometimes past its edges or negative, and now and then a value
/// at the edges of `Int` (whose sums overflow), which the API must refuse with `.invalidArgument`.
enum FuzzRegion {
    /// Values no caller should pass.
    static let hostile: [Int] = [
        Int.max, Int.min, Int.max - 1, Int.min + 1, -1, 0, 1 << 62, -(1 << 62), Int(Int32.max) + 1,
    ]

    /// The rectangle for an image of `size`.
    static func draw(_ input: inout FuzzInput, in size: PixelSize) -> PixelRect {
        let x = coordinate(&input, extent: size.width) { $0 }
        let y = coordinate(&input, extent: size.height) { $0 }
        let width = coordinate(&input, extent: size.width) { (size.width &- x) &- $0 }
        let height = coordinate(&input, extent: size.height) { (size.height &- y) &- $0 }
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// One coordinate: a selector byte, then a 16-bit value read as a fraction of `extent` (passed through
    /// `inside`), a pixel count, a signed pixel count, or an index into ``hostile``.
    private static func coordinate(_ input: inout FuzzInput, extent: Int, inside: (Int) -> Int) -> Int {
        let kind = input.byte(), value = input.uint16()
        switch kind % 8 {
        case 0...4: return inside(Int(value) * extent / 65536)
        case 5: return Int(value)
        case 6: return Int(Int16(bitPattern: value))
        default: return hostile[Int(value) % hostile.count]
        }
    }
}
