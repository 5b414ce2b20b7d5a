import CatalogHTTP
import CatalogStorage

extension AuditLog {
    /// Records an event of a request: who sent it (the user it was authenticated as, unless
    /// `actor` names one), the client's address (behind a trusted proxy, the one it forwarded)
    /// and the request's id.
    ///
    /// ```swift
    /// audit.record(.roleGranted, of: request, context, catalog: id, target: user.name, detail: "editor")
    /// ```
    func record(
        _ kind: AuditEvent.Kind, of request: Request, _ context: RequestContext, actor: String? = nil,
        catalog: String? = nil, target: String? = nil, detail: String? = nil
    ) {
        record(
            kind, actor: actor ?? context.notes?.user, address: request.clientAddress,
            requestID: request.headers["X-Request-Id"], catalog: catalog, target: target, detail: detail)
    }
}
