import Mustache
import ShrinkServerURL

/// The gallery's Mustache templates and its style sheet and script (`Gallery/Templates/`, embedded in the binary
/// by the manifest's `.embedInCode("Gallery/Templates")`: `shrink` stays one file, nothing is read at run time),
/// and the context types the templates read. Fields are stored properties (swift-mustache looks them up with
/// `Mirror`: a computed property is invisible to it); a nil optional is looked up again in the enclosing
/// contexts, so no optional field shares its name with a field of a context around it.
///
/// Every `{{value}}` is escaped by ``HTML/escape(_:)`` (each template starts with `{{% CONTENT_TYPE: SHRINK_HTML }}`):
/// swift-mustache's own HTML escaping works on grapheme clusters (a `"` followed by a combining mark is left as it
/// is) and keeps control characters and bidirectional overrides.
struct GalleryTemplates: Sendable {
    /// The `CONTENT_TYPE` every template names.
    static let contentType = "SHRINK_HTML"
    static let names = ["head", "tail", "crumbs", "table", "tile", "folder", "inspector", "login"]

    private struct Escaper: MustacheContentType {
        func escapeText(_ text: String) -> String { HTML.escape(text) }
    }

    /// Registered once, before any template is parsed (the pragma is resolved while parsing).
    private static let registered: Void = MustacheContentTypes.register(Escaper(), named: contentType)

    let library: MustacheLibrary
    let css: [UInt8]
    let script: [UInt8]

    /// Parses every template; fails with the template's name and position when one does not parse.
    init() throws(ConfigurationError) {
        _ = Self.registered
        let sources: [String: [UInt8]] = [
            "head": PackageResources.head_mustache, "tail": PackageResources.tail_mustache,
            "crumbs": PackageResources.crumbs_mustache, "table": PackageResources.table_mustache,
            "tile": PackageResources.tile_mustache, "folder": PackageResources.folder_mustache,
            "inspector": PackageResources.inspector_mustache, "login": PackageResources.login_mustache,
        ]
        var library = MustacheLibrary()
        for name in Self.names {
            do {
                try library.register(String(decoding: sources[name]!, as: UTF8.self), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw ConfigurationError(
                    "gallery template \(name): line \(error.context.lineNumber), column \(error.context.columnNumber): \(error.error)"
                )
            } catch {
                throw ConfigurationError("gallery template \(name): \(error)")
            }
        }
        self.library = library
        css = PackageResources.gallery_css
        script = PackageResources.gallery_js
    }

    /// `context` rendered with the template `name` (one of ``names``: an unknown name is a programming error).
    func render(_ context: Any, _ name: String) -> String {
        guard let text = library.render(context, withTemplate: name) else {
            preconditionFailure("no gallery template named \(name)")
        }
        return text
    }

    // MARK: - Contexts

    /// A link: a breadcrumb or a sub-folder (`crumbs.mustache`, `folder.mustache`).
    struct Link {
        var href: String
        var name: String
    }

    /// One `srcset` candidate: a URL and the width the server sends for it. The tile's contexts answer lookups
    /// by name (`MustacheParent`) instead of through `Mirror`: a folder page renders a hundred of them.
    struct Candidate: MustacheParent {
        var url: String
        var width: Int

        func child(named name: String) -> Any? {
            switch name {
            case "url": url
            case "width": width
            default: nil
            }
        }
    }

    /// A tile's image (`tile.mustache`).
    struct TileImage: MustacheParent {
        var src: String
        var srcset: [Candidate]
        var width: Int
        var height: Int

        func child(named name: String) -> Any? {
            switch name {
            case "src": src
            case "srcset": srcset
            case "width": width
            case "height": height
            default: nil
            }
        }
    }

    /// One tile (`tile.mustache`): exactly one of `error` and `image` is set; `inspectHref` is nil only for an
    /// error tile whose name cannot be put in a URL.
    struct Tile: MustacheParent {
        var name: String
        var inspectHref: String?
        var error: String?
        var image: TileImage?
        var eager: Bool

        func child(named key: String) -> Any? {
            switch key {
            case "name": name
            case "inspectHref": inspectHref
            case "error": error
            case "image": image
            case "eager": eager
            default: nil
            }
        }
    }

    /// A folder page (`folder.mustache`).
    struct FolderPage {
        /// The page's title: the folder, or `Gallery` at the root.
        var title: String
        /// The breadcrumbs, root first.
        var crumbs: [Link]
        /// Sub-folders in the whole folder (not only on this page).
        var folderCount: Int
        /// Images in the whole folder (not only on this page).
        var imageCount: Int
        /// More than one page: the summary names the page and the page links are shown.
        var paged: Bool
        /// This page, from 1.
        var page: Int
        /// The number of pages.
        var pages: Int
        /// The sub-folders, linked.
        var folders: [Link]
        /// The folder, relative to the root: where uploads dropped on the page go.
        var folder: String
        /// This page's tiles.
        var tiles: [Tile]
        /// The previous page, when there is one.
        var previousPage: Int?
        /// The next page, when there is one.
        var nextPage: Int?
    }

    /// A table of facts (`table.mustache`).
    struct Table {
        struct Row {
            var label: String
            var value: String
        }
        var id: String
        var rows: [Row]
    }

    /// The inspector's image and its tables (`inspector.mustache`).
    struct InspectorImage {
        var url: String
        var width: Int
        var height: Int
        var source: Table
        var plan: Table?
    }

    /// An image's inspector (`inspector.mustache`): exactly one of `image` and `error` is set.
    struct InspectorPage {
        var title: String
        var crumbs: [Link]
        var name: String
        var previousHref: String?
        var upHref: String
        var nextHref: String?
        var image: InspectorImage?
        var error: String?
    }

    /// The login form (`login.mustache`).
    struct LoginPage {
        var title: String
        var failed: Bool
    }
}
