import ShrinkCore

/// What a GIF's block structure says, read by a bounds-checked walk over the encoded bytes that skips image data
/// sub-blocks without decoding any LZW: the logical screen, the first frame (``GIFFrame``), how many frames
/// there are, the NETSCAPE2.0 loop count, the ICC profile's place, and damage found on the way.
///
/// The logical screen is checked against ``ImageLimits`` as soon as the 13-byte header is read, before
/// anything else (a 65535×65535 screen is refused at once); the canvas — the screen grown to hold the first
/// frame, as Pillow and libvips show it — is checked when the first frame's descriptor is read.
///
/// Cost: one pass over the file touching one byte per sub-block (at most ``maxWalkSteps`` blocks, sub-blocks and
/// skipped stray bytes, so a hostile file of millions of tiny blocks cannot make it slow: the walk's time at the cap is
/// in BENCHMARKS.md, "Figures behind the code"; frames after it are not counted). No allocation beyond the warnings and
/// features. A mapped input's pages are released behind the walk every ``pageReleaseStep`` bytes, so counting the
/// frames of a large animation does not leave the file resident.
package struct GIFStructure: Sendable {
    /// "87a" or "89a".
    package let version: String
    /// The logical screen as declared (either side may be 0).
    package let screen: PixelSize
    /// The background colour index the screen descriptor names (Pillow does not paint with it for the first
    /// frame, and neither does Shrink: outside the frame is index 0, or the transparent index).
    package let backgroundIndex: Int
    /// The global colour table's bytes, when there is one.
    package let globalPalette: Range<Int>?
    /// The first frame.
    package let firstFrame: GIFFrame
    /// Where the block after the first frame's image data starts (the walk of later frames starts there).
    package let afterFirstFrame: Int
    /// The image as shown: the logical screen grown to hold the first frame (Pillow's and libvips' size).
    package let canvas: PixelSize
    /// Image descriptors found (counting stops at ``maxWalkSteps``).
    package let frameCount: Int
    /// The loop count of the last NETSCAPE2.0 (or ANIMEXTS1.0) application extension (0 = forever), when there is one.
    package let loopCount: Int?
    /// The sub-blocks of the first ICC profile extension (`ICCRGBG1012`) before the first frame, as the offset of
    /// their first size byte and the profile's total length.
    package let iccProfile: (offset: Int, length: Int)?
    /// What the walk saw: `interlaced`, `animated`, `NETSCAPE2.0`, `transparency`, `local palette`, `comment`,
    /// `XMP`, `ICC`, `no trailer`.
    package let features: [String]
    /// Damage stepped over (the file ends inside a later frame, stray bytes between blocks), one line each.
    package let warnings: [String]
    /// The file ends inside a block (the first frame's data or later): a strict decode is `.truncated`.
    package let isTruncated: Bool

    /// Most blocks, sub-blocks and stray bytes the walk visits before it stops counting.
    package static let maxWalkSteps = 1 << 23
    /// A mapped input's pages are released behind the walk every this many bytes.
    package static let pageReleaseStep = 128 << 10

    /// Walks `bytes`. Fails with `.limitExceeded` for a screen or canvas above `limits.maxPixels` (or a file above
    /// `limits.maxInputBytes`), `.truncated` when the file ends before the first frame's image data starts,
    /// `.corruptData` for an unknown version, an empty first frame or a file without any frame.
    package init(bytes: ImageBytes, path: String, limits: ImageLimits) throws(ImageError) {
        try limits.check(inputBytes: bytes.count, path: path)
        let b = bytes.bytes
        let n = b.count
        func u16(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 } // callers check at + 2 <= n

        guard n >= 6, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 else {
            throw ImageError(.unsupportedFormat, "\(path): not a GIF file")
        }
        let version = String(decoding: UnsafeRawBufferPointer(rebasing: b[3..<6]), as: UTF8.self)
        guard version == "87a" || version == "89a" else {
            throw ImageError(
                .corruptData, "\(path): unknown GIF version \"GIF\(version.filter { $0.isASCII && !$0.isWhitespace })\""
            )
        }
        guard n >= 13 else { throw ImageError(.truncated, "\(path): the GIF header ends after \(n) of 13 bytes") }
        let screen = PixelSize(width: u16(6), height: u16(8))
        if screen.width > 0 && screen.height > 0 {
            try limits.check(screen, path: path, what: "GIF logical screen")
        }
        self.version = version
        self.screen = screen
        backgroundIndex = Int(b[11])
        var p = 13
        if b[10] & 0x80 != 0 {
            let length = 3 << Int(b[10] & 7 + 1)
            guard p + length <= n else {
                throw ImageError(.truncated, "\(path): the file ends inside the GIF global colour table")
            }
            globalPalette = p..<p + length
            p += length
        } else {
            globalPalette = nil
        }

        var steps = 0, frames = 0, released = 0
        var pendingTransparent: Int?, pendingTiming = (delay: 0, disposal: 0)
        var first: GIFFrame?, afterFirst = n
        var loop: Int?, icc: (offset: Int, length: Int)?
        var found: [String] = []
        var warnings: [String] = []
        var truncated = false, strayBytes = 0, sawTrailer = false
        func note(_ feature: String) { if !found.contains(feature) { found.append(feature) } }

        /// Skips the sub-blocks starting at `q`; returns the offset after the terminator, or nil when the file
        /// ends first or the step cap is reached (`steps` tells which).
        func skipSubBlocks(from start: Int) -> Int? {
            var q = start
            while q < n {
                steps += 1
                if steps > Self.maxWalkSteps { return nil }
                let size = Int(b[q])
                q += 1 + size
                if size == 0 { return q }
            }
            return nil
        }

        walk: while p < n {
            steps += 1
            if steps > Self.maxWalkSteps { break }
            if bytes.isPageAlignedMapping && p - released >= Self.pageReleaseStep {
                bytes.releaseResidentPages(in: released..<p)
                released = p
            }
            switch b[p] {
            case 0x3B:
                sawTrailer = true
                break walk
            case 0x21:
                guard p + 2 < n else {
                    truncated = true
                    break walk
                }
                let label = b[p + 1]
                let blocks = p + 2
                let size = Int(b[blocks])
                let hasFirstBlock = blocks + 1 + size <= n
                switch label {
                case 0xF9 where hasFirstBlock && size >= 4:
                    // Graphics control: packed fields, delay (2 bytes), transparent index. Only a set flag counts.
                    if b[blocks + 1] & 1 != 0 { pendingTransparent = Int(b[blocks + 4]) }
                    pendingTiming = (u16(blocks + 2), Int(b[blocks + 1] >> 2) & 7)
                case 0xFF where hasFirstBlock && size == 11:
                    let id = String(
                        decoding: UnsafeRawBufferPointer(rebasing: b[blocks + 1..<blocks + 12]), as: UTF8.self)
                    let next = blocks + 12
                    if id == "NETSCAPE2.0" || id == "ANIMEXTS1.0" {
                        note("NETSCAPE2.0")
                        if next + 4 <= n, b[next] >= 3, b[next + 1] == 1 { loop = u16(next + 2) }
                    } else if id == "ICCRGBG1012" {
                        note("ICC")
                        if first == nil && icc == nil {
                            // The profile is the concatenation of the sub-blocks after the identifier.
                            var q = next, length = 0
                            while q < n, b[q] != 0, steps < Self.maxWalkSteps {
                                steps += 1
                                length += Int(b[q])
                                q += 1 + Int(b[q])
                            }
                            if q < n { icc = (next, length) }
                        }
                    } else if id == "XMP DataXMP" {
                        note("XMP")
                    }
                case 0xFE:
                    note("comment")
                default:
                    break
                }
                guard let end = skipSubBlocks(from: blocks) else {
                    truncated = steps <= Self.maxWalkSteps
                    if truncated && first != nil {
                        warnings.append("the file ends inside an extension after frame \(frames)")
                    }
                    break walk
                }
                p = end
            case 0x2C:
                guard p + 10 <= n else {
                    truncated = true
                    break walk
                }
                let packed = b[p + 9]
                let left = u16(p + 1), top = u16(p + 3), size = PixelSize(width: u16(p + 5), height: u16(p + 7))
                p += 10
                var local: Range<Int>?
                if packed & 0x80 != 0 {
                    let length = 3 << Int(packed & 7 + 1)
                    guard p + length <= n else {
                        truncated = true
                        break walk
                    }
                    local = p..<p + length
                    p += length
                    note("local palette")
                }
                guard p < n else {
                    truncated = true
                    break walk
                }
                frames += 1
                if first == nil {
                    first = GIFFrame(
                        left: left, top: top, size: size, isInterlaced: packed & 0x40 != 0,
                        palette: local ?? globalPalette, transparentIndex: pendingTransparent, dataOffset: p,
                        lzwMinimumCodeSize: Int(b[p]))
                    first?.delay = pendingTiming.delay
                    first?.disposal = pendingTiming.disposal
                }
                pendingTransparent = nil
                pendingTiming = (0, 0)
                guard let end = skipSubBlocks(from: p + 1) else {
                    if steps <= Self.maxWalkSteps {
                        truncated = true
                        warnings.append(
                            frames == 1
                                ? "the file ends inside the first frame's image data"
                                : "the file ends inside frame \(frames)'s image data (that frame and any after it are lost)"
                        )
                    }
                    break walk
                }
                p = end
                if frames == 1 { afterFirst = end }
            default:
                // A stray byte where a block should start: skipped one at a time, as Pillow does.
                strayBytes += 1
                p += 1
            }
        }
        if bytes.isPageAlignedMapping { bytes.releaseResidentPages(in: released..<p) }

        let capped = steps > Self.maxWalkSteps
        guard let first else {
            if truncated { throw ImageError(.truncated, "\(path): the GIF file ends before its first image") }
            throw ImageError(
                .corruptData,
                "\(path): the GIF file has no image\(capped ? " in its first \(Self.maxWalkSteps) blocks" : "")")
        }
        guard first.size.width > 0, first.size.height > 0 else {
            throw ImageError(.corruptData, "\(path): the first GIF frame is empty (\(first.size))")
        }
        let canvas = PixelSize(
            width: max(screen.width, first.left + first.size.width),
            height: max(screen.height, first.top + first.size.height))
        try limits.check(
            canvas, path: path,
            what: canvas == screen ? "GIF logical screen" : "GIF canvas (the screen grown to hold the first frame)")

        if first.lzwMinimumCodeSize == 0 {
            warnings.insert(
                "the first frame's LZW minimum code size is 0, which leaves no room for codes: its pixels read as index 0",
                at: 0)
        }
        if truncated && warnings.count == (first.lzwMinimumCodeSize == 0 ? 1 : 0) {
            warnings.append("the file ends inside a block after frame \(frames) (frames after it are lost)")
        }
        if strayBytes > 0 {
            warnings.append("\(strayBytes) stray byte\(strayBytes == 1 ? "" : "s") between blocks skipped")
        }
        if capped {
            warnings.append("stopped counting frames after \(Self.maxWalkSteps) blocks (\(frames) frames so far)")
        } else if !sawTrailer && !truncated {
            note("no trailer")
        }
        if first.isInterlaced { found.insert("interlaced", at: 0) }
        if frames > 1 { found.insert("animated", at: first.isInterlaced ? 1 : 0) }
        if first.transparentIndex != nil { note("transparency") }
        self.firstFrame = first
        self.afterFirstFrame = afterFirst
        self.canvas = canvas
        self.frameCount = frames
        self.loopCount = loop
        self.iccProfile = icc
        self.features = found
        self.warnings = warnings
        self.isTruncated = truncated
    }
}
