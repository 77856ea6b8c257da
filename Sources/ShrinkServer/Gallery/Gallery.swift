import Foundation
import Shrink
import ShrinkServerURL
import Synchronization

/// `shrink serve --gallery`: pages for people under `/_/` — browse a folder of the local root as a grid of
/// thumbnails, inspect one image (its header, its plan, what serving it cost), watch the server's budget and
/// queue, upload by drag and drop. Off unless asked for; loopback clients only unless a token is configured
/// (``GalleryAccess``); every response carries a strict Content-Security-Policy and `X-Robots-Tag: noindex`.
///
/// Pages are made from header reads only (``GalleryIndex``): rendering a page decodes nothing; the tiles'
/// images are ordinary signed image URLs, served, cached and coalesced like any other.
package struct Gallery: Sendable {
    /// The request facts the gallery needs, apart from the body.
    package struct Request: Sendable {
        package var method: String
        package var target: Substring
        package var remote: IPAddress?
        package var authorization: String?
        package var cookie: String?
        package var origin: String?
        package var host: String?
        package var contentLength: Int?
        /// The request carries a forwarding header (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`, `Via`): it came
        /// through a proxy, whoever the peer is.
        package var forwarded: Bool

        package init(
            method: String, target: Substring, remote: IPAddress?, authorization: String? = nil, cookie: String? = nil,
            origin: String? = nil, host: String? = nil, contentLength: Int? = nil, forwarded: Bool = false
        ) {
            self.method = method
            self.target = target
            self.remote = remote
            self.authorization = authorization
            self.cookie = cookie
            self.origin = origin
            self.host = host
            self.contentLength = contentLength
            self.forwarded = forwarded
        }
    }

    package let service: ImageService
    package let index: GalleryIndex
    package let access: GalleryAccess
    /// Failed logins per client address.
    package let logins = LoginLimiter()
    let pages: GalleryPages

    /// The gallery over `service`'s local root; fails when there is none.
    package init(service: ImageService, token: String?) throws(ConfigurationError) {
        guard let root = service.configuration.localRoot else {
            throw ConfigurationError("--gallery needs a local root (--root)")
        }
        self.service = service
        let local = try LocalSource(root: root)
        index = GalleryIndex(local: local, limits: service.configuration.limits)
        access = GalleryAccess(token: token)
        pages = try GalleryPages(keys: service.configuration.keys)
        // Upload temporaries a killed server left behind, swept once in the background.
        Task.detached(priority: .background) { _ = GalleryUpload.sweep(root: local.root) }
    }

    /// Headers every gallery response carries.
    static let securityHeaders = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Robots-Tag", "noindex, nofollow"), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    ]

    /// The gallery's pages: the first segment after `/_/` of every path it answers.
    static let pages: Set<Substring> = [
        "gallery.css", "gallery.js", "login", "browse", "inspect", "stats", "telemetry", "upload",
    ]

    /// True when `target` is one of the gallery's paths: `/_`, `/_/`, or `/_/PAGE…` for one of its ``pages``. Every
    /// other path under `/_/` is an image URL whose signature is `_` (pyimgproxy's placeholder): an imgproxy URL's
    /// second segment is a processing option (`NAME:ARGS`), `plain`, a preset or a Base64 source, and none of those
    /// is a page name (a preset named like one is shadowed).
    package static func owns(_ target: Substring) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path != "/_", path != "/_/" else { return true }
        guard path.hasPrefix("/_/") else { return false }
        let page = path.dropFirst(3).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return pages.contains(page)
    }

    /// Answers a request under `/_/`; `body` is read only by uploads and the login form.
    package func respond<Body: AsyncSequence>(to request: Request, body: Body) async -> ServerResponse
    where Body.Element == [UInt8] {
        service.trimmer.enter()
        defer { service.trimmer.leave() }
        var response = await route(request, body: body)
        response.headers += Self.securityHeaders
        if !response.headers.contains(where: { $0.0 == "Cache-Control" }) {
            response.headers.append(("Cache-Control", "no-store"))
        }
        service.metrics.request(route: "gallery", status: response.status)
        return response
    }

    private func route<Body: AsyncSequence>(_ request: Request, body: Body) async -> ServerResponse
    where Body.Element == [UInt8] {
        let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        switch (request.method, path) {
        case ("GET", "/_/gallery.css"):
            return ServerResponse(
                status: 200, headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "max-age=300")],
                body: pages.templates.css)
        case ("GET", "/_/gallery.js"):
            return ServerResponse(
                status: 200,
                headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "max-age=300")],
                body: pages.templates.script)
        case ("GET", "/_/login"):
            return access.requiresToken ? html(200, pages.login(failed: false)) : redirect("/_/browse/")
        case ("POST", "/_/login"):
            return await login(request, body: body)
        default:
            break
        }
        // Credentials are counted like logins: a wrong Bearer token or session cookie is a failure.
        let credentials =
            request.authorization != nil || (request.cookie ?? "").contains(GalleryAccess.cookieName + "=")
        let address = LoginLimiter.key(for: request.remote), now = Int(Date().timeIntervalSince1970)
        if credentials, access.requiresToken, let refused = logins.refusal(for: address, now: now) { return refused }
        let decision = access.decide(
            remote: request.remote, host: request.host, authorization: request.authorization,
            cookieHeader: request.cookie, forwarded: request.forwarded, now: now)
        if credentials, decision == .loginRequired { logins.failed(address, now: now) }
        switch decision {
        case .allowed: break
        case .forwarded:
            return .text(
                403,
                "the gallery came through a proxy: without SHRINK_GALLERY_TOKEN it is served to loopback clients only")
        case .notLoopback:
            return .text(
                403, "the gallery is served to loopback clients only; set SHRINK_GALLERY_TOKEN to open it to others")
        case .foreignHost:
            return .text(
                421, "without SHRINK_GALLERY_TOKEN the gallery answers only requests for localhost, 127.0.0.1 or [::1]")
        case .loginRequired:
            return request.method == "GET" && !path.hasPrefix("/_/stats") && !path.hasPrefix("/_/telemetry")
                ? html(401, pages.login(failed: false))
                : .text(401, "log in at /_/login or send Authorization: Bearer TOKEN")
        }
        do throws(RequestError) {
            switch request.method {
            case "GET" where path == "/_/" || path == "/_":
                return redirect("/_/browse/")
            case "GET" where path.hasPrefix("/_/browse/") || path == "/_/browse":
                return try browse(decoded(path.dropFirst("/_/browse".count)), query: query)
            case "GET" where path.hasPrefix("/_/inspect/"):
                return try await inspect(decoded(path.dropFirst("/_/inspect".count)))
            case "GET" where path == "/_/stats":
                return json(stats())
            case "GET" where path.hasPrefix("/_/telemetry/"):
                return try telemetry(decoded(path.dropFirst("/_/telemetry/".count)))
            case "PUT" where path.hasPrefix("/_/upload/"):
                return try await upload(request, rawPath: path.dropFirst("/_/upload".count), body: body)
            default:
                return .text(404, "no such gallery page: \(path.prefix(200))")
            }
        } catch {
            return .text(error.status, error.message)
        }
    }

    // MARK: - Pages

    private func browse(_ folder: String, query: Substring) throws(RequestError) -> ServerResponse {
        let folder = folder.isEmpty ? "/" : folder
        let listing = try index.listing(folder)
        let pageCount = max(1, (listing.images.count + GalleryPages.pageSize - 1) / GalleryPages.pageSize)
        let page = min(pageCount, max(1, Self.queryValue("page", in: query).flatMap { Int($0) } ?? 1))
        let slice = listing.images.dropFirst((page - 1) * GalleryPages.pageSize).prefix(GalleryPages.pageSize)
        let tiles = slice.map { index.tile(folder: folder, raw: $0) }
        return html(200, pages.folder(folder, listing: listing, tiles: tiles, page: page, pages: pageCount))
    }

    private func inspect(_ path: String) async throws(RequestError) -> ServerResponse {
        guard let slash = path.lastIndex(of: "/") else { throw RequestError(404, "no such image") }
        let folder = path[..<slash].isEmpty ? "/" : String(path[..<slash])
        let name = Array(path[path.index(after: slash)...].utf8)
        let listing = try index.listing(folder)
        guard let position = listing.images.firstIndex(of: name) else {
            throw RequestError(404, "\(path): no such image in the gallery")
        }
        let tile = index.tile(folder: folder, raw: name)
        let neighbour = { (i: Int) -> String? in
            guard listing.images.indices.contains(i) else { return nil }
            return (folder.hasSuffix("/") ? folder : folder + "/") + String(decoding: listing.images[i], as: UTF8.self)
        }
        var plan: ThumbnailPlan?
        var measured: GalleryPages.Measurement?
        if let p = tile.path, let file = try? index.local.resolve("local://" + p),
            let source = try? ImageSource(path: file, limits: service.configuration.limits)
        {
            plan = try? source.plan(.box(PixelSize(width: 640, height: 640), fit: .inside))
            measured = await measure(file)
        }
        return html(
            200,
            pages.inspector(
                tile, folder: folder, plan: plan, measurement: measured,
                previous: neighbour(position - 1), next: neighbour(position + 1)))
    }

    private static let measuring = Mutex(false)

    /// Decodes the 640 px tile of `file` once more through the server's pipeline (admitted against its budget
    /// like any decode, no cache read or written), with the heap sampled between strips
    /// (``ImageRequest/measuresMemory``): the peak it really held beside the prediction. Process-wide: decodes
    /// running at the same moment add to it. nil when the decode fails or another inspector page is measuring
    /// (one at a time).
    func measure(_ file: String) async -> GalleryPages.Measurement? {
        guard measuringStarted() else { return nil }
        defer { Self.measuring.withLock { $0 = false } }
        var request = ImageRequest(
            path: file, target: .box(PixelSize(width: 640, height: 640), fit: .inside),
            limits: service.configuration.limits,
            cachePolicy: [.skipMemoryCacheRead, .skipMemoryCacheWrite, .skipDiskCacheRead, .skipDiskCacheWrite])
        request.measuresMemory = true
        guard let response = try? await service.pipeline.image(for: request) else { return nil }
        let t = response.telemetry
        return GalleryPages.Measurement(
            predictedPeakBytes: t.predictedPeakBytes, measuredPeakBytes: t.measuredPeakBytes,
            decodePath: t.decodePath?.name ?? "—", pixelFormat: "\(response.image.pixels.format)")
    }

    /// True when no other inspector page is measuring; this one is then.
    private func measuringStarted() -> Bool {
        Self.measuring.withLock { busy in
            defer { busy = true }
            return !busy
        }
    }

    // MARK: - Data

    /// The live strip's figures, read from the same registry `/metrics` renders (refreshed first).
    package func stats() -> String {
        let m = service.metrics
        m.refresh(from: service.pipeline.ledger, downloads: service.remote?.downloads, resultStore: service.resultStore)
        let r = m.registry
        let hits = r.total("shrink_cache_hits_total")
        let decodes = r.total("shrink_decodes_total")
        let ratio = hits + decodes > 0 ? hits / (hits + decodes) : 0
        return
            "{\"budgetBytes\":\(Int(r.total("shrink_budget_bytes"))),\"budgetInUseBytes\":\(Int(r.total("shrink_budget_in_use_bytes"))),"
            + "\"queueDepth\":\(Int(r.total("shrink_queue_depth"))),\"inflight\":\(Int(r.total("shrink_inflight_requests"))),"
            + "\"hits\":\(Int(hits)),\"decodes\":\(Int(decodes)),\"hitRatio\":\(ratio),"
            + "\"rejections\":\(Int(r.total("shrink_rejections_total"))),\"residentBytes\":\(Int(r.total("shrink_resident_bytes")))}"
    }

    private func telemetry(_ etag: String) throws(RequestError) -> ServerResponse {
        guard let e = service.telemetry.entry(etag: etag) else {
            throw RequestError(404, "no telemetry kept for that ETag")
        }
        let t = e.made
        let fields: [String] = [
            "\"origin\":" + JSONText.quoted(t.coalesced ? "coalesced" : t.origin.rawValue, forHTML: true),
            "\"latestOrigin\":" + JSONText.quoted(e.latestOrigin, forHTML: true), "\"responses\":\(e.responses)",
            "\"notModified\":\(e.notModified)",
            "\"decodePath\":" + (t.decodePath.map { JSONText.quoted($0.name, forHTML: true) } ?? "null"),
            "\"decoder\":" + (t.decoder.map { JSONText.quoted($0, forHTML: true) } ?? "null"),
            "\"pixelFormat\":" + (t.pixelFormat.map { JSONText.quoted("\($0)", forHTML: true) } ?? "null"),
            "\"prescale\":\(t.prescale)", "\"predictedPeakBytes\":\(t.predictedPeakBytes)",
            "\"bytesRead\":\(t.bytesRead)",
            "\"encodedBytes\":\(t.encodedBytes)", "\"queueMs\":\(t.queueWait.inMilliseconds)",
            "\"decodeMs\":\(t.decodeTime.inMilliseconds)",
            "\"encodeMs\":\(t.encodeTime.inMilliseconds)",
            "\"encoder\":" + (t.encoder.map { JSONText.quoted($0, forHTML: true) } ?? "null"),
            "\"fallback\":" + (t.fallback.map { JSONText.quoted($0, forHTML: true) } ?? "null"),
        ]
        return json("{" + fields.joined(separator: ",") + "}")
    }

    // MARK: - Writes

    /// `rawPath` is `/FOLDER/NAME` as sent: the name is the last raw segment (an encoded `/` inside it stays in
    /// the name, where sanitising removes it), the folder what comes before.
    private func upload<Body: AsyncSequence>(_ request: Request, rawPath: Substring, body: Body)
        async throws(RequestError) -> ServerResponse
    where Body.Element == [UInt8] {
        try checkSameOrigin(request)
        guard let slash = rawPath.lastIndex(of: "/"), rawPath.index(after: slash) < rawPath.endIndex else {
            throw RequestError(400, "upload to /_/upload/FOLDER/NAME")
        }
        let folder = rawPath[..<slash].isEmpty ? "/" : try decoded(rawPath[..<slash])
        let name = try decoded(rawPath[rawPath.index(after: slash)...])
        let directory = try index.local.directory(folder)
        let max = service.configuration.maxSourceBytes
        if let length = request.contentLength, length > max {
            throw RequestError(413, "the upload is larger than \(max) bytes")
        }
        let writer = GalleryUpload(
            directory: directory, maxBytes: max, limits: service.configuration.limits,
            budget: service.pipeline.ledger.budget)
        let stored = try await writer.store(name: name, body: body, expectedBytes: request.contentLength)
        let tile = index.tile(folder: folder, raw: Array(stored.utf8))
        return ServerResponse(
            status: 201, headers: [("Content-Type", "application/json")],
            body: Array(
                ("{\"name\":" + JSONText.quoted(stored, forHTML: true) + ",\"tile\":"
                    + JSONText.quoted(pages.tile(tile, eager: true), forHTML: true) + "}").utf8))
    }

    private func login<Body: AsyncSequence>(_ request: Request, body: Body) async -> ServerResponse
    where Body.Element == [UInt8] {
        guard access.requiresToken else { return redirect("/_/browse/") }
        do throws(RequestError) { try checkSameOrigin(request) } catch { return .text(error.status, error.message) }
        var form: [UInt8] = []
        do {
            for try await chunk in body {
                form += chunk
                if form.count > 4096 { return .text(413, "the login form is too large") }
            }
        } catch {
            return .text(400, "the login form was cut short")
        }
        let address = LoginLimiter.key(for: request.remote), now = Int(Date().timeIntervalSince1970)
        if let refused = logins.refusal(for: address, now: now) { return refused }
        let token = Self.queryValue("token", in: Substring(String(decoding: form, as: UTF8.self)))
        guard let token, let cookie = access.login(with: token, now: now) else {
            logins.failed(address, now: now)
            return html(401, pages.login(failed: true))
        }
        var r = redirect("/_/browse/")
        r.headers.append(("Set-Cookie", cookie))
        return r
    }

    /// Refuses a write whose `Origin` (when a browser sent one) is not this server's own.
    private func checkSameOrigin(_ request: Request) throws(RequestError) {
        guard let origin = request.origin else { return }
        guard let host = request.host, origin == "http://" + host || origin == "https://" + host else {
            throw RequestError(403, "cross-origin writes are refused")
        }
    }

    // MARK: - Helpers

    /// The percent-decoded path; 400 for `.` or `..` segments (a browser would have collapsed them, so the URL
    /// was not made by a page) and 404 for hidden (`.name`) folders and files.
    private func decoded(_ path: Substring) throws(RequestError) -> String {
        guard let text = String(path).removingPercentEncoding else {
            throw RequestError(400, "malformed percent-escape in the path")
        }
        for segment in text.split(separator: "/") {
            if segment == "." || segment == ".." { throw RequestError(400, "no . or .. segments in gallery paths") }
            if segment.hasPrefix(".") { throw RequestError(404, "hidden files and folders are not shown") }
        }
        return text
    }

    /// The value of `name` in a `a=1&b=2` string (`+` as space, percent-decoded).
    static func queryValue(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) {
                return parts.count > 1
                    ? String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
            }
        }
        return nil
    }

    private func html(_ status: Int, _ text: String) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    private func json(_ text: String) -> ServerResponse {
        ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    private func redirect(_ location: String) -> ServerResponse {
        ServerResponse(status: 303, headers: [("Location", location)])
    }
}
