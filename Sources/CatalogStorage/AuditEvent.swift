import Foundation

/// One security event of the audit log: who did what, from where, when, to what, and how it went.
///
/// Events are recorded by the server and the command line (`AuditLog` in CatalogServer) and
/// stored beside the accounts (``UserStore/appendAuditEvents(_:)``); `catalog audit` and
/// `GET /api/v1/audit` read them. Encoded as
/// `{"id","time","kind","actor","address","requestId","catalog","target","detail"}`, the
/// optional members null when unknown. Secrets never go in: a failed sign-in names the name
/// that was tried and why it failed, never the password.
///
/// ```swift
/// AuditEvent(kind: .signInFailed, time: "2026-12-06T08:00:00.000Z", address: "192.0.2.7",
///            target: "ada", detail: "wrong-password")
/// ```
public struct AuditEvent: Codable, Sendable, Equatable {
    /// The engine's number for the event: it grows with every event stored, so it orders them
    /// and pages through them (0 before the event is stored).
    public var id: Int64
    /// When it happened, ISO 8601 in UTC with milliseconds (`2026-12-06T08:00:00.000Z`).
    public var time: String
    /// What happened.
    public var kind: Kind
    /// The user who acted (signed in or named by a token); nil for an anonymous request.
    public var actor: String?
    /// The client's address (behind a trusted proxy, the one the proxy forwarded); nil for the
    /// command line.
    public var address: String?
    /// The request's id (`X-Request-Id`), for finding its access-log line; nil outside requests.
    public var requestID: String?
    /// The catalog it concerns, when one.
    public var catalog: String?
    /// What it was done to: a user's name, a role, a key's name.
    public var target: String?
    /// How it went or what changed: a failure's reason (`wrong-password`), a role (`editor (was
    /// viewer)`), a refused action (`403 editRecords`).
    public var detail: String?

    /// The longest text each member keeps, in characters; longer ones are cut (user input such as
    /// a name tried at sign-in cannot make an event large).
    public static let maxTextLength = 200

    /// Creates an event; texts longer than ``maxTextLength`` are cut and control characters
    /// replaced, so whatever a client sent cannot make an event large or drive a terminal.
    public init(
        id: Int64 = 0, kind: Kind, time: String, actor: String? = nil, address: String? = nil,
        requestID: String? = nil, catalog: String? = nil, target: String? = nil, detail: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.time = time
        self.actor = Self.printable(actor)
        self.address = Self.printable(address)
        self.requestID = Self.printable(requestID)
        self.catalog = Self.printable(catalog)
        self.target = Self.printable(target)
        self.detail = Self.printable(detail)
    }

    /// `text` as an event keeps it: cut to ``maxTextLength`` characters, control characters as
    /// `?`; nil stays nil. A name to look for in events (``AuditQuery/user``) is made so too.
    public static func printable(_ text: String?) -> String? {
        guard let text else { return nil }
        let cut = text.count > maxTextLength ? String(text.prefix(maxTextLength)) : text
        guard cut.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return cut }
        return String(
            String.UnicodeScalarView(
                cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }

    /// `date` as events keep their time: ISO 8601 in UTC with milliseconds
    /// (`2026-12-06T08:00:00.000Z`), which sorts as it compares.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Kinds as engines match them in one bound value: `,sign-in,sign-in-failed,` (no kind's
    /// name has a comma).
    public static func kindList(_ kinds: [Kind]) -> String {
        "," + kinds.map(\.rawValue).joined(separator: ",") + ","
    }

    enum CodingKeys: String, CodingKey {
        case id, time, kind, actor, address, catalog, target, detail
        case requestID = "requestId"
    }

    /// Every member, null when unknown (never left out), so each event has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encode(actor, forKey: .actor)
        try container.encode(address, forKey: .address)
        try container.encode(requestID, forKey: .requestID)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(target, forKey: .target)
        try container.encode(detail, forKey: .detail)
    }

    /// What happened. Raw values are what `catalog audit --kind` and `GET /api/v1/audit?kind=` take.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A sign-in succeeded (API or web); `detail` says which (`api`, `web`).
        case signIn = "sign-in"
        /// A sign-in failed; `target` is the name tried, `detail` why: `unknown-user`,
        /// `wrong-password`, `no-password`, `throttled` or `malformed`, then where (`api`, `web`).
        case signInFailed = "sign-in-failed"
        /// A session ended (sign-out).
        case signOut = "sign-out"
        /// The policy or the authentication refused a request (every 401 and 403); `detail` is the
        /// status and the action (`403 editRecords`) or the route (`401 GET /api/v1/favorites`).
        case permissionRefused = "permission-refused"
        /// A role in a catalog was given; `target` is the user, `detail` the role.
        case roleGranted = "role-granted"
        /// A role in a catalog was taken away; `target` is the user, `detail` the role.
        case roleRevoked = "role-revoked"
        /// An account was made; `detail` says `admin` for an administrator.
        case userAdded = "user-added"
        /// An account was removed.
        case userRemoved = "user-removed"
        /// An account's password was set or removed.
        case passwordChanged = "password-changed"
        /// An account's API token was replaced.
        case tokenReset = "token-reset"
        /// An account's administrator flag changed; `detail` says `admin` or `user`.
        case adminChanged = "admin-changed"
        /// A catalog was made.
        case catalogCreated = "catalog-created"
        /// A catalog's definition changed (title, locale, fields, …).
        case catalogChanged = "catalog-changed"
        /// A catalog was deleted.
        case catalogDeleted = "catalog-deleted"
        /// An API key was made (`target`: its name).
        case keyCreated = "key-created"
        /// An API key was revoked.
        case keyRevoked = "key-revoked"
        /// An API key was used (`target`: its name); like every kind, at most so many a minute from
        /// one address are stored (`AuditLog.Limits`).
        case keyUsed = "key-used"
        /// Who may see a catalog changed; `detail` the visibility.
        case visibilityChanged = "visibility-changed"
        /// Events were left out by the cap on events per minute; `detail` says how many of
        /// which kind, `address` from where.
        case eventsDropped = "events-dropped"

        /// Every kind's name, for messages: "sign-in, sign-in-failed, …".
        public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
    }
}

/// Which audit events to read (``UserStore/auditEvents(_:)``): every condition given must hold.
public struct AuditQuery: Sendable, Equatable {
    /// Events at or after this time (ISO 8601 UTC); nil: from the oldest kept.
    public var since: String?
    /// Events of these kinds; empty: of every kind.
    public var kinds: [AuditEvent.Kind]
    /// Events whose actor or target is this user (ignoring ASCII case); nil: anyone's. Kept as
    /// events keep names (``AuditEvent/printable(_:)``).
    public var user: String? {
        didSet { if let user, AuditEvent.printable(user) != user { self.user = AuditEvent.printable(user) } }
    }
    /// Events stored after the one with this ``AuditEvent/id`` (a page's cursor); nil: from the
    /// first that matches.
    public var after: Int64?
    /// The most events to return.
    public var limit: Int
    /// Whether to return the newest `limit` events that match instead of the oldest (still in
    /// the order they were stored: newest last).
    public var newest: Bool

    /// The most events one query returns.
    public static let maxLimit = 1000

    /// The time a `since` names, as events keep it (``AuditEvent/timestamp(_:)``): a day
    /// (`2026-12-01`, its midnight UTC), a time (`2026-12-01T08:00:00Z`), or a span back from
    /// `now` (`90s`, `15m`, `24h`, `7d`); nil for anything else.
    ///
    /// ```swift
    /// AuditQuery.time(since: "24h", now: now)         // a day before now
    /// AuditQuery.time(since: "2026-12-01", now: now)  // "2026-12-01T00:00:00.000Z"
    /// ```
    public static func time(since text: String, now: Date) -> String? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let factor = units[unit], text.dropLast().allSatisfy(\.isASCII),
            let value = Int(text.dropLast()), value >= 0, value <= 4_000_000_000 / Int(factor)
        {
            return AuditEvent.timestamp(now.addingTimeInterval(-Double(value) * factor))
        }
        guard text.count <= 40, text.allSatisfy(\.isASCII) else { return nil }
        let day = text.count == 10 ? text + "T00:00:00Z" : text
        let whole = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? whole.parse(day)) ?? (try? fractional.parse(day)) else { return nil }
        return AuditEvent.timestamp(date)
    }

    /// A query; `limit` is kept within 1 to ``maxLimit``.
    public init(
        since: String? = nil, kinds: [AuditEvent.Kind] = [], user: String? = nil, after: Int64? = nil,
        limit: Int = 100, newest: Bool = false
    ) {
        self.since = since
        self.kinds = kinds
        self.user = AuditEvent.printable(user)
        self.after = after
        self.limit = min(max(limit, 1), Self.maxLimit)
        self.newest = newest
    }
}
