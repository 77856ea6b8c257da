import Foundation
import Shrink

/// An imgproxy-style request path taken apart: `/{signature}/{options…}/plain/{source}@{ext}` or
/// `/{signature}/{options…}/{base64url source, may be split by /}.{ext}`.
///
/// It is parsed from the raw request target as it arrived (no segment dropped or merged, so `http://` keeps
/// both slashes), and ``signedPath`` is exactly the bytes after the signature: what the signature covers.
package struct ProcessingURL: Sendable {
    /// The first segment.
    package let signature: Substring
    /// Everything after the signature, leading `/` included (query string excluded).
    package let signedPath: Substring
    /// The options, presets expanded.
    package let options: ProcessingOptions
    /// The source URL (`local:///…`, `http(s)://…`), percent-decoded (plain) or Base64-decoded.
    package let source: String
    /// The output format the URL names by its extension, when it names one.
    package let extensionFormat: ImageFormat?
    /// The scheme the URL was written in.
    package let dialect: URLDialect

    /// A URL already taken apart (``ThumborURL`` makes these).
    package init(
        signature: Substring, signedPath: Substring, options: ProcessingOptions, source: String,
        extensionFormat: ImageFormat?, dialect: URLDialect
    ) {
        self.signature = signature
        self.signedPath = signedPath
        self.options = options
        self.source = source
        self.extensionFormat = extensionFormat
        self.dialect = dialect
    }

    /// Parses `target` (the request's raw path and query) with the default rules and `presets`.
    package init(_ target: Substring, presets: [String: String] = [:], now: Int = Int(Date().timeIntervalSince1970))
        throws(RequestError)
    {
        try self.init(target, rules: URLRules(presets: presets), now: now)
    }

    /// The signature of `target` (its first path segment) and the path it signs (everything after it, from its slash;
    /// the query left out), without parsing anything else: nil when there is no second segment. Both dialects sign
    /// this way (thumbor's path starts after the slash), so that a server with a key checks the signature before it
    /// parses a URL and an unsigned request learns nothing about the parser.
    package static func signature(of target: Substring) -> (signature: Substring, signedPath: Substring)? {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.first == "/", let slash = path.dropFirst().firstIndex(of: "/") else { return nil }
        return (path.dropFirst()[..<slash], path[slash...])
    }

    /// Parses `target` (the request's raw path and query) under `rules` (presets, a preset named `default` applying
    /// first to every URL; presets only; a filename after a Base64 source; security options). `now` is Unix time for
    /// `exp`. Fails with 404 (malformed, an unknown option or argument, expired: imgproxy's "Invalid URL") or 415 (a
    /// format Shrink cannot write).
    package init(_ target: Substring, rules: URLRules, now: Int = Int(Date().timeIntervalSince1970))
        throws(RequestError)
    {
        let presets = rules.presets
        guard target.first == "/" else { throw RequestError.invalidURL("the path must start with /") }
        guard let (signature, signedPath) = Self.signature(of: target) else {
            throw RequestError(
                404, "not an image URL: expected /SIGNATURE/OPTIONS/plain/SOURCE or /SIGNATURE/OPTIONS/BASE64SOURCE")
        }
        self.signature = signature
        self.signedPath = signedPath
        let segments = signedPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false)

        var options = ProcessingOptions()
        if presets["default"] != nil {
            try Self.apply(option: "pr:default", to: &options, rules: rules, depth: 0)
        }
        var index = 0
        var source: String?
        var ext: Substring?
        while index < segments.count {
            let segment = segments[index]
            if segment == "plain" {
                let rest = segments[(index + 1)...].joined(separator: "/")
                guard !rest.isEmpty else { throw RequestError.invalidURL("plain/ is followed by no source URL") }
                var url = Substring(rest)
                if let at = url.lastIndex(of: "@"), !url[url.index(after: at)...].contains("/") {
                    ext = url[url.index(after: at)...]
                    url = url[..<at]
                }
                guard let decoded = String(url).removingPercentEncoding else {
                    throw RequestError.invalidURL("the plain source URL has a malformed percent-escape")
                }
                source = decoded
                break
            }
            if segment == "enc" { throw RequestError.invalidURL("encrypted source URLs (enc/) are not supported") }
            if rules.onlyPresets && index < segments.count - (rules.base64IncludesFilename ? 2 : 1) {
                // Presets only: every segment before the source names one.
                try Self.apply(option: "pr:" + segment, to: &options, rules: rules, depth: 0)
                index += 1
                continue
            }
            if segment.contains(":") && !rules.onlyPresets {
                try Self.apply(option: segment, to: &options, rules: rules, depth: 0)
                index += 1
                continue
            }
            // Base64url source, possibly split by slashes, with an optional .ext on the last piece (or, under the
            // rules, followed by a /FILENAME.EXT whose extension is the output's).
            var pieces = segments[index...]
            var filenameExtension: Substring?
            if rules.base64IncludesFilename && pieces.count > 1 {
                let filename = pieces.removeLast()
                if let dot = filename.lastIndex(of: ".") { filenameExtension = filename[filename.index(after: dot)...] }
            }
            var encoded = pieces.joined()
            if let dot = encoded.lastIndex(of: ".") {
                ext = Substring(encoded[encoded.index(after: dot)...])
                encoded = String(encoded[..<dot])
            }
            guard let bytes = SigningKeys.decodeBase64url(Substring(encoded)),
                let text = String(bytes: bytes, encoding: .utf8),
                !text.isEmpty
            else {
                throw RequestError.invalidURL(
                    "the source is neither plain/… nor valid Base64url: \(encoded.prefix(40))")
            }
            source = text
            if let filenameExtension { ext = filenameExtension }
            break
        }
        guard let source else {
            throw RequestError.invalidURL("the URL names no source (plain/SOURCE or a Base64url source)")
        }
        self.source = source
        if let ext, !ext.isEmpty {
            extensionFormat = try Self.outputFormat(named: ext)
        } else {
            extensionFormat = nil
        }
        if let exp = options.expires, now > exp { throw RequestError(404, "this URL expired at \(exp) (Unix time)") }
        self.options = options
        self.dialect = .imgproxy
    }

    /// The output format named `name` (an extension of a format a registered codec writes: `jpg`, `jpeg`, `png`,
    /// `webp`…); 415 for other image formats (read or merely known), 404 for unknown names.
    static func outputFormat(named name: Substring) throws(RequestError) -> ImageFormat {
        let registry = CodecRegistry.standard
        let ext = name.lowercased()
        if let format = registry.writableFormat(forPath: "x." + ext) { return format }
        let writes = registry.writableFormats.map(\.fileExtension)
        let list = writes.listed()
        if (ImageFormat.known + registry.readableFormats).contains(where: { $0.fileExtensions.contains(ext) }) {
            throw RequestError(415, "Shrink cannot write \(name.uppercased()) (it writes \(list))")
        }
        throw RequestError.invalidURL("unknown output format \"\(name)\" (Shrink writes \(list))")
    }

    /// Applies one `name:arg:arg…` option. Unknown names and bad arguments are a 404 naming them.
    static func apply(option segment: Substring, to o: inout ProcessingOptions, rules: URLRules, depth: Int)
        throws(RequestError)
    {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        let name = parts[0], args = Array(parts.dropFirst())
        func arg(_ i: Int) -> Substring? { i < args.count && !args[i].isEmpty ? args[i] : nil }
        func int(_ i: Int, _ what: String, _ range: ClosedRange<Int>) throws(RequestError) -> Int? {
            guard let a = arg(i) else { return nil }
            guard let v = Int(a), range.contains(v) else {
                throw RequestError.invalidURL(
                    "\(name): \(what) must be an integer in \(range.lowerBound)…\(range.upperBound), not \"\(a)\"")
            }
            return v
        }
        func double(_ i: Int, _ what: String, _ range: ClosedRange<Double>) throws(RequestError) -> Double? {
            guard let a = arg(i) else { return nil }
            guard let v = Double(a), v.isFinite, range.contains(v) else {
                throw RequestError.invalidURL(
                    "\(name): \(what) must be a number in \(range.lowerBound)…\(range.upperBound), not \"\(a)\"")
            }
            return v
        }
        /// A boolean as imgproxy reads it (Go's `strconv.ParseBool`): `1`, `t`, `true` (any case) are true, and
        /// anything else is false, not an error.
        func bool(_ i: Int) -> Bool? {
            guard let a = arg(i) else { return nil }
            return ["1", "t", "true"].contains(a.lowercased())
        }
        func size(from i: Int) throws(RequestError) {
            if let w = try int(i, "width", 0...ProcessingOptions.maxSide) { o.width = w }
            if let h = try int(i + 1, "height", 0...ProcessingOptions.maxSide) { o.height = h }
            if let e = bool(i + 2) { o.enlarge = e }
            if arg(i + 3) != nil { try extend(from: i + 3, &o.extend, &o.extendGravity) }
        }
        /// `extend[:gravity[:x:y]]`, as `ex`, `exar` and the size options' last arguments give it.
        func extend(from i: Int, _ on: inout Bool, _ gravity: inout Gravity) throws(RequestError) {
            on = bool(i) ?? false
            if args.count > i + 1, !args[i + 1].isEmpty {
                let g = Array(args[(i + 1)...])
                guard g[0] != "sm" else { throw RequestError.invalidURL("\(name): extending takes no smart gravity") }
                gravity = try Self.gravity(g, option: name)
            }
        }
        func needArgs(_ n: ClosedRange<Int>) throws(RequestError) {
            guard n.contains(args.count) else {
                throw RequestError.invalidURL(
                    "\(name) takes \(n.lowerBound == n.upperBound ? "\(n.lowerBound)" : "\(n.lowerBound)–\(n.upperBound)") argument(s), not \(args.count)"
                )
            }
        }
        switch name {
        case "rs", "resize":
            try needArgs(0...8)
            if let t = arg(0) { o.resizingType = try resizingType(t) }
            try size(from: 1)
        case "s", "size":
            try needArgs(0...7)
            try size(from: 0)
        case "rt", "resizing_type":
            try needArgs(1...1)
            o.resizingType = try resizingType(args[0])
        case "w", "width":
            try needArgs(1...1)
            o.width = try int(0, "width", 0...ProcessingOptions.maxSide) ?? 0
        case "h", "height":
            try needArgs(1...1)
            o.height = try int(0, "height", 0...ProcessingOptions.maxSide) ?? 0
        case "dpr":
            try needArgs(1...1)
            o.dpr = try double(0, "dpr", 0.01...8) ?? 1
        case "pg", "page":
            try needArgs(1...1)
            o.page = try int(0, "page", 0...999) ?? 0
        case "z", "zoom":
            // One factor for both axes, or one each (different ones stretch the image).
            try needArgs(1...2)
            let x = try double(0, "zoom", 0.01...8) ?? 1, y = try double(1, "zoom", 0.01...8) ?? x
            (o.zoom, o.zoomY) = (x, y)
        case "fl", "flip":
            try needArgs(1...2)
            o.flipHorizontal = bool(0) ?? false
            o.flipVertical = bool(1) ?? false
        case "el", "enlarge":
            try needArgs(1...1)
            o.enlarge = bool(0) ?? false
        case "ex", "extend":
            try needArgs(1...4)
            try extend(from: 0, &o.extend, &o.extendGravity)
        case "exar", "extend_aspect_ratio", "extend_ar":
            try needArgs(1...4)
            try extend(from: 0, &o.extendAspectRatio, &o.extendAspectRatioGravity)
        case "mw", "min-width", "min_width":
            try needArgs(1...1)
            o.minWidth = try int(0, "minimum width", 0...ProcessingOptions.maxSide) ?? 0
        case "mh", "min-height", "min_height":
            try needArgs(1...1)
            o.minHeight = try int(0, "minimum height", 0...ProcessingOptions.maxSide) ?? 0
        case "pd", "padding":
            // CSS order and shorthand: top, right (= top), bottom (= top), left (= right).
            try needArgs(1...4)
            let top = try int(0, "padding", 0...ProcessingOptions.maxSide) ?? 0
            let right = try int(1, "padding", 0...ProcessingOptions.maxSide) ?? top
            let bottom = try int(2, "padding", 0...ProcessingOptions.maxSide) ?? top
            let left = try int(3, "padding", 0...ProcessingOptions.maxSide) ?? right
            o.padding = [top, right, bottom, left]
        case "bl", "blur":
            try needArgs(1...1)
            o.blur = try double(0, "sigma", 0...ProcessingOptions.maxSigma) ?? 0
        case "sh", "sharpen":
            try needArgs(1...1)
            o.sharpen = try double(0, "sigma", 0...ProcessingOptions.maxSigma) ?? 0
        case "pix", "pixelate":
            try needArgs(1...1)
            o.pixelate = try int(0, "size", 0...ProcessingOptions.maxPixelate) ?? 0
        case "g", "gravity":
            try needArgs(1...3)
            o.gravity = try gravity(args, option: name)
        case "c", "crop":
            try needArgs(2...5)
            let w = try double(0, "width", 0...Double(ProcessingOptions.maxSide * 8)) ?? 0
            let h = try double(1, "height", 0...Double(ProcessingOptions.maxSide * 8)) ?? 0
            let g = args.count > 2 ? try gravity(Array(args[2...]), option: name) : o.gravity
            o.crop = ImageRequest.Crop(width: w, height: h, gravity: g)
        case "ar", "auto_rotate":
            try needArgs(1...1)
            o.autoRotate = bool(0) ?? true
        case "rot", "rotate":
            try needArgs(1...1)
            guard let r = try int(0, "angle", -3600...3600), r % 90 == 0 else {
                throw RequestError.invalidURL("\(name): the angle must be a multiple of 90")
            }
            o.rotation = ((r % 360) + 360) % 360
        case "bg", "background":
            try needArgs(1...3)
            if args.count == 1 && args[0].isEmpty {
                o.background = nil // `bg:` unsets, as in imgproxy (a preset's background, say)
            } else if args.count == 3 {
                guard let r = try int(0, "red", 0...255), let g = try int(1, "green", 0...255),
                    let b = try int(2, "blue", 0...255)
                else {
                    throw RequestError.invalidURL("\(name): expected R:G:B")
                }
                o.background = RGBColor(red: UInt8(r), green: UInt8(g), blue: UInt8(b))
            } else {
                guard let hex = arg(0), let c = RGBColor(hex: hex) else {
                    throw RequestError.invalidURL("\(name): expected six hex digits (ffffff) or R:G:B")
                }
                o.background = c
            }
        case "q", "quality":
            try needArgs(1...1)
            let q = try int(0, "quality", 0...100) ?? 0
            o.quality = q == 0 ? nil : q
        case "t", "trim":
            // threshold[:color[:equal_hor[:equal_ver]]]
            try needArgs(1...4)
            var trim = Trim(threshold: try int(0, "threshold", 0...255) ?? 10)
            if let hex = arg(1) {
                guard let c = RGBColor(hex: hex) else {
                    throw RequestError.invalidURL("\(name): the colour is six hex digits")
                }
                trim.color = c
            }
            trim.equalHorizontal = bool(2) ?? false
            trim.equalVertical = bool(3) ?? false
            o.trim = trim
        case "wm", "watermark":
            // opacity[:position[:x:y[:scale]]]; position `re` tiles it.
            try needArgs(1...5)
            o.watermarkOpacity = try double(0, "opacity", 0...1) ?? 0
            if let position = arg(1) {
                o.watermarkTiled = position == "re"
                let offsets = Array(args.dropFirst(2).prefix(2))
                o.watermarkGravity = try gravity([o.watermarkTiled ? "ce" : position] + offsets, option: name)
                guard !o.watermarkGravity.findsAttention else {
                    throw RequestError.invalidURL("\(name): a watermark takes no smart position")
                }
            }
            o.watermarkScale = try double(4, "scale", 0...1) ?? 0
        case "mb", "max_bytes":
            try needArgs(1...1)
            let bytes = try int(0, "bytes", 0...(1 << 30)) ?? 0
            o.maxBytes = bytes == 0 ? nil : bytes
        case "f", "format", "ext":
            try needArgs(1...1)
            o.format = try outputFormat(named: args[0])
        case "pr", "preset":
            // Presets may name presets, as imgproxy's; a chain deeper than maxPresetDepth (a loop) is refused.
            try needArgs(1...16)
            guard depth < URLRules.maxPresetDepth else {
                throw RequestError.invalidURL(
                    "presets name presets more than \(URLRules.maxPresetDepth) deep (a loop?)")
            }
            for p in args {
                guard let text = rules.presets[String(p)] else {
                    throw RequestError.invalidURL("unknown preset \"\(p)\"")
                }
                for part in text.split(separator: "/") where !part.isEmpty {
                    try apply(option: part, to: &o, rules: rules, depth: depth + 1)
                }
            }
        case "msr", "max_src_resolution", "msfs", "max_src_file_size", "maf", "max_animation_frames", "mafr",
            "max_animation_frame_resolution", "mrd", "max_result_dimension":
            guard rules.allowsSecurityOptions else {
                throw RequestError.invalidURL("\(name) is a security option; the server does not allow them in URLs")
            }
            try needArgs(1...1)
            switch name {
            case "msr", "max_src_resolution": o.maxSourceMegapixels = try double(0, "megapixels", 0...100_000)
            case "msfs", "max_src_file_size": o.maxSourceBytes = try int(0, "bytes", 0...(1 << 40))
            case "maf", "max_animation_frames": o.maxAnimationFrames = try int(0, "frames", 0...1_000_000)
            case "mrd", "max_result_dimension": o.maxResultDimension = try int(0, "pixels", 0...(1 << 30))
            default: o.maxAnimationFrameMegapixels = try double(0, "megapixels", 0...100_000)
            }
        case "cb", "cachebuster":
            try needArgs(1...1)
            o.cacheBuster = String(args[0])
        case "exp", "expires":
            try needArgs(1...1)
            // 0 is no expiry, as imgproxy reads it.
            let expires = try int(0, "expiry (Unix time)", 0...Int(Int32.max) * 4)
            o.expires = expires == 0 ? nil : expires
        case "fn", "filename":
            try needArgs(1...2)
            var filename = String(args[0])
            if bool(1) == true {
                guard let bytes = SigningKeys.decodeBase64url(args[0]), let text = String(bytes: bytes, encoding: .utf8)
                else {
                    throw RequestError.invalidURL("\(name): the filename is not Base64url-encoded UTF-8")
                }
                filename = text
            } else {
                filename = filename.removingPercentEncoding ?? filename
            }
            guard filename.utf8.count <= 255,
                !filename.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else {
                throw RequestError.invalidURL("\(name): a filename has at most 255 bytes and no control characters")
            }
            o.filename = filename.isEmpty ? nil : filename
        case "att", "return_attachment":
            try needArgs(1...1)
            o.attachment = bool(0) ?? false
        case "ra", "resizing_algorithm":
            try needArgs(1...1)
            switch args[0] {
            case "nearest", "linear": o.fast = true
            case "cubic", "lanczos2", "lanczos3": o.fast = false
            default:
                throw RequestError.invalidURL(
                    "\(name): expected nearest, linear, cubic, lanczos2 or lanczos3, not \"\(args[0])\"")
            }
        case "sm", "strip_metadata":
            try needArgs(1...1)
            o.stripMetadata = bool(0) ?? true
        case "kcr", "keep_copyright":
            try needArgs(1...1)
            o.keepCopyright = bool(0) ?? true
        case "scp", "strip_color_profile":
            try needArgs(1...1)
            o.stripColorProfile = bool(0) ?? true
        case "eth", "enforce_thumbnail":
            try needArgs(1...1)
            o.enforceThumbnail = bool(0) ?? false
        case "raw":
            try needArgs(1...1)
            o.raw = bool(0) ?? false
        case "skp", "skip_processing":
            try needArgs(1...16)
            o.skipProcessing = try args.map { (a) throws(RequestError) -> ImageFormat in try sourceFormat(named: a) }
        case "fq", "format_quality":
            // FORMAT:QUALITY pairs; a quality of 0 drops the format's entry.
            guard args.count % 2 == 0, !args.isEmpty, args.count <= 16 else {
                throw RequestError.invalidURL("\(name) takes FORMAT:QUALITY pairs")
            }
            for i in Swift.stride(from: 0, to: args.count, by: 2) {
                let format = try outputFormat(named: args[i])
                let q = try int(i + 1, "quality", 0...100) ?? 0
                o.formatQuality[format.name] = q == 0 ? nil : q
            }
        default:
            throw RequestError.invalidURL("unknown processing option \"\(name)\"")
        }
    }

    /// The image format named `name` (any extension of a format Shrink reads or knows): what `skp` lists.
    static func sourceFormat(named name: Substring) throws(RequestError) -> ImageFormat {
        let ext = name.lowercased()
        let registry = CodecRegistry.standard
        guard
            let format = (registry.readableFormats + ImageFormat.known).first(where: { $0.fileExtensions.contains(ext) }
            )
        else {
            throw RequestError.invalidURL("unknown image format \"\(name)\"")
        }
        return format
    }

    private static func resizingType(_ text: Substring) throws(RequestError) -> ResizingType {
        guard let t = ResizingType(rawValue: String(text)) else {
            throw RequestError.invalidURL("unknown resizing type \"\(text)\" (fit, fill, fill-down, force, auto)")
        }
        return t
    }

    /// `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe`, each with optional X and Y offsets (CSS pixels,
    /// or fractions of the side below 1), `sm` (``Gravity/attention``: libvips' attention strategy; offsets do not
    /// apply), or `fp:X:Y`, a focus point the window is centred on.
    private static func gravity(_ args: [Substring], option: Substring) throws(RequestError) -> Gravity {
        let type = args[0]
        if type == "fp" {
            guard args.count == 3, let x = Double(args[1]), let y = Double(args[2]), (0...1).contains(x),
                (0...1).contains(y)
            else {
                throw RequestError.invalidURL("\(option):fp needs X:Y between 0 and 1")
            }
            return .focus(x: x, y: y)
        }
        guard args.count <= 3 else { throw RequestError.invalidURL("\(option): a gravity takes at most two offsets") }
        var offsets = [0.0, 0.0]
        for (i, text) in args.dropFirst().enumerated() where !text.isEmpty {
            guard let v = Double(text), v.isFinite, abs(v) <= Double(ProcessingOptions.maxSide) else {
                throw RequestError.invalidURL(
                    "\(option): a gravity offset is a number up to \(ProcessingOptions.maxSide), not \"\(text)\"")
            }
            offsets[i] = v
        }
        return try compass(type, option: option).offset(x: offsets[0], y: offsets[1])
    }

    private static func compass(_ type: Substring, option: Substring) throws(RequestError) -> Gravity {
        switch type {
        case "ce": return .centre
        case "sm": return .attention
        case "no": return .north
        case "so": return .south
        case "ea": return .east
        case "we": return .west
        case "noea": return .northEast
        case "nowe": return .northWest
        case "soea": return .southEast
        case "sowe": return .southWest
        default: throw RequestError.invalidURL("\(option): unknown gravity \"\(type)\"")
        }
    }
}
