import CatalogHTTP
import Foundation

/// JSON responses of the API.
enum JSONResponse {
    /// `value` encoded as JSON, keys sorted so equal data gives equal bytes (and equal ETags).
    static func make(_ value: some Encodable, status: HTTPStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
            body: Array(data))
    }

    /// Decodes a request body as `T`, with a 415 for another content type and a 400 that says
    /// what is wrong with the JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) throws -> T {
        if let contentType = request.headers["Content-Type"], !contentType.lowercased().contains("json") {
            throw HTTPError(.unsupportedMediaType, code: "unsupported_media_type", "send application/json")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(request.body))
        } catch {
            throw HTTPError.badParameter("the body is not the expected JSON")
        }
    }
}
