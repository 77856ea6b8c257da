import Shrink

/// A pipeline loader for an http(s) source: its identity is the URL (with the cache buster), so identical
/// URLs coalesce and hit the caches without a fetch; the bytes come from ``RemoteFetcher/fetch(_:)``.
package struct RemoteLoader: DataLoading {
    package let url: String
    package let cacheBuster: String?
    let fetcher: RemoteFetcher

    package var name: String { url }

    package func identity() throws(ImageError) -> String { "url:" + url + (cacheBuster.map { "#cb=" + $0 } ?? "") }

    package func load() async throws(ImageError) -> ImageBytes { try await fetcher.fetch(url) }
}
