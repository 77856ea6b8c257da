#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Shrink
import ShrinkServerURL
import Synchronization

/// The gallery's view of the local root: a folder's sub-folders and image files (read with `readdir`, names as
/// bytes, so a name that is not UTF-8 is shown, not lost), and each image's ``GalleryTile`` from a header read,
/// kept per file version (path, size, modification time) so that a page shown again reads nothing.
///
/// Cost: one `stat` per directory entry per listing; one header read (a few KiB of the file) per new or
/// changed image; at most ``capacity`` tiles kept (a few hundred bytes each).
package final class GalleryIndex: Sendable {
    /// A folder's contents, sorted by name (case-insensitively), hidden entries (`.name`) left out.
    package struct Listing: Sendable {
        package var folders: [String]
        /// Raw names of image files (an extension Shrink reads).
        package var images: [[UInt8]]
    }

    /// Tiles kept at most; the cache starts over when full.
    package let capacity = 20_000
    /// Directory entries read at most per folder.
    package let maxEntries = 100_000
    package let local: LocalSource
    private let limits: ImageLimits
    /// A tile's cache key: the name as listed (a symlink's tile is its own, under its own name, never the tile
    /// of the file it points to), the file it resolves to, and that file's size and modification time.
    private struct Stamp: Hashable { let listed: String; let path: String; let size: Int; let mtime: Int }
    private let tiles = Mutex<[Stamp: GalleryTile]>([:])

    package init(local: LocalSource, limits: ImageLimits) {
        self.local = local
        self.limits = limits
    }

    /// The folder `path` (relative to the root, `/` for the root itself).
    package func listing(_ path: String) throws(RequestError) -> Listing {
        let directory = try local.directory(path)
        guard let handle = opendir(directory) else { throw RequestError(404, "\(path): cannot be listed") }
        defer { closedir(handle) }
        var listing = Listing(folders: [], images: [])
        var seen = 0
        while seen < maxEntries, let entry = readdir(handle) {
            seen += 1
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { buffer in Array(buffer.prefix(while: { $0 != 0 })) }
            guard let first = raw.first, first != UInt8(ascii: ".") else { continue }
            var st = stat()
            let full = directory + "/" + String(decoding: raw, as: UTF8.self)
            guard String(validating: raw, as: UTF8.self) != nil else {
                // Not UTF-8: stat through the raw bytes.
                if CodecRegistry.standard.format(forPath: String(decoding: raw, as: UTF8.self)) != nil,
                    Self.isRegularFile(directory: directory, raw: raw)
                {
                    listing.images.append(raw)
                }
                continue
            }
            guard stat(full, &st) == 0 else { continue }
            let name = String(decoding: raw, as: UTF8.self)
            if (st.st_mode & S_IFMT) == S_IFDIR {
                listing.folders.append(name)
            } else if (st.st_mode & S_IFMT) == S_IFREG, CodecRegistry.standard.format(forPath: name) != nil {
                listing.images.append(raw)
            }
        }
        listing.folders.sort { $0.lowercased() < $1.lowercased() || ($0.lowercased() == $1.lowercased() && $0 < $1) }
        listing.images.sort {
            let a = String(decoding: $0, as: UTF8.self).lowercased(),
                b = String(decoding: $1, as: UTF8.self).lowercased()
            return a < b || (a == b && $0.lexicographicallyPrecedes($1))
        }
        return listing
    }

    /// The tile of image `raw` in folder `folder` (relative to the root): from the cache when the file has not
    /// changed, else from a header read.
    package func tile(folder: String, raw: [UInt8]) -> GalleryTile {
        let display = String(decoding: raw, as: UTF8.self)
        guard String(validating: raw, as: UTF8.self) != nil else {
            return GalleryTile(
                path: nil, name: display, bytes: 0, info: nil,
                error: "the file name is not valid UTF-8, so no URL can name it: rename the file")
        }
        let relative = (folder.hasSuffix("/") ? folder : folder + "/") + display
        let path: String
        do { path = try local.resolve("local://" + relative) } catch {
            return GalleryTile(path: relative, name: display, bytes: 0, info: nil, error: error.message)
        }
        var st = stat()
        guard stat(path, &st) == 0 else {
            return GalleryTile(path: relative, name: display, bytes: 0, info: nil, error: "cannot be read")
        }
        let stamp = Stamp(
            listed: relative, path: path, size: Int(st.st_size),
            mtime: Int(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(st.st_mtim.tv_nsec))
        if let hit = tiles.withLock({ $0[stamp] }) { return hit }
        let made: GalleryTile
        do {
            let source = try ImageSource(path: path, limits: limits)
            made = GalleryTile(path: relative, name: display, bytes: stamp.size, info: source.info, error: nil)
        } catch {
            made = GalleryTile(
                path: relative, name: display, bytes: stamp.size, info: nil,
                error: error.message.replacingOccurrences(of: local.root, with: ""))
        }
        tiles.withLock { t in
            if t.count >= capacity { t.removeAll(keepingCapacity: true) }
            t[stamp] = made
        }
        return made
    }

    private static func isRegularFile(directory: String, raw: [UInt8]) -> Bool {
        var path = Array(directory.utf8) + [UInt8(ascii: "/")] + raw + [0]
        var st = stat()
        return path.withUnsafeMutableBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &st) == 0 }
        } && (st.st_mode & S_IFMT) == S_IFREG
    }
}
