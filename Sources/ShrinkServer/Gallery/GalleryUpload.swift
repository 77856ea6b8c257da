#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Shrink
import ShrinkServerURL

/// Writes one uploaded file into a gallery folder: streamed to a hidden temporary file beside its target
/// (`O_EXCL`, mode 0644) with the byte cap counted as it arrives, sniffed (a format Shrink reads), its header
/// checked against the limits and its cheapest plan against the decode budget, then linked into place under a sanitised, unused name — so a reader never sees
/// half a file and a failed upload leaves nothing behind.
///
/// Memory: one chunk of the body at a time.
struct GalleryUpload {
    let directory: String
    let maxBytes: Int
    let limits: ImageLimits
    /// The pipeline's decode budget: a file whose cheapest plan for the largest gallery tile does not fit is
    /// refused (the server could never show it).
    let budget: Int

    /// `name` made safe for a file name: the last path component only, no control or separator characters, no
    /// leading dot or space, at most 200 bytes, `upload` when nothing is left; its extension made to match
    /// `format` (replaced or added).
    static func sanitise(_ name: String, format: ImageFormat) -> String {
        var cleaned = String(
            String.UnicodeScalarView(
                name.unicodeScalars.filter {
                    $0.value >= 0x20 && $0.value != 0x7F && $0 != "/" && $0 != "\\"
                        && !("\u{202A}"..."\u{202E}").contains($0)
                        && !("\u{2066}"..."\u{2069}").contains($0)
                }))
        while let f = cleaned.first, f == "." || f == " " { cleaned.removeFirst() }
        var stem = cleaned, ext = format.fileExtension
        if let dot = cleaned.lastIndex(of: "."), let named = CodecRegistry.pathExtension(of: cleaned) {
            if format.fileExtensions.contains(named) {
                stem = String(cleaned[..<dot])
                ext = named
            } else if CodecRegistry.standard.format(forPath: cleaned) != nil {
                stem = String(cleaned[..<dot]) // another image format's extension: replaced
            }
        }
        while stem.utf8.count > 200 { stem.removeLast() }
        if stem.isEmpty { stem = "upload" }
        return stem + "." + ext
    }

    /// An upload's temporary file older than this many seconds belongs to no upload in flight (a server killed
    /// during one leaves it behind): an hour, far beyond an upload's idle timeout.
    static let staleSeconds = 3600

    /// An upload's temporary file is named `PREFIX` DIGITS `SUFFIX` (hidden, so never listed or served).
    static let temporaryPrefix = ".upload-", temporarySuffix = ".part"

    /// True for the name of an upload's temporary file.
    static func isTemporary(_ name: String) -> Bool {
        let digits = name.dropFirst(temporaryPrefix.count).dropLast(temporarySuffix.count)
        return name.hasPrefix(temporaryPrefix) && name.hasSuffix(temporarySuffix)
            && name.count > temporaryPrefix.count + temporarySuffix.count && digits.allSatisfy(\.isNumber)
    }

    /// Removes the upload temporaries under `root` (folders that are not hidden; symlinks not followed) last
    /// modified more than ``staleSeconds`` before `now`; returns how many. Run once when the gallery starts.
    static func sweep(root: String, now: Int = Int(time(nil))) -> Int {
        var removed = 0
        var folders = [root]
        while let folder = folders.popLast() {
            guard let dir = opendir(folder) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cBytes: $0) }
                guard name != ".", name != ".." else { continue }
                let path = folder + "/" + name
                var st = stat()
                guard lstat(path, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR where !name.hasPrefix("."): folders.append(path)
                case S_IFREG where isTemporary(name) && Int(st.st_mtim.tv_sec) < now - staleSeconds:
                    if unlink(path) == 0 { removed += 1 }
                default: break
                }
            }
        }
        return removed
    }

    /// Streams `body` into the folder as `name`; returns the final name (the sanitised one, numbered `-1`, `-2`…
    /// when taken: an upload never replaces a file).
    /// `expectedBytes` is the request's `Content-Length`: a body that ends short of it was cut off (400).
    func store<Body: AsyncSequence>(name: String, body: Body, expectedBytes: Int? = nil) async throws(RequestError)
        -> String
    where Body.Element == [UInt8] {
        let temporary =
            directory + "/" + Self.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max)) + Self.temporarySuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw RequestError(500, "cannot write into the folder: \(String(cString: strerror(errno)))")
        }
        // The temporary name goes in every case: after link() the upload lives on under its own name.
        defer { unlink(temporary) }
        var total = 0
        var head: [UInt8] = []
        do {
            for try await chunk in body {
                total += chunk.count
                guard total <= maxBytes else {
                    close(fd)
                    throw RequestError(413, "the upload is larger than \(maxBytes) bytes")
                }
                if head.count < 64 { head += chunk.prefix(64 - head.count) }
                var written = 0
                while written < chunk.count {
                    let n = chunk[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    guard n > 0 else {
                        close(fd)
                        throw RequestError(500, "cannot write the upload: \(String(cString: strerror(errno)))")
                    }
                    written += n
                }
            }
        } catch let error as RequestError {
            throw error
        } catch {
            close(fd)
            throw RequestError(400, "the upload was cut short")
        }
        close(fd)
        guard total > 0 else { throw RequestError(400, "the upload is empty") }
        if let expectedBytes, total != expectedBytes {
            throw RequestError(400, "the upload was cut short: \(total) of \(expectedBytes) bytes")
        }
        guard let format = head.withUnsafeBytes({ CodecRegistry.standard.codec(sniffing: $0)?.format }) else {
            let named = head.withUnsafeBytes { ImageFormat(sniffing: $0) }
            throw RequestError(
                415,
                named.map { "\($0) is not a format Shrink reads" }
                    ?? "not an image: the first bytes are no format Shrink reads")
        }
        // The format of the whole file decides the name: its first bytes alone can read a camera RAW file (a DNG, a NEF)
        // as the TIFF it also is.
        var opened = format
        do {
            let source = try ImageSource(path: temporary, limits: limits)
            opened = source.info.format
            let largest = GalleryPages.widths.max() ?? 960
            _ = try source.plan(.box(PixelSize(width: largest, height: largest), fit: .inside), within: budget)
        } catch {
            throw RequestError(
                error.code == .limitExceeded || error.code == .memoryBudgetExceeded ? 413 : 422,
                "not accepted: " + error.message.replacingOccurrences(of: temporary, with: name))
        }
        let clean = Self.sanitise(name, format: opened)
        for attempt in 0..<1000 {
            let candidate = attempt == 0 ? clean : Self.numbered(clean, attempt)
            // link() fails when the name exists: no upload replaces a file.
            if link(temporary, directory + "/" + candidate) == 0 {
                return candidate
            }
            guard errno == EEXIST else {
                throw RequestError(500, "cannot name the upload: \(String(cString: strerror(errno)))")
            }
        }
        throw RequestError(409, "too many files named like \(clean)")
    }

    private static func numbered(_ name: String, _ n: Int) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "\(name)-\(n)" }
        return "\(name[..<dot])-\(n)\(name[dot...])"
    }
}
