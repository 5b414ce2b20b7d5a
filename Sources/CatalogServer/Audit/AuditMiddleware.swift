import CatalogHTTP
import CatalogStorage

/// Records every request the policy or the authentication refuses (a thrown 401 or 403) in the
/// audit log as ``AuditEvent/Kind/permissionRefused``: the status and the action refused
/// (`403 editRecords`, from an ``AccessRefusal``), else the route (`401 GET /api/v1/favorites`),
/// with the catalog when the policy named one. A failed sign-in is recorded by its route, as what
/// it is.
///
/// Inside ``ErrorMiddleware`` and `CORSMiddleware`, so it sees the errors as they were thrown,
/// before they become answers; outside the router, so every route is covered, including those yet
/// to be written.
struct AuditMiddleware: Middleware {
    let audit: AuditLog

    func respond(to request: Request, context: RequestContext, next: any Responder) throws -> Response {
        do {
            return try next.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            if let answer = error.httpError, answer.status == .unauthorized || answer.status == .forbidden,
                answer.code != SignInAPI.failed.code
            {
                let refusal = error as? AccessRefusal
                let what = refusal?.action.rawValue ?? "\(request.method.rawValue) \(context.notes?.route ?? "-")"
                audit.record(
                    .permissionRefused, of: request, context, catalog: refusal?.catalog,
                    detail: "\(answer.status.rawValue) \(what)")
            }
            throw error
        }
    }
}
