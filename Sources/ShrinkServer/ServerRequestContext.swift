import Hummingbird
import NIOCore
import ShrinkServerURL

/// Hummingbird's per-request context plus the client's address (the gallery serves loopback clients only
/// unless a token is configured).
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The peer's IP address; nil for a Unix socket or when the channel no longer knows it.
    package let remoteAddress: IPAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress.flatMap { IPAddress($0) }
    }
}
