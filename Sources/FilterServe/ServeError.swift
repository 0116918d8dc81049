import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An error answered as JSON (`{"error": …, "status": …}`) with its status and headers; messages are the engine's,
/// with no path outside the served folders.
struct ServeError: Error, HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    var description: String { message }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(["error": message, "status": String(status.code)])
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
