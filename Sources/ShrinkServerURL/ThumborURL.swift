import Foundation
import Shrink

/// thumbor's URL scheme, read into the same ``ProcessingOptions`` as imgproxy's:
/// `/unsafe|SIGNATURE/[trim/][AxB:CxD/][adaptive-][full-]fit-in/][-]Wx[-]H/[halign/][valign/][smart/][filters:…/]IMAGE`.
///
/// - Sizes: `WxH` without `fit-in` covers the box and crops (upscaling unless `no_upscale()`); `fit-in` fits inside
///   it (no upscaling unless `upscale()`), `adaptive-fit-in` inside it or its transpose, whichever has the image's
///   orientation, `full-fit-in` covers it without cropping; 0 (or nothing) is proportional; a minus flips.
/// - `trim` cuts the background (the top-left or bottom-right pixel's colour, within a tolerance) before anything.
/// - `AxB:CxD` crops first (left, top, right, bottom, displayed pixels); `left|center|right` and
///   `top|middle|bottom` place the crop; `smart` places it by attention (``Gravity/attention``).
/// - Filters: `format`, `quality`, `fill` (a colour or `transparent`: the fit-in box filled), `background_color`,
///   `blur`, `sharpen`, `grayscale`, `rotate`, `upscale`, `no_upscale`, `strip_icc`, `strip_exif`, `max_bytes`,
///   `focal` (its rectangle's centre is the focus point), `proportion`; any other is a 400 naming it.
/// - IMAGE: an `http(s)://` URL (percent-encoded or not), else a path under the local root.
///
/// The signature is thumbor's: URL-safe Base64 of HMAC-SHA1(`SECURITY_KEY`, everything after the signature's slash).
package enum ThumborURL {
    /// True when `target` is thumbor's rather than imgproxy's. The rule: the segment after the signature is one of
    /// thumbor's (`trim…`, `AxB:CxD`, a size `WxH`, `fit-in` and its variants, an alignment, `smart`, `filters:…`,
    /// `meta`, `debug`); or it is none of imgproxy's (an option with `:`, `plain`, `enc`, a preset of a presets-only
    /// server) and the rest is not the Base64 of a URL: then it is a thumbor image path.
    package static func recognizes(_ target: Substring, rules: URLRules = URLRules()) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2)
        guard let first = segments.first, !first.isEmpty else { return false }
        if isThumborSegment(first) { return true }
        if first.contains(":") || first == "plain" || first == "enc" { return false }
        if rules.onlyPresets && rules.presets[String(first)] != nil { return false }
        var encoded = segments.joined()
        if let dot = encoded.lastIndex(of: ".") { encoded = String(encoded[..<dot]) }
        if let bytes = SigningKeys.decodeBase64url(Substring(encoded)),
            let text = String(bytes: bytes, encoding: .utf8),
            text.contains("://")
        {
            return false
        }
        return true
    }

    private static func isThumborSegment(_ s: Substring) -> Bool {
        if [
            "debug", "meta", "fit-in", "adaptive-fit-in", "full-fit-in", "adaptive-full-fit-in", "left", "right",
            "center", "top", "bottom", "middle", "smart",
        ].contains(s) || s == "trim" || s.hasPrefix("trim:")
            || s.hasPrefix("filters:")
        {
            return true
        }
        return s.wholeMatch(of: /\d+x\d+:\d+x\d+/) != nil || s.wholeMatch(of: /-?(\d+|orig)?x-?(\d+|orig)?/) != nil
    }

    /// True when `signature` may sign `path` (everything after the signature's slash): `unsafe` when `allowsUnsafe`,
    /// or HMAC-SHA1(`key`, `path`) written exactly as libthumbor writes it (URL-safe Base64, padded: ``sign(_:key:)``;
    /// thumbor compares the strings, so no other spelling is accepted), compared in constant time.
    package static func verify(signature: Substring, path: Substring, key: [UInt8]?, allowsUnsafe: Bool) -> Bool {
        if signature == "unsafe" { return allowsUnsafe }
        guard let key, let given = SigningKeys.decodeBase64url(signature), encode(given) == signature else {
            return false
        }
        return SigningKeys.constantTimeEqual(given, HMACSHA1.authenticationCode(for: Array(path.utf8), key: key))
    }

    /// The signature of `path` under `key`, as libthumbor makes it (URL-safe Base64, padded).
    package static func sign(_ path: String, key: [UInt8]) -> String {
        encode(HMACSHA1.authenticationCode(for: Array(path.utf8), key: key))
    }

    /// `mac` as libthumbor writes a signature: URL-safe Base64, padded.
    private static func encode(_ mac: [UInt8]) -> String {
        Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    /// Parses `target`. Fails with 400 naming what is wrong (an unknown filter, a bad argument, `trim`, `meta`).
    package static func parse(_ target: Substring) throws(RequestError) -> ProcessingURL {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.first == "/", let slash = path.dropFirst().firstIndex(of: "/") else {
            throw RequestError(400, "not a thumbor URL: expected /unsafe/…/IMAGE or /SIGNATURE/…/IMAGE")
        }
        let signature = path.dropFirst()[..<slash]
        let signed = path[path.index(after: slash)...]
        var rest = signed.split(separator: "/", omittingEmptySubsequences: false)[...]
        var o = ProcessingOptions()
        o.enlarge = true
        var fit: String?
        var (flipX, flipY) = (false, false)
        var (horizontal, vertical): (Double?, Double?) = (nil, nil)
        var filters: Substring?
        func next(_ matches: (Substring) -> Bool) -> Substring? {
            guard let s = rest.first, matches(s), rest.count > 1 else { return nil }
            rest = rest.dropFirst()
            return s
        }
        if next({ $0 == "debug" }) != nil {}
        if next({ $0 == "meta" }) != nil { throw RequestError(400, "thumbor's meta/ (JSON metadata) is not supported") }
        if let t = next({ $0 == "trim" || $0.hasPrefix("trim:") }) {
            // trim[:top-left|bottom-right][:tolerance]
            var trim = Trim(threshold: 0)
            for part in t.split(separator: ":").dropFirst() {
                switch part {
                case "top-left": trim.corner = .topLeft
                case "bottom-right": trim.corner = .bottomRight
                default:
                    guard let n = Int(part), (0...442).contains(n) else {
                        throw RequestError(400, "trim: top-left, bottom-right or a tolerance, not \(part)")
                    }
                    trim.threshold = min(255, n)
                }
            }
            o.trim = trim
        }
        if let crop = next({ $0.wholeMatch(of: /\d+x\d+:\d+x\d+/) != nil }) {
            let n = crop.split(whereSeparator: { $0 == "x" || $0 == ":" }).compactMap { Int($0) }
            guard n.count == 4, n[2] > n[0], n[3] > n[1] else {
                throw RequestError(
                    400, "a crop is LEFTxTOP:RIGHTxBOTTOM with right > left and bottom > top, not \(crop)")
            }
            o.region = PixelRect(x: n[0], y: n[1], width: n[2] - n[0], height: n[3] - n[1])
        }
        if let f = next({ ["fit-in", "adaptive-fit-in", "full-fit-in", "adaptive-full-fit-in"].contains($0) }) {
            fit = String(f)
        }
        if let size = next({ $0.wholeMatch(of: /-?(\d+|orig)?x-?(\d+|orig)?/) != nil }) {
            let parts = size.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
            func side(_ s: Substring) throws(RequestError) -> (Int, Bool) {
                let flip = s.hasPrefix("-"), digits = flip ? s.dropFirst() : s
                if digits == "orig" { throw RequestError(400, "thumbor's orig sizes are not supported yet") }
                guard digits.isEmpty || Int(digits).map({ $0 <= ProcessingOptions.maxSide }) == true else {
                    throw RequestError(400, "a size is at most \(ProcessingOptions.maxSide), not \(digits)")
                }
                return (Int(digits) ?? 0, flip)
            }
            (o.width, flipX) = try side(parts[0])
            (o.height, flipY) = try side(parts[1])
        }
        if let h = next({ ["left", "center", "right"].contains($0) }) {
            horizontal = h == "left" ? 0 : h == "right" ? 1 : 0.5
        }
        if let v = next({ ["top", "middle", "bottom"].contains($0) }) {
            vertical = v == "top" ? 0 : v == "bottom" ? 1 : 0.5
        }
        o.gravity = Gravity(x: horizontal ?? 0.5, y: vertical ?? 0.5)
        if next({ $0 == "smart" }) != nil { o.gravity = .attention }
        if let f = next({ $0.hasPrefix("filters:") }) { filters = f.dropFirst("filters:".count) }
        let image = rest.joined(separator: "/")
        guard !image.isEmpty, let decoded = image.removingPercentEncoding else {
            throw RequestError(400, "the thumbor URL names no image, or a malformed percent-escape")
        }
        switch fit {
        case "fit-in": (o.resizingType, o.enlarge) = (.fit, false)
        case "adaptive-fit-in": (o.thumborFit, o.enlarge) = (.insideEitherWay, false)
        case "full-fit-in", "adaptive-full-fit-in": (o.thumborFit, o.enlarge) = (.outside, false)
        default: o.resizingType = o.width > 0 && o.height > 0 ? .fill : .fit
        }
        (o.flipHorizontal, o.flipVertical) = (flipX, flipY)
        var format: ImageFormat?
        if let filters { format = try apply(filters: filters, to: &o) }
        let lower = decoded.lowercased()
        let source =
            lower.hasPrefix("http://") || lower.hasPrefix("https://")
            ? decoded : "local:///" + (decoded.hasPrefix("/") ? String(decoded.dropFirst()) : decoded)
        return ProcessingURL(
            signature: signature, signedPath: signed, options: o, source: source, extensionFormat: format,
            dialect: .thumbor)
    }

    /// Applies `filters` (`name(args):name(args)…`) and returns the format `format()` names.
    static func apply(filters: Substring, to o: inout ProcessingOptions) throws(RequestError) -> ImageFormat? {
        var format: ImageFormat?
        var depth = 0, start = filters.startIndex
        var calls: [Substring] = []
        for i in filters.indices {
            switch filters[i] {
            case "(": depth += 1
            case ")": depth -= 1
            case ":" where depth == 0:
                calls.append(filters[start..<i])
                start = filters.index(after: i)
            default: break
            }
        }
        calls.append(filters[start...])
        for call in calls where !call.isEmpty {
            guard let open = call.firstIndex(of: "("), call.last == ")" else {
                throw RequestError(400, "a thumbor filter is name(arguments), not \(call.prefix(60))")
            }
            let name = call[..<open]
            let args = call[call.index(after: open)..<call.index(before: call.endIndex)].split(
                separator: ",", omittingEmptySubsequences: false
            ).map { $0.trimmingCharacters(in: .whitespaces) }
            func number(_ i: Int, _ range: ClosedRange<Double>) throws(RequestError) -> Double {
                guard i < args.count, let v = Double(args[i]), v.isFinite, range.contains(v) else {
                    throw RequestError(
                        400, "\(name)(): argument \(i + 1) must be a number in \(range.lowerBound)…\(range.upperBound)")
                }
                return v
            }
            switch name {
            case "format":
                guard let f = args.first,
                    let written = CodecRegistry.standard.writableFormat(forPath: "x." + (f == "jpeg" ? "jpg" : f))
                else {
                    throw RequestError(
                        400, "format(): Shrink writes jpeg, png, webp, gif and avif, not \(args.first ?? "")")
                }
                format = written
            case "quality": o.quality = Int(try number(0, 1...100))
            case "fill":
                guard let c = args.first else { throw RequestError(400, "fill() takes a colour") }
                if c == "transparent" {
                    o.background = nil
                } else {
                    guard let color = Self.color(c) else {
                        throw RequestError(400, "fill(): a colour (RRGGBB, a name) or transparent, not \(c)")
                    }
                    o.background = color
                }
                o.extend = true
            case "background_color":
                guard let c = args.first, let color = Self.color(c) else {
                    throw RequestError(400, "background_color(): a colour (RRGGBB or a name)")
                }
                o.background = color
            case "blur":
                let radius = try number(0, 0...150)
                o.blur =
                    args.count > 1
                    ? try number(1, 0...ProcessingOptions.maxSigma) : min(radius, ProcessingOptions.maxSigma)
            case "sharpen": o.sharpen = args.count > 1 ? try number(1, 0...ProcessingOptions.maxSigma) : 1
            case "grayscale": o.grayscale = true
            case "rotate":
                let angle = Int(try number(0, -3600...3600))
                guard angle % 90 == 0 else { throw RequestError(400, "rotate(): a multiple of 90") }
                o.rotation = ((angle % 360) + 360) % 360
            case "upscale": o.enlarge = true
            case "no_upscale": o.enlarge = false
            case "strip_icc", "strip_exif": break // Shrink's results carry neither unless asked
            case "max_bytes": o.maxBytes = Int(try number(0, 1...Double(1 << 30)))
            case "proportion":
                let p = try number(0, 0.01...8)
                (o.zoom, o.zoomY) = (p, p)
            case "focal":
                guard let r = args.first, let m = r.wholeMatch(of: /(\d+)x(\d+):(\d+)x(\d+)/),
                    let l = Double(m.1), let t = Double(m.2), let rr = Double(m.3), let b = Double(m.4), rr > l, b > t
                else {
                    throw RequestError(400, "focal(): LEFTxTOP:RIGHTxBOTTOM")
                }
                o.gravity = .focus(pixelX: (l + rr) / 2, pixelY: (t + b) / 2)
            default:
                throw RequestError(400, "unknown or unsupported thumbor filter \(name)()")
            }
        }
        return format
    }

    /// A colour as thumbor's filters take it: six (or three) hex digits, or a CSS name of the common ones.
    static func color(_ text: String) -> RGBColor? {
        let names: [String: String] = [
            "white": "ffffff", "black": "000000", "red": "ff0000", "green": "008000", "blue": "0000ff",
            "yellow": "ffff00", "gray": "808080", "grey": "808080", "silver": "c0c0c0", "orange": "ffa500",
        ]
        var hex = names[text.lowercased()] ?? (text.hasPrefix("#") ? String(text.dropFirst()) : text)
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        return RGBColor(hex: Substring(hex))
    }
}
