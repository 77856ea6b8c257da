@_spi(Fuzzing) import ShrinkHEIF

/// The HEIF/AVIF container parser on raw bytes, through ``HEIFContainerFuzzing/exercise(_:)`` (in ShrinkHEIF,
/// which keeps its parser `package`): every extent inside the input, every association naming a property that
/// exists, every grid within the tile limit.
enum HEIFContainerHarness {
    static func fuzz(_ bytes: [UInt8]) {
        HEIFContainerFuzzing.exercise(bytes)
    }
}
