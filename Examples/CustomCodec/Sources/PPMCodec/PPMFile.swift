import Shrink

/// A binary PPM whose header has been read: its bytes, the header, and the name errors use.
struct PPMFile: Sendable {
    let bytes: ImageBytes
    let header: PPMHeader
    let name: String
}
