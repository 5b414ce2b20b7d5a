import CatalogCore
import CatalogHTTP
import CatalogImages
import CatalogModel
import CatalogStorage

/// A record's stored image (JSON API v1):
///
/// - `PUT /api/v1/catalogs/{id}/items/{item}/image` with a JPEG, PNG, GIF or WebP file as the
///   body stores it (``ImageReader``: recognised by its bytes, decoded and encoded again) and
///   points the record's `image` at it (``StoredImageLocation``);
/// - `DELETE` the same URL removes it and clears the record's `image`.
///
/// Both are changes of the record (``StoredImageEditor``): they answer as a record's `PUT` does,
/// with its `ETag` and `Catalog-Change`, and honour `If-Match`.
extension RecordsAPI {
    /// Uploads up to ``ImageReader/maxBytes``, on the edits lane (decoding takes a while).
    static let imageOptions = RouteOptions(
        lane: RouteLane(ServerLanes.edits), bodyLimit: ImageReader.maxBytes, authentication: .signedIn,
        rateClass: .expensive)

    func registerImages(in routes: inout RouterBuilder) {
        routes.on(.put, "/api/v1/catalogs/{id}/items/{item}/image", options: Self.imageOptions) { request, context in
            let (catalog, actor) = try editable(request, context)
            return try putImage(request, context, catalog: catalog, actor: actor)
        }
        routes.on(.delete, "/api/v1/catalogs/{id}/items/{item}/image", options: Self.singleOptions) {
            request, context in
            let (catalog, actor) = try editable(request, context)
            return try deleteImage(request, context, catalog: catalog, actor: actor)
        }
    }

    /// `PUT` of a record's image into `catalog` by `actor`, whose right to change it is checked:
    /// the API's route after its authentication, and the web editor's (``EditHandler``).
    func putImage(_ request: Request, _ context: RequestContext, catalog: StoredCatalog, actor: String) throws
        -> Response
    {
        let itemID = try context.require("item", as: String.self)
        let precondition = try Self.precondition(request)
        let prepared = try Self.prepared(request.body)
        let (outcome, _) = try editing(catalog) { collation in
            try StoredImageEditor.put(
                prepared, of: itemID, in: catalog.id, database: stores, collation: collation,
                precondition: precondition, actor: actor)
        }
        return try recordAnswer(catalog, itemID, outcome, created: false)
    }

    /// `DELETE` of a record's image of `catalog` by `actor`, whose right to change it is checked.
    func deleteImage(_ request: Request, _ context: RequestContext, catalog: StoredCatalog, actor: String) throws
        -> Response
    {
        let itemID = try context.require("item", as: String.self)
        let precondition = try Self.precondition(request)
        let outcome = try editing(catalog) { collation in
            try StoredImageEditor.remove(
                of: itemID, in: catalog.id, database: stores, collation: collation, precondition: precondition,
                actor: actor)
        }
        guard let outcome else {
            throw HTTPError(
                .notFound, code: "no_stored_image", "record \"\(itemID.prefix(200))\" has no stored image")
        }
        return try recordAnswer(catalog, itemID, outcome, created: false)
    }

    /// The upload read for storing; what cannot be stored is a 415 (not an image of a stored
    /// kind), 413 (too many bytes) or 422 (too many pixels, or damaged).
    static func prepared(_ body: [UInt8]) throws -> PreparedImage {
        guard !body.isEmpty else {
            throw HTTPError(
                .unsupportedMediaType, code: "unsupported_media_type",
                "the request body is empty; send a JPEG, PNG, GIF or WebP image")
        }
        do {
            return try ImageReader.read(body)
        } catch {
            let message = error.description
            switch error {
            case .unsupportedFormat:
                throw HTTPError(
                    .unsupportedMediaType, code: "unsupported_media_type",
                    message + "; send a JPEG, PNG, GIF or WebP image")
            case .tooManyBytes: throw HTTPError(.payloadTooLarge, code: "image_too_large", message)
            case .tooManyPixels: throw HTTPError(.unprocessableContent, code: "image_too_large", message)
            case .damaged: throw HTTPError(.unprocessableContent, code: "not_an_image", message)
            }
        }
    }
}
