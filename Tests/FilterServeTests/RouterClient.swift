import FilterServe
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// A client of the service's router.
typealias ServeClient = RouterClient<ServeContext>

/// An answer as the tests read it.
struct RouterResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

/// Sends requests straight to a router's responder, in this process and without a socket: the service's answers
/// as a server would write them, a thrown `HTTPResponseError` turned into its response as Hummingbird's server does.
struct RouterClient<Context: RequestContext>: Sendable where Context.Source == ApplicationRequestContextSource {
    let responder: RouterResponder<Context>

    /// `body` with a client of `router`.
    static func run<T>(_ router: Router<Context>, _ body: (RouterClient) async throws -> T) async throws -> T {
        try await body(RouterClient(responder: router.buildResponder()))
    }

    /// The answer to one request, handed to `check`. A body is sent with its Content-Length, as a client would.
    @discardableResult
    func execute<T>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                    _ check: (RouterResponse) async throws -> T) async throws -> T {
        var fields = headers
        if let body { fields[.contentLength] = String(body.readableBytes) }
        let head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: .quiet))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let writer = CollectingWriter()
        try await response.body.write(writer)
        return try await check(RouterResponse(head: response.head, body: writer.collected))
    }
}

/// Gathers a response's body.
private final class CollectingWriter: ResponseBodyWriter, @unchecked Sendable {
    private(set) var collected = ByteBuffer()
    func write(_ buffer: ByteBuffer) async throws { collected.writeImmutableBuffer(buffer) }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Runs `router` as a real server on a free loopback port for the length of `body`, which gets the port.
func withLiveServer<T>(_ router: Router<BasicRequestContext>, _ body: (Int) async throws -> T) async throws -> T {
    let (ports, announce) = AsyncStream.makeStream(of: Int.self)
    // Its shutdown, when the test is over, may log that a connection was already closed: not the test's concern.
    var logger = Logger.quiet
    logger.logLevel = .critical
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in announce.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.runService(gracefulShutdownSignals: []) }
        defer { group.cancelAll() }
        var started = ports.makeAsyncIterator()
        guard let port = await started.next(), port > 0 else { throw CancellationError() }
        return try await body(port)
    }
}
