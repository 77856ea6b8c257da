import Logging
import ServiceLifecycle

/// The first service to hear a graceful shutdown (it is last in the group, and groups stop services in
/// reverse order): it marks the image service as draining — `/ready` answers 503 — and waits the drain
/// delay, so a load balancer stops sending traffic before the listener closes.
struct DrainService: Service {
    let service: ImageService
    let delay: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        service.startDraining()
        logger.info("draining: /ready answers 503; in-flight requests finish")
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
