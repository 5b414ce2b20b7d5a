import CatalogStorage
import Foundation
import Testing

/// How `since` is spelled (`catalog audit --since`, `GET /api/v1/audit?since=`).
@Suite struct AuditQueryTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30T00:53:20Z

    @Test(arguments: [
        ("2026-12-01", "2026-12-01T00:00:00.000Z"),
        ("2026-12-01T08:30:00Z", "2026-12-01T08:30:00.000Z"),
        ("2026-12-01T08:30:00.250Z", "2026-12-01T08:30:00.250Z"),
        ("24h", "2026-11-29T00:53:20.000Z"),
        ("7d", "2026-11-23T00:53:20.000Z"),
        ("90m", "2026-11-29T23:23:20.000Z"),
        ("0s", "2026-11-30T00:53:20.000Z"),
    ])
    func sinceIsADayATimeOrASpanBack(text: String, time: String) {
        #expect(AuditQuery.time(since: text, now: Self.now) == time)
    }

    @Test(arguments: ["", "yesterday", "24", "-1d", "2026-13-01", "2026-12-01 08:00", "1e9d", "99999999999d", "١٢h"])
    func anythingElseIsNoTime(text: String) {
        #expect(AuditQuery.time(since: text, now: Self.now) == nil)
    }

    @Test func limitsAreKeptInRange() {
        #expect(AuditQuery(limit: 0).limit == 1)
        #expect(AuditQuery(limit: 5000).limit == AuditQuery.maxLimit)
    }
}
