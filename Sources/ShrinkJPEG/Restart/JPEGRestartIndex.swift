#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ShrinkCore

/// Where each band of a ``JPEGRestartLayout`` starts in the file, found as bands are taken: the thread that takes a
/// band looks through its data for the restart marker that ends it (so the next band's start is known before the
/// band is decoded, and the file's pages are read by the scan just before the decoder reads them), then decodes it;
/// the thread that takes the next band waits for that start. Bands are taken in order, so every byte of the scan's
/// data is looked at once.
///
/// Intervals are counted by the markers' numbers, as libjpeg's resync counts them (`jpeg_resync_to_restart`): a
/// marker missing from the file (its number skipped) counts the interval it should have ended too, so the bands after
/// it start where one decoder would have them.
/// An 0xFF followed by a byte that is no marker code (data not stuffed) is passed over, as libjpeg's resync passes over
/// it. A band whose markers run short (damage, a truncated file) ends where the scan's data ends (EOI or another
/// marker): the bands after it start there, and their decoders report what libjpeg makes of it.
///
/// A band that starts at a marker (damage) starts where one decoder is stuck on it, in the state the band before it
/// ended in (libjpeg's "data ran out" flag after that band's last restart: ``ending(of:)``, published by
/// ``end(_:insufficient:)``); only then does a band wait for the one before it to be decoded.
///
/// Cost: one `memchr` pass over the entropy-coded data, about one stop per 200 bytes (stuffed 0xFF bytes and
/// markers). Memory: a few bytes a band.
package final class JPEGRestartIndex: @unchecked Sendable {
    private let bytes: UnsafeRawBufferPointer
    private let intervalsPerBand: Int
    private let lock = ConditionLock()
    /// Each band's first byte, and whether it is a marker's, known for the first `known` bands.
    private var starts: [Int]
    private var atMarker: [Bool]
    private var known = 1
    /// Each band's state when it ended (nil until it has): libjpeg's flag that the data ran out at a marker.
    private var endings: [Bool?]

    /// The index of `layout`'s bands in `bytes` (the file the layout was read from, kept alive by the caller).
    init(_ layout: JPEGRestartLayout, bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        intervalsPerBand = layout.intervalsPerBand
        starts = Array(repeating: bytes.count, count: layout.bands)
        starts[0] = layout.dataStart
        atMarker = Array(repeating: false, count: layout.bands)
        endings = Array(repeating: nil, count: layout.bands)
    }

    /// Band `b`'s first byte, once the band before it has been looked through, and whether it starts at a marker; the
    /// caller has taken band `b` (and every band before it was taken), looks through it here for the next band's
    /// start, and calls ``end(_:insufficient:)`` when it has decoded it, or failed to.
    func claim(_ b: Int) -> (start: Int, atMarker: Bool) {
        let (start, marker) = lock.withLock {
            while known <= b { lock.wait() }
            return (starts[b], atMarker[b])
        }
        guard b + 1 < starts.count else { return (start, marker) }
        let next = Self.start(
            after: bytes, from: start, firstInterval: b * intervalsPerBand, intervals: intervalsPerBand)
        lock.withLock {
            starts[b + 1] = next.offset
            atMarker[b + 1] = next.atMarker
            known = b + 2
            lock.broadcast()
        }
        return (start, marker)
    }

    /// Band `b` has ended, in libjpeg's `insufficient` state (false when it failed: its failure ends the decode).
    func end(_ b: Int, insufficient: Bool) {
        lock.withLock {
            endings[b] = insufficient
            lock.broadcast()
        }
    }

    /// The state band `b` ended in, once it has (waits for it).
    func ending(of b: Int) -> Bool {
        lock.withLock {
            while endings[b] == nil { lock.wait() }
            return endings[b]!
        }
    }

    /// Band `b`'s first byte when it is known (the band before it has been looked through).
    func knownStart(_ b: Int) -> Int? {
        lock.withLock { b < known ? starts[b] : nil }
    }

    /// Where the next band starts after `intervals` intervals of the entropy-coded data from `start`, the first of them
    /// the file's interval `firstInterval`: just after the restart marker that ends them (a marker's number is its
    /// interval's, mod 8, and one out of turn counts as libjpeg's resync counts it); at the marker when it ends an
    /// interval past them too (one decoder leaves the intervals it skipped empty, and so does the next band's, which
    /// finds the marker first); or where the data ends (at another marker, or the end of the bytes). `atMarker`: the
    /// offset is a marker's.
    package static func start(after bytes: UnsafeRawBufferPointer, from start: Int, firstInterval: Int, intervals: Int)
        -> (offset: Int, atMarker: Bool)
    {
        guard let base = bytes.baseAddress else { return (bytes.count, false) }
        let n = bytes.count
        var pos = start, seen = 0
        while pos + 1 < n {
            guard let hit = memchr(base + pos, 0xFF, n - 1 - pos) else { return (n, false) }
            pos = base.distance(to: UnsafeRawPointer(hit))
            let next = bytes[pos + 1]
            if next == 0 { // a stuffed 0xFF
                pos += 2
            } else if next == 0xFF { // a fill byte before a marker
                pos += 1
            } else if (0xD0...0xD7).contains(next) {
                // As libjpeg's resync takes a marker numbered `skip` past the one expected: one or two past, the
                // intervals between were empty; one or two before, it is dropped; further, it is taken as expected.
                let skip = (Int(next - 0xD0) - (firstInterval + seen)) & 7
                seen += skip == 1 || skip == 2 ? skip + 1 : skip >= 6 ? 0 : 1
                if seen > intervals { return (pos, true) }
                pos += 2
                if seen == intervals { return (pos, false) }
            } else if next < 0xC0 { // not a marker code: libjpeg's resync skips it and the data after it
                pos += 2
            } else {
                return (pos, true)
            }
        }
        return (n, false)
    }
}
