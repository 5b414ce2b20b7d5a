import CatalogServer
import CatalogStorage
import CatalogSupport
import Foundation

/// `catalog audit`: the audit log's security events.
struct AuditCommand: Command {
    static let name = "audit"
    static let summary = "Show the audit log: sign-ins, refused requests, changes of roles, accounts and catalogs."
    static let since = Option<String?>(
        "since", value: "WHEN", showing: "the oldest kept",
        help: "events from then on: a day (2026-12-01), a time (2026-12-01T08:00:00Z) or a span back (24h, 7d)"
    ) { (text: String) throws(CLIError) -> String in
        guard let time = AuditQuery.time(since: text, now: Date()) else {
            throw CLIError.usage(
                "--since takes a day (2026-12-01), a time (2026-12-01T08:00:00Z) or a span (90m, 24h, 7d), got '"
                    + UserCommand.printable(text) + "'")
        }
        return time
    }
    static let kind = Option<[AuditEvent.Kind]>(
        "kind", value: "KIND", showing: "every kind",
        help: "only events of this kind (repeatable): " + AuditEvent.Kind.names
    ) { (text: String) throws(CLIError) -> AuditEvent.Kind in
        guard let kind = AuditEvent.Kind(rawValue: text) else {
            throw CLIError.usage("unknown kind '\(UserCommand.printable(text))'; kinds: \(AuditEvent.Kind.names)")
        }
        return kind
    }
    static let user = Option<String?>(
        "user", value: "NAME", showing: "anyone's", help: "only events by or about this user (ignoring case)")
    static let limit = Option<Int>(
        "limit", value: "N", in: 1...AuditQuery.maxLimit, default: 100,
        help: "the newest N events that match, from 1 to \(AuditQuery.maxLimit)")
    static let json = CommonOptions.json.help(
        #"print {"events":[…]}, each event with "id", "time", "kind", "actor", "address", "requestId", "catalog", "#
            + #""target" and "detail" (null when it has none)"#)
    static let options: [any OptionDeclaration] = [since, kind, user, limit, json, CommonOptions.usersDB]
    static let usage = [
        Usage(
            .option(since), .option(kind), .option(user), .option(limit), .option(json), .option(CommonOptions.db),
            .option(CommonOptions.usersDB))
    ]
    static let discussion = """
        Prints the security events the server and the command line recorded, the newest last:
        the event's number, when (UTC), its kind, who acted, from which address, the request's
        id, the catalog, what it was done to and how it went, separated by tabs ("-" where
        there is none). Events of the command line have no actor, address or request.

        Kinds: sign-in and sign-in-failed (the name tried and why: unknown-user, wrong-password,
        no-password, throttled, malformed; never the password), sign-out, permission-refused
        (every 401 and 403: the status and the action or route), role-granted and role-revoked,
        user-added, user-removed, password-changed, token-reset, admin-changed, catalog-created,
        catalog-changed, catalog-deleted, key-created, key-revoked, key-used,
        visibility-changed, and events-dropped (how many events of a kind from an address the
        limit per minute left out).

        The server keeps events for 'catalog serve --audit-keep' (90 days by default);
        administrators read them over HTTP at GET /api/v1/audit.
        """

    func run(_ context: CommandContext) throws {
        let arguments = context.arguments
        guard arguments.positionals.isEmpty else { throw CLIError.usage("'audit' takes no arguments") }
        var query = AuditQuery(
            since: try arguments[Self.since], kinds: try arguments[Self.kind], limit: try arguments[Self.limit],
            newest: true)
        if let user = try arguments[Self.user] {
            guard !user.isEmpty, user.count <= AuditEvent.maxTextLength else {
                throw CLIError.usage("--user takes a user's name")
            }
            query.user = user
        }
        let database = try context.openExisting()
        defer { database.close() }
        let events = try database.users().auditEvents(query)
        if context.json {
            struct Body: Encodable { var events: [AuditEvent] }
            context.output.line(try JSON.string(Body(events: events)))
            return
        }
        for event in events {
            let fields = [
                String(event.id), event.time, event.kind.rawValue, event.actor, event.address, event.requestID,
                event.catalog, event.target, event.detail,
            ]
            context.output.line(fields.map { TerminalText.field($0 ?? "-") }.joined(separator: "\t"))
        }
    }
}
