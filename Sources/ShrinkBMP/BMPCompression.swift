/// How a BMP's pixels are stored (the header's compression field, as Shrink reads it).
enum BMPCompression: Equatable {
    /// Rows of packed pixels, each padded to 4 bytes (BI_RGB, or BI_BITFIELDS with its masks).
    case none
    /// Runs of 8-bit palette indices (BI_RLE8).
    case rle8
    /// Runs of 4-bit palette indices (BI_RLE4).
    case rle4
}
