@_spi(Fuzzing) import Shrink

/// ICC profiles from files, through lcms2: ``ColorFuzzing/exercise(_:)`` (in ShrinkColor, which keeps its
/// colour machinery `package`) parses them, applies them to small images in every format, uses them as CMYK ink
/// profiles, and reads the first bytes as coded colour; pixels must keep their format and size.
enum ICCProfileHarness {
    static func fuzz(_ bytes: [UInt8]) {
        ColorFuzzing.exercise(bytes)
    }
}
