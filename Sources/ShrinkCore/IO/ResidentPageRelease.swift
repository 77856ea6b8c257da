/// Releases a mapped input's resident pages behind a reader that only moves forward, a step at a time (one `madvise`
/// per step, not per read), so a large file's decode keeps about a step of it resident rather than all it has read.
/// Does nothing for owned bytes.
package struct ResidentPageRelease {
    private let bytes: ImageBytes
    private let step: Int
    /// The input's bytes below this offset have been released.
    private var released: Int

    /// A release behind a reader of `bytes` starting at `offset`, every `step` bytes.
    package init(_ bytes: ImageBytes, from offset: Int = 0, step: Int) {
        self.bytes = bytes
        self.step = step
        released = offset
    }

    /// Releases the pages below `offset` once it lies at least a step past the last release.
    package mutating func release(below offset: Int) {
        guard bytes.isPageAlignedMapping && offset - released >= step else { return }
        bytes.releaseResidentPages(in: released..<offset)
        released = offset
    }
}
