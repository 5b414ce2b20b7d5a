import CatalogHTTP
import CatalogModel
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

    /// A value with a hand-written JSON form (records, pages, search results): the hot paths.
    static func write(_ value: some JSONWritable, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: headers, body: value.jsonBytes)
    }

    /// `{"<key>":[…]}` for a list of hand-written values.
    static func list<T: JSONWritable>(_ key: StaticString, _ values: [T]) -> Response {
        var output = JSONOutput()
        output.raw("{")
        output.key(key)
        output.array(values)
        output.raw("}")
        return Response(status: .ok, headers: headers, body: output.bytes)
    }

    static let headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])

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
