/// How a tile decoder hands over samples deeper than 8 bits.
enum HEIFSampleDepth: Equatable {
    /// As 16-bit words at their coded depth (native order).
    case kept
    /// Rounded to 8 bits in the file's range: full-range samples scaled by 255 / (2^depth − 1), limited-range
    /// ones shifted (their levels are 8-bit levels × 2^(depth − 8)). `fullRange` is the container's (`nclx`);
    /// nil means the bitstream's own flag.
    case narrowed(fullRange: Bool?)
}
