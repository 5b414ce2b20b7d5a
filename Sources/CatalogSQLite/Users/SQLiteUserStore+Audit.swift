import CatalogStorage
import SQLiteSupport

/// The audit log in the accounts file (`audit_events`, schema version 3).
extension SQLiteUserStore {
    private static let auditColumns = "id, at, kind, actor, address, request_id, catalog, target, detail"

    /// The query of ``auditEvents(_:)``: every condition a parameter that may be NULL (none), so
    /// there is one statement per order. `?4` is the kinds as `,a,b,`.
    private static func auditSelect(newest: Bool) -> String {
        """
        SELECT \(auditColumns) FROM audit_events
         WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR id > ?2)
           AND (?3 IS NULL OR actor = ?3 COLLATE NOCASE OR target = ?3 COLLATE NOCASE)
           AND (?4 IS NULL OR instr(?4, ',' || kind || ',') > 0)
         ORDER BY id \(newest ? "DESC" : "ASC") LIMIT ?5
        """
    }

    public func appendAuditEvents(_ events: [AuditEvent]) throws {
        guard !events.isEmpty else { return }
        try write("record audit events") {
            let insert = try connection.cached(
                "INSERT INTO audit_events (at, kind, actor, address, request_id, catalog, target, detail) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            for event in events {
                insert.reset()
                try insert.bind(
                    event.time, event.kind.rawValue, event.actor, event.address, event.requestID, event.catalog,
                    event.target, event.detail
                ).run()
            }
        }
    }

    public func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        let statement = try connection.cached(Self.auditSelect(newest: query.newest))
        try statement.bind(
            query.since, query.after, query.user, query.kinds.isEmpty ? nil : AuditEvent.kindList(query.kinds),
            query.limit)
        var events: [AuditEvent] = []
        try statement.forEachRow { row in
            guard let kind = AuditEvent.Kind(rawValue: row.text(2)) else { return }
            events.append(
                AuditEvent(
                    id: row.int64(0), kind: kind, time: row.text(1), actor: row.optionalText(3),
                    address: row.optionalText(4), requestID: row.optionalText(5), catalog: row.optionalText(6),
                    target: row.optionalText(7), detail: row.optionalText(8)))
        }
        return query.newest ? events.reversed() : events
    }

    public func pruneAuditEvents(before time: String) throws -> Int {
        try write("prune the audit log") {
            try connection.cached("DELETE FROM audit_events WHERE at < ?").bind(time).run()
            return connection.changes
        }
    }
}
