import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// The audit log's storage, on every engine (in ``UserBehaviourTests``, which
/// `scripts/test-postgres.sh` runs on PostgreSQL).
extension UserBehaviourTests {
    /// Events at `minute` past 08:00 on 2026-12-01.
    func event(
        _ kind: AuditEvent.Kind, at minute: Int, actor: String? = nil, target: String? = nil, detail: String? = nil
    ) -> AuditEvent {
        AuditEvent(
            kind: kind, time: String(format: "2026-12-01T08:%02d:00.000Z", minute), actor: actor,
            address: "192.0.2.7", requestID: "r\(minute)", catalog: "cookbook", target: target, detail: detail)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func auditEventsAreStoredInOrderAndReadByWhatTheyAreAbout(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        let epoch = try fixture.database.readEpoch()
        try users.appendAuditEvents([
            event(.signInFailed, at: 0, target: "Ada", detail: "wrong-password (api)"),
            event(.signIn, at: 1, actor: "ada", target: "ada", detail: "api"),
            event(.roleGranted, at: 2, actor: "ada", target: "mari", detail: "editor"),
        ])
        try users.appendAuditEvents([event(.permissionRefused, at: 3, actor: "mari", detail: "403 manageCatalog")])
        try users.appendAuditEvents([])
        #expect(try fixture.database.readEpoch() == epoch, "events are no change of the catalogs")

        let all = try users.auditEvents(AuditQuery())
        #expect(all.map(\.kind) == [.signInFailed, .signIn, .roleGranted, .permissionRefused])
        #expect(all.map(\.id) == all.map(\.id).sorted() && Set(all.map(\.id)).count == 4, "numbered in order")
        var expected = event(.signIn, at: 1, actor: "ada", target: "ada", detail: "api")
        expected.id = all[1].id
        #expect(all[1] == expected, "every member kept")

        #expect(
            try users.auditEvents(AuditQuery(since: "2026-12-01T08:02:00.000Z")).map(\.kind) == [
                .roleGranted, .permissionRefused,
            ])
        #expect(try users.auditEvents(AuditQuery(kinds: [.signIn, .signInFailed])).count == 2)
        // A user is the actor or the target, ignoring case.
        #expect(try users.auditEvents(AuditQuery(user: "ADA")).map(\.kind) == [.signInFailed, .signIn, .roleGranted])
        #expect(try users.auditEvents(AuditQuery(user: "mari")).map(\.kind) == [.roleGranted, .permissionRefused])
        #expect(try users.auditEvents(AuditQuery(user: "'; DROP TABLE audit_events; --")).isEmpty)
        // Pages: the oldest first from a cursor, or the newest, still newest last.
        let first = try users.auditEvents(AuditQuery(limit: 3))
        #expect(first.map(\.kind) == [.signInFailed, .signIn, .roleGranted])
        #expect(try users.auditEvents(AuditQuery(after: first.last?.id, limit: 3)).map(\.kind) == [.permissionRefused])
        #expect(
            try users.auditEvents(AuditQuery(limit: 2, newest: true)).map(\.kind) == [.roleGranted, .permissionRefused])
        #expect(
            try users.auditEvents(AuditQuery(kinds: [.signInFailed], user: "ada", limit: 1, newest: true)).map(\.kind)
                == [.signInFailed])

        // Another handle (another server, on PostgreSQL) reads them at once.
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        #expect(try other.users().auditEvents(AuditQuery()) == all)

        // Pruning removes what is older than the time given, and nothing else.
        #expect(try users.pruneAuditEvents(before: "2026-12-01T08:02:00.000Z") == 2)
        #expect(try users.auditEvents(AuditQuery()).map(\.kind) == [.roleGranted, .permissionRefused])
        #expect(try users.pruneAuditEvents(before: "2026-12-01T08:02:00.000Z") == 0)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func auditEventsKeepWhatAClientSentSmallAndPrintable(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        let name = "a\u{0}b\u{1B}[31m" + String(repeating: "é", count: 500)
        try users.appendAuditEvents([event(.signInFailed, at: 0, target: name, detail: "unknown-user (web)")])
        let stored = try #require(try users.auditEvents(AuditQuery()).first)
        let target = try #require(stored.target)
        #expect(target.count == AuditEvent.maxTextLength)
        #expect(target.hasPrefix("a?b?[31mé"))
        #expect(try users.auditEvents(AuditQuery(user: target)).count == 1)
    }
}
