/// Damaged copies of a file, the same every run: each copy has `flips` bytes at or after `start` (and before the
/// last two) replaced, at offsets and with values from a 64-bit linear congruential generator.
public struct SeededDamage {
    private var seed: UInt64

    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) { self.seed = seed }

    /// The next damaged copy of `bytes` (at least `start + 3` bytes long).
    public mutating func next(_ bytes: [UInt8], flips: Int, from start: Int) -> [UInt8] {
        var data = bytes
        for _ in 0..<flips {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let at = start + Int(seed >> 33) % (data.count - start - 2)
            data[at] = UInt8(truncatingIfNeeded: seed >> 17)
        }
        return data
    }
}
