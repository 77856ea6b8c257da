/// An opaque 8-bit sRGB colour: a background for flattening transparency.
public struct RGBColor: Sendable, Hashable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// A colour of 8-bit sRGB components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// White (255, 255, 255).
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    /// Parses `rrggbb` hex (six digits, any case, no `#`); nil otherwise.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        self.init(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xFF), blue: UInt8(v & 0xFF))
    }

    /// Six lowercase hex digits.
    public var hex: String {
        [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
