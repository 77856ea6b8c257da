import ShrinkCore

/// An `s3://BUCKET/KEY` source taken apart, with an object version as imgproxy's docs write it
/// (`s3://BUCKET/KEY?VERSION_ID`; `?versionId=VERSION_ID` is read the same). The URL is the decoded source (a plain
/// source's percent-escapes already undone), so the key is the object's name as stored.
///
/// Refused rather than guessed at: a bucket outside S3's naming rules (3–63 of `a–z 0–9 . - _`, starting and ending
/// with a letter or digit), an empty key, a key of more than 1024 bytes, with a control character, or with a `.` or
/// `..` segment (stores and the proxies in front of them disagree on whether those are resolved), and an empty or
/// malformed version.
///
/// Two locations are equal when their bucket, key and version are the same bytes: S3 names objects by bytes, so a key
/// in NFC and the same text in NFD are two objects (Swift's `String ==` would call them one).
package struct S3Location: Sendable, Hashable, CustomStringConvertible {
    package let bucket: String
    package let key: String
    /// The object version, nil for the current one.
    package let versionID: String?

    /// `text` taken apart, or nil when it is not an `s3://` source this reads unambiguously. It is split at the first
    /// `?` byte and the first `/` byte after the scheme, as a store splits it (not at Swift `Character`s, which join a
    /// `/` or `?` to a combining mark after it or a prepended character before it).
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count <= 4096, bytes.count > 5, String(decoding: bytes[..<5], as: UTF8.self).lowercased() == "s3://"
        else { return nil }
        var rest = bytes[5...]
        var version: ArraySlice<UInt8>?
        if let q = rest.firstIndex(of: 0x3F) {
            version = rest[(q + 1)...]
            rest = rest[..<q]
        }
        guard let slash = rest.firstIndex(of: 0x2F) else { return nil }
        let bucket = String(decoding: rest[..<slash], as: UTF8.self)
        let key = String(decoding: rest[(slash + 1)...], as: UTF8.self)
        guard Self.isBucketName(Substring(bucket)), Self.isKey(Substring(key)) else { return nil }
        if var v = version {
            if v.starts(with: "versionId=".utf8) { v = v.dropFirst("versionId=".utf8.count) }
            guard !v.isEmpty, v.count <= 1024, v.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x23 })
            else { return nil }
            versionID = String(decoding: v, as: UTF8.self)
        } else {
            versionID = nil
        }
        self.bucket = bucket
        self.key = key
    }

    package init(bucket: String, key: String, versionID: String? = nil) {
        self.bucket = bucket
        self.key = key
        self.versionID = versionID
    }

    package static func == (a: S3Location, b: S3Location) -> Bool {
        func same(_ x: String?, _ y: String?) -> Bool {
            switch (x, y) {
            case (nil, nil): true
            case (let x?, let y?): x.utf8.elementsEqual(y.utf8)
            default: false
            }
        }
        return same(a.bucket, b.bucket) && same(a.key, b.key) && same(a.versionID, b.versionID)
    }

    package func hash(into hasher: inout Hasher) {
        for part in [bucket, key, versionID ?? ""] { hasher.combine(utf8: part) }
        hasher.combine(versionID == nil)
    }

    /// `s3://BUCKET/KEY`, with `?versionId=VERSION_ID` when there is one: the spelling that reads back as the same
    /// version whatever it holds (`?VERSION_ID` alone would lose a version that itself begins with `versionId=`).
    package var description: String { "s3://\(bucket)/\(key)" + (versionID.map { "?versionId=" + $0 } ?? "") }

    /// True when the bucket may also be a host name label (virtual-hosted addressing): no `_`, no `.` (a dotted
    /// bucket breaks the TLS certificate's wildcard).
    package var isDNSCompatible: Bool { !bucket.contains("_") && !bucket.contains(".") }

    /// S3's bucket rules, with `_` (older buckets, and stores other than AWS, have it): 3–63 bytes of lower-case
    /// letters, digits, `.`, `-`, `_`, beginning and ending with a letter or digit.
    package static func isBucketName(_ name: Substring) -> Bool {
        let bytes = Array(name.utf8)
        func alnum(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        guard (3...63).contains(bytes.count), alnum(bytes.first!), alnum(bytes.last!) else { return false }
        return bytes.allSatisfy { alnum($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }
    }

    /// A key: 1–1024 bytes of UTF-8 with no control character and no `.` or `..` segment. Segments are split at every
    /// `/` byte (a `/` followed by a combining mark is one Swift `Character`, but a store splits there all the same).
    package static func isKey(_ key: Substring) -> Bool {
        guard !key.isEmpty, key.utf8.count <= 1024 else { return false }
        guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        return !key.utf8.split(separator: 0x2F, omittingEmptySubsequences: false).contains {
            $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8)
        }
    }
}
