import HTTPTypes
import Hummingbird

/// What each path answers: a method the path does not take is `405` with `Allow` (not a bare `404`), `HEAD` works
/// wherever `GET` does, and a path the service does not have is a JSON `404` like every other error
/// (docs/openapi.yaml lists them all; schemathesis checks it).
struct EndpointMiddleware: RouterMiddleware {
    typealias Context = ServeContext

    static func methods(for path: String) -> [HTTPRequest.Method]? {
        switch path {
        case "/healthz", "/readyz", "/metrics": return [.get, .head]
        case "/render", "/playground/preview", "/playground/upload": return [.post]
        case "/", "/playground/schema.json", "/playground/sources", "/playground/presets": return [.get, .head]
        default: return path.hasPrefix("/r/") ? [.get, .head] : nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let allowed = Self.methods(for: path) else {
            throw ServeError(.notFound, "no endpoint \(path): renders are GET /r/SIGNATURE/PRESET/SOURCE and POST /render")
        }
        guard allowed.contains(request.method) else {
            throw ServeError(.methodNotAllowed, "\(path) takes " + allowed.map(\.rawValue).joined(separator: ", "),
                             headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            throw ServeError(.notFound, "no endpoint \(path): renders are GET /r/SIGNATURE/PRESET/SOURCE and POST /render")
        }
    }
}
