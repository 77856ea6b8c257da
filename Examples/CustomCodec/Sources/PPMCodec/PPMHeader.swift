import Shrink

/// The header of a binary PPM (`P6`): magic, width, height and maximum value as ASCII decimals separated by
/// whitespace (with `#` comments), then one whitespace byte, then the samples. Only 8-bit files
/// (maximum value 1–255) are read; 16-bit ones are `.unsupportedFeature`.
struct PPMHeader: Sendable {
    /// The stored size.
    let size: PixelSize
    /// The largest sample value (255 for full range).
    let maxValue: Int
    /// Where the samples start.
    let dataOffset: Int

    /// Reads the header of `bytes`; `name` is used in errors. Fails with `.corruptData` for a malformed header
    /// and `.truncated` when the samples it announces are not all there.
    init(_ bytes: UnsafeRawBufferPointer, name: String) throws(ImageError) {
        guard PPMHeader.sniff(bytes) else {
            throw ImageError(.unsupportedFormat, "\(name): not a binary PPM (P6) file", name: name)
        }
        var at = 2
        func number(_ what: String) throws(ImageError) -> Int {
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "#") {
                    while at < bytes.count && bytes[at] != UInt8(ascii: "\n") { at += 1 }
                } else if PPMHeader.isSpace(bytes[at]) {
                    at += 1
                } else {
                    break
                }
            }
            var value = 0, digits = 0
            while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
                digits += 1
                at += 1
                guard value <= 1 << 24 else {
                    throw ImageError(.corruptData, "\(name): the PPM \(what) is too large", name: name)
                }
            }
            guard digits > 0 else {
                throw ImageError(.corruptData, "\(name): the PPM header has no \(what)", name: name)
            }
            return value
        }
        let width = try number("width"), height = try number("height"), maxValue = try number("maximum value")
        guard width > 0, height > 0, maxValue > 0 else {
            throw ImageError(.corruptData, "\(name): a PPM of \(width)x\(height) with maximum \(maxValue)", name: name)
        }
        guard maxValue < 256 else {
            throw ImageError(.unsupportedFeature, "\(name): 16-bit PPM (maximum value \(maxValue))", name: name)
        }
        guard at < bytes.count, PPMHeader.isSpace(bytes[at]) else {
            throw ImageError(.truncated, "\(name): the PPM header ends early", name: name)
        }
        size = PixelSize(width: width, height: height)
        self.maxValue = maxValue
        dataOffset = at + 1
        guard bytes.count - dataOffset >= width * height * 3 else {
            throw ImageError(.truncated, "\(name): the PPM holds fewer samples than \(width)x\(height)", name: name)
        }
    }

    /// True when `bytes` start like a binary PPM.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "P") && bytes[1] == UInt8(ascii: "6") && isSpace(bytes[2])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
