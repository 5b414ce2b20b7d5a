import CatalogHTTP

/// `GET /api/v1/openapi.json`: the OpenAPI 3.1 description of every JSON endpoint.
struct OpenAPIRoute {
    func register(in routes: inout RouterBuilder) {
        routes.get("/api/v1/openapi.json") { _, _ in
            Response(
                status: .ok, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                body: OpenAPIDocument.bytes)
        }
    }
}

/// The OpenAPI document: `API/openapi.json`, written by hand next to the routes it describes and
/// embedded at build time; a test checks that every route of the router appears in it, and
/// schemathesis checks real responses against it.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let bytes = EmbeddedFiles.bytes(of: "API/openapi.json") else {
            fatalError("API/openapi.json is not embedded: see embedded.txt")
        }
        return bytes
    }()

    static var text: String { String(decoding: bytes, as: UTF8.self) }
}
