import CatalogHTTP

/// A request the ``AccessPolicy`` refused: answered 403 with what
/// ``AccessPolicy/refusal(_:catalog:)`` says, and recorded by the audit log with its action and
/// catalog (``AuditMiddleware``).
///
/// ```swift
/// guard policy.allows(.editRecords, catalog: id) else { throw AccessRefusal(.editRecords, catalog: id) }
/// ```
struct AccessRefusal: HTTPResponseError {
    /// What the request wanted to do.
    let action: CatalogAction
    /// The catalog it wanted to do it to, nil for an action on no one catalog.
    let catalog: String?

    /// The refusal of `action` on `catalog`.
    init(_ action: CatalogAction, catalog: String?) {
        self.action = action
        self.catalog = catalog
    }

    var httpError: HTTPError? {
        HTTPError(.forbidden, code: "forbidden", AccessPolicy.refusal(action, catalog: catalog))
    }
}
