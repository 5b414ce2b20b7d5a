import CatalogCore
@testable import CatalogClient
import CatalogStorage
import Testing

/// How pages of the feed become a sync's edits.
@Suite struct SyncPlanTests {
    static let labels = ["A", "B", "#"]

    static func cursor(for id: String, section: Int = 1, key: [UInt8] = [0x78, 0x79]) -> String {
        BrowseCursor.encode(BrowseKey(section: section, sortKey: key, id: id))
    }

    static func upsert(_ number: Int, _ id: String, title: String = "Title", cursor: String? = nil) -> CatalogChange {
        CatalogChange(
            number: number, kind: .upsert, id: id, record: Record(id: id, title: title),
            cursor: cursor ?? Self.cursor(for: id))
    }

    @Test func changesOfOneRecordGoToSeparateGroups() {
        var collation = FeedCollation(version: "v1", sectionLabels: Self.labels)
        var plan = SyncPlan(after: 5)
        let changes = [
            Self.upsert(6, "a"), Self.upsert(7, "b"), CatalogChange(number: 8, kind: .delete, id: "a"),
            Self.upsert(9, "c"),
        ]
        #expect(plan.add(changes, collation: &collation))
        let groups = plan.take()
        #expect(groups.map(\.edits.count) == [2, 2])
        #expect(groups.map(\.change) == [7, 9])
        #expect(plan.change == 9 && plan.count == 4)
        #expect(collation.sortKey("Title") == [0x78, 0x79] && collation.section(for: "Title") == 1)
        // The next page goes on in a group of its own.
        #expect(plan.add([Self.upsert(10, "a")], collation: &collation))
        #expect(plan.take().map(\.change) == [10])
    }

    @Test(arguments: [
        ("a gap", [Self.upsert(7, "a")]),
        ("a definition", [CatalogChange(number: 6, kind: .definition)]),
        ("a reload", [CatalogChange(number: 6, kind: .reload)]),
        ("no cursor", [CatalogChange(number: 6, kind: .upsert, id: "a", record: Record(id: "a", title: "T"))]),
        ("another record's cursor", [Self.upsert(6, "a", cursor: Self.cursor(for: "b"))]),
        ("a section the catalog lacks", [Self.upsert(6, "a", cursor: Self.cursor(for: "a", section: 9))]),
        ("one title, two keys", [Self.upsert(6, "a"), Self.upsert(7, "b", cursor: Self.cursor(for: "b", key: [1]))]),
    ])
    func whatCannotBeAppliedAsksForADownload(_ name: String, _ changes: [CatalogChange]) {
        var collation = FeedCollation(version: "v1", sectionLabels: Self.labels)
        var plan = SyncPlan(after: 5)
        #expect(!plan.add(changes, collation: &collation), "\(name)")
    }
}
