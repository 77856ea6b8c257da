/// One channel of a 16- or 32-bit pixel as a bit mask (BI_BITFIELDS, or the format's default): where its bits sit
/// and how a value of that many bits becomes 8.
struct BMPChannelMask: Equatable {
    /// The mask as stored.
    let mask: UInt32
    /// How far the channel's lowest bit sits from bit 0.
    let shift: UInt32
    /// The largest value the channel holds (2^bits − 1); 0 for an absent channel.
    let maximum: UInt32

    /// The channel `mask` selects; nil when its bits are not contiguous (which no reference reads either).
    init?(_ mask: UInt32) {
        self.mask = mask
        guard mask != 0 else {
            (shift, maximum) = (0, 0)
            return
        }
        shift = UInt32(mask.trailingZeroBitCount)
        let bits = mask >> shift
        guard bits & (bits &+ 1) == 0 else { return nil }
        maximum = bits
    }

    /// True when the pixel has this channel.
    var isPresent: Bool { maximum != 0 }

    /// The channel of `pixel` scaled to 0…255 (rounded; a channel wider than 8 bits keeps its top 8); 0 for an
    /// absent channel.
    @inline(__always) func value(_ pixel: UInt32) -> UInt8 {
        guard maximum != 0 else { return 0 }
        let v = (pixel & mask) >> shift
        if maximum == 255 { return UInt8(truncatingIfNeeded: v) }
        return UInt8(truncatingIfNeeded: (UInt64(v) * 255 + UInt64(maximum / 2)) / UInt64(maximum))
    }
}
