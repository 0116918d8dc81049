import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// How request bodies are read: refused from the headers when they declare too much (413 at once, before a byte
/// of the body is read), at most `gate.limit` at a time (503 beyond), at most `maxBytes` in all, and within
/// `seconds` from the first byte to the last (408: a trickled body never goes idle). A malformed body (a chunk size
/// that is not hexadecimal) is 400. Any refusal closes the connection, so the rest of a body is never read.
struct BodyReader: Sendable {
    let maxBytes: Int
    let seconds: Int
    let gate: UploadGate

    /// Refuses a request whose headers already say its body is over the limit.
    func checkDeclared(_ request: Request) throws {
        guard let text = request.headers[.contentLength] else { return }
        guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
            throw ServeError(.badRequest, "Content-Length \"\(text)\" is not a length", headers: [.connection: "close"])
        }
        if length > maxBytes {
            throw ServeError(.contentTooLarge, "the upload is over \(maxBytes) bytes (\(length) declared)", headers: [.connection: "close"])
        }
    }

    /// Feeds the body to `step` a buffer at a time (it says whether to go on: false stops reading) and returns its
    /// state after the last.
    func read<State: Sendable>(_ request: Request, _ context: ServeContext, into state: State,
                               _ step: @escaping @Sendable (inout State, ByteBuffer) throws -> Bool) async throws -> State {
        do {
            try checkDeclared(request)
            guard await gate.enter() else {
                throw ServeError(.serviceUnavailable, "too many uploads are being read; try again shortly",
                                 headers: [.retryAfter: "1", .connection: "close"])
            }
            let result: Result<State, any Error>
            do {
                let maxBytes = self.maxBytes
                result = .success(try await Deadline.run(until: .now + .seconds(seconds),
                                                         ServeError(.requestTimeout, "the upload took longer than \(seconds) s",
                                                                    headers: [.connection: "close"])) {
                    var state = state, total = 0
                    do {
                        for try await buffer in request.body {
                            total += buffer.readableBytes
                            guard total <= maxBytes else {
                                throw ServeError(.contentTooLarge, "the upload is over \(maxBytes) bytes", headers: [.connection: "close"])
                            }
                            guard try step(&state, buffer) else { break }
                        }
                    } catch let error as ServeError { throw error } catch is CancellationError { throw CancellationError() } catch {
                        throw ServeError(.badRequest, "the request body is malformed: \(error)", headers: [.connection: "close"])
                    }
                    return state
                })
            } catch { result = .failure(error) }
            await gate.leave()
            return try result.get()
        } catch let error as ServeError {
            // The answer goes out, then the connection closes: the rest of the body is not waited for.
            if error.headers[.connection] == "close", let channel = context.channel {
                channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            }
            throw error
        }
    }

    /// The whole body (at most `maxBytes`).
    func collect(_ request: Request, _ context: ServeContext) async throws -> ByteBuffer {
        try await read(request, context, into: ByteBuffer()) { body, buffer in
            var buffer = buffer
            body.writeBuffer(&buffer)
            return true
        }
    }
}
