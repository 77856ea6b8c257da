import ShrinkCore

extension PixelFormat {
    /// True for gray8 and grayAlpha8: pixels colour management takes to gray, with gray profiles.
    package var isGray: Bool { self == .gray8 || self == .grayAlpha8 }
}
