import CatalogHTTP
import CatalogStorage
import Foundation

/// The audit log for administrators: `GET /api/v1/audit` answers
/// `{"events":[{"id","time","kind","actor","address","requestId","catalog","target","detail"}],"next"}`,
/// oldest first, a page at a time.
///
/// - `since`: events from then on: a day (`2026-12-01`), a time (`2026-12-01T08:00:00Z`) or a span
///   back from now (`24h`, `7d`);
/// - `kind`: only events of these kinds (repeatable, or separated by commas: `sign-in-failed`);
/// - `user`: only events whose actor or target is this user (ignoring case);
/// - `limit`: events per page, 1 to 1000 (default 100);
/// - `cursor`: the page after the one whose `next` this is; `next` is null on the last page.
///
/// Everyone else gets 401 or 403 (and that refusal is an event of its own).
struct AuditAPI {
    let stores: any CatalogDatabase
    let authentication: RequestAuthentication
    /// The time `since` spans are counted back from.
    let now: @Sendable () -> Date

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        let authentication = authentication
        let now = now
        routes.get("/api/v1/audit", options: RouteOptions(authentication: .admin)) { request, context in
            _ = try authentication.authorized(request, context)
            let query = try Self.query(request, now: now())
            let events = try stores.users().auditEvents(query)
            let next = events.count == query.limit ? events.last.map { String($0.id) } : nil
            var response = try JSONResponse.make(Page(events: events, next: next))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    /// The query a request's parameters ask for.
    ///
    /// - Throws: 400 naming the parameter that is wrong.
    static func query(_ request: Request, now: Date) throws -> AuditQuery {
        var query = AuditQuery(limit: try request.integer("limit", in: 1...AuditQuery.maxLimit, default: 100))
        if let since = try request.present("since", maxLength: 40) {
            guard let time = AuditQuery.time(since: since, now: now) else {
                throw HTTPError.badParameter(
                    "'since' takes a day (2026-12-01), a time (2026-12-01T08:00:00Z) or a span (24h, 7d)")
            }
            query.since = time
        }
        let kinds = request.query.filter { $0.name == "kind" }.map(\.value)
        guard kinds.count <= 20 else { throw HTTPError.badParameter("at most 20 'kind' values") }
        for list in kinds {
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = AuditEvent.Kind(rawValue: String(name)) else {
                    throw HTTPError.badParameter(
                        "unknown kind \"\(name.prefix(40))\" in 'kind'; kinds: \(AuditEvent.Kind.names)")
                }
                query.kinds.append(kind)
            }
        }
        query.user = try request.text("user", maxLength: AuditEvent.maxTextLength)
        if let cursor = try request.cursor("cursor") {
            guard cursor.utf8.count <= 18, cursor.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let after = Int64(cursor)
            else {
                throw HTTPError.badParameter("'cursor' is not a cursor")
            }
            query.after = after
        }
        return query
    }

    /// `{"events":[…],"next"}`.
    struct Page: Encodable {
        var events: [AuditEvent]
        var next: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(events, forKey: .events)
            // null on the last page, never left out.
            try container.encode(next, forKey: .next)
        }

        enum CodingKeys: String, CodingKey { case events, next }
    }
}
