import NIOCore
import HTTPTypes
import NIOHTTPTypes

/// Deadlines for one HTTP connection, and its place under the server's connection cap: the first request's head
/// must arrive within ``Limits/header`` of the connection opening (later ones within the idle timeout of the
/// previous response, which Hummingbird keeps: no part arrives while headers trickle); a request body may not
/// stall longer than ``Limits/bodyIdle`` between parts nor take longer than ``Limits/body`` in all (a body that
/// trickles a byte now and then is cut, where an idle timer restarting on every part never would); a request must
/// be answered within ``Limits/request`` of its head. A connection over the cap is closed as soon as it is accepted,
/// never left waiting. Past a deadline the connection is closed. A head of more than ``Limits/headerBytes`` is
/// answered 431 and the connection closed.
///
/// Sits after Hummingbird's HTTP codec (it sees request and response parts); one per connection, sharing one
/// ``ConnectionCount``. Memory: a few scheduled timers.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The deadlines, and the connection cap.
    struct Limits: Sendable {
        var header: TimeAmount
        var bodyIdle: TimeAmount
        var body: TimeAmount
        var request: TimeAmount
        var connections: Int
        var headerBytes: Int
    }

    private let limits: Limits
    private let count: ConnectionCount
    private var admitted = false
    private var headerTimer: Scheduled<Void>?
    private var bodyIdleTimer: Scheduled<Void>?
    private var bodyTimer: Scheduled<Void>?
    private var requestTimer: Scheduled<Void>?
    /// When each request not yet answered arrived, oldest first (pipelined requests are answered in order; the
    /// request timer runs for the oldest).
    private var waiting: [NIODeadline] = []
    /// Set once a head was refused: what follows of that request is dropped, and the connection closes.
    private var refused = false

    init(limits: Limits, count: ConnectionCount) {
        self.limits = limits
        self.count = count
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Admits the connection under the cap (or closes it) and starts the wait for its first head.
    private func start(_ context: ChannelHandlerContext) {
        guard !admitted else { return }
        guard count.admit(limit: limits.connections) else {
            context.close(promise: nil)
            return
        }
        admitted = true
        headerTimer = schedule(context, after: limits.header)
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { leave() }

    /// Stops the timers and gives the connection's place under the cap back (once).
    private func leave() {
        cancelAll()
        if admitted {
            admitted = false
            count.release()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let head) where Self.bytes(of: head) > limits.headerBytes:
            refuse(context)
            return
        case .head:
            headerTimer?.cancel()
            headerTimer = nil
            waiting.append(.now())
            if requestTimer == nil { requestTimer = schedule(context, after: limits.request) }
            bodyTimer?.cancel()
            bodyIdleTimer?.cancel()
            bodyTimer = schedule(context, after: limits.body)
            bodyIdleTimer = schedule(context, after: limits.bodyIdle)
        case .body:
            bodyIdleTimer?.cancel()
            bodyIdleTimer = schedule(context, after: limits.bodyIdle)
        case .end:
            bodyIdleTimer?.cancel()
            bodyTimer?.cancel()
            (bodyIdleTimer, bodyTimer) = (nil, nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // Answered: the next request waits under the idle timeout.
            // (A body still arriving keeps its deadlines: answered early, it is read to its end all the same.)
            // The next request waiting, if pipelined, keeps the deadline its own head started.
            requestTimer?.cancel()
            requestTimer = nil
            if !waiting.isEmpty { waiting.removeFirst() }
            if let next = waiting.first {
                requestTimer = schedule(context, after: max(.zero, next + limits.request - .now()))
            }
        }
        context.write(data, promise: promise)
    }

    /// The bytes of a request head as sent: its target and its fields (each with `: ` and CRLF).
    private static func bytes(of head: HTTPRequest) -> Int {
        head.headerFields.reduce((head.path ?? "").utf8.count) { total, field in
            total + field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
    }

    /// Answers 431 and closes: at once when no earlier request waits for its answer, else (pipelined behind
    /// others, whose answers must come first) by closing.
    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        let behindOthers = !waiting.isEmpty
        cancelAll()
        guard !behindOthers else {
            context.close(promise: nil)
            return
        }
        let response = HTTPResponse(
            status: .init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
            headerFields: [.connection: "close", .contentLength: "0", .xContentTypeOptions: "nosniff"])
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Closes the connection `after` from now, unless cancelled.
    private func schedule(_ context: ChannelHandlerContext, after delay: TimeAmount) -> Scheduled<Void> {
        let channel = context.channel
        return context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
    }

    private func cancelAll() {
        for timer in [headerTimer, bodyIdleTimer, bodyTimer, requestTimer] { timer?.cancel() }
        (headerTimer, bodyIdleTimer, bodyTimer, requestTimer) = (nil, nil, nil, nil)
        waiting = []
    }
}
