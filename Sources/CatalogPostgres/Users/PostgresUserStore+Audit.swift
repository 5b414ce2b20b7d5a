import CatalogStorage

/// The audit log in `audit_events` (schema version 6). Events are written on the account
/// connection outside a write transaction: one statement each, which does not bump the data
/// version, so a flood of refused requests never empties other servers' caches.
extension PostgresUserStore {
    private static let auditColumns = "id, at, kind, actor, address, request_id, catalog, target, detail"

    /// The query of ``auditEvents(_:)``, one per order; `$4` is the kinds as `,a,b,`.
    private static func auditSelect(newest: Bool) -> String {
        """
        SELECT \(auditColumns) FROM audit_events
         WHERE ($1::text IS NULL OR at >= $1) AND ($2::bigint IS NULL OR id > $2)
           AND ($3::text IS NULL OR translate(actor, \(upper), \(lower)) = translate($3, \(upper), \(lower))
                OR translate(target, \(upper), \(lower)) = translate($3, \(upper), \(lower)))
           AND ($4::text IS NULL OR position(',' || kind || ',' IN $4) > 0)
         ORDER BY id \(newest ? "DESC" : "ASC") LIMIT $5
        """
    }

    private static let upper = "'ABCDEFGHIJKLMNOPQRSTUVWXYZ'"
    private static let lower = "'abcdefghijklmnopqrstuvwxyz'"

    public func appendAuditEvents(_ events: [AuditEvent]) throws {
        guard !events.isEmpty else { return }
        // One statement for the batch: the rows of parallel arrays, in order.
        let columns: [(AuditEvent) -> String?] = [
            \.time, { $0.kind.rawValue }, \.actor, \.address, \.requestID, \.catalog, \.target, \.detail,
        ]
        let values = columns.map { column in PostgresValue.textArray(events.map(column)) }
        try quietly { connection in
            try connection.query(
                "INSERT INTO audit_events (at, kind, actor, address, request_id, catalog, target, detail) "
                    + "SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], "
                    + "$7::text[], $8::text[])", values)
        }
    }

    public func auditEvents(_ query: AuditQuery) throws -> [AuditEvent] {
        let rows = try connection.query(
            Self.auditSelect(newest: query.newest),
            [
                .text(query.since), query.after.map { .int8($0) } ?? .null(.int8), .text(query.user),
                .text(query.kinds.isEmpty ? nil : AuditEvent.kindList(query.kinds)), .int8(Int64(query.limit)),
            ])
        let events = (0..<rows.count).compactMap { row -> AuditEvent? in
            guard let kind = AuditEvent.Kind(rawValue: rows.text(row, 2)) else { return nil }
            return AuditEvent(
                id: rows.int64(row, 0), kind: kind, time: rows.text(row, 1), actor: rows.optionalText(row, 3),
                address: rows.optionalText(row, 4), requestID: rows.optionalText(row, 5),
                catalog: rows.optionalText(row, 6), target: rows.optionalText(row, 7),
                detail: rows.optionalText(row, 8))
        }
        return query.newest ? events.reversed() : events
    }

    public func pruneAuditEvents(before time: String) throws -> Int {
        var removed = 0
        try quietly { connection in
            removed = try connection.query("DELETE FROM audit_events WHERE at < $1", [.text(time)]).affectedRows
        }
        return removed
    }
}
