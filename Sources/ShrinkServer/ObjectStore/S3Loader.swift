import Shrink
import ShrinkServerURL

/// A pipeline loader for an `s3://` source: its identity is the store's endpoint, the object, its version and the
/// validator it was known by when the request came (with the cache buster), so identical requests coalesce and hit
/// the caches without a request to the store, and a changed object makes new results; the bytes come from
/// ``ObjectStoreClient/get(_:ifMatch:)``, asked for by that validator.
package struct S3Loader: DataLoading {
    package let location: S3Location
    package let validator: String
    package let cacheBuster: String?
    let client: ObjectStoreClient

    package var name: String { location.description }

    package func identity() throws(ImageError) -> String {
        "s3:" + client.settings.endpoint + "/" + location.bucket + "/" + location.key
            + (location.versionID.map { "?versionId=" + $0 } ?? "") + "#validator=" + validator
            + (cacheBuster.map { "#cb=" + $0 } ?? "")
    }

    package func load() async throws(ImageError) -> ImageBytes {
        try await client.get(location, ifMatch: validator.isEmpty ? nil : validator)
    }
}
