import CatalogClient
import Foundation
import Testing

@testable import CatalogTerminal

/// Live changes in `catalog browse`'s state: a changed record is replaced where it stands, a
/// deleted one leaves with the selection and scroll kept, a new one goes in where it sorts only
/// inside the loaded window, the detail page shows the new values or says the record was deleted.
@Suite struct LiveChangesTests {
    /// 30 records T0…T29 in sections B (0–14) and C (15–29), rows `height` 10, record `selected`
    /// selected with the list scrolled to it.
    static func list(selected: Int = 20, before: String? = nil, after: String? = nil) -> BrowserState.List {
        var list = BrowserState.List(sectioned: true)
        list.replace(with: (0..<30).map(record), before: before, after: after)
        list.move(by: selected, height: 10)
        return list
    }

    static func record(_ number: Int) -> Record {
        Record(id: "\(number)", title: "T\(number)", section: number < 15 ? "B" : "C")
    }

    /// The ids of the rows on the screen (headers as `[B]`).
    static func visible(_ list: BrowserState.List, height: Int = 10) -> [String] {
        list.entries.dropFirst(list.top).prefix(height).map { entry in
            switch entry {
            case .header(let label): "[\(label)]"
            case .record(let record, _): record.id
            }
        }
    }

    @Test func aChangedRecordIsReplacedWhereItStands() {
        var list = Self.list()
        let screen = Self.visible(list)
        var changed = Self.record(18)
        changed.title = "Zzz renamed"
        changed.price = 9
        let done1 = list.update(changed)
        #expect(done1)
        #expect(Self.visible(list) == screen)
        #expect(list.entries.compactMap(\.record).first { $0.id == "18" } == changed)
        #expect(list.selectedRecord?.id == "20")
        let done2 = list.update(Record(id: "nope", title: "Nope"))
        #expect(!done2)
    }

    @Test func aDeletedRecordAboveTheScreenKeepsWhatIsShown() {
        var list = Self.list()
        let screen = Self.visible(list)
        let done3 = list.remove("2", height: 10)
        #expect(done3)
        #expect(Self.visible(list) == screen)
        #expect(list.selectedRecord?.id == "20")
        #expect(!list.contains("2"))
    }

    @Test func theSelectedRecordDeletedSelectsTheOneThatTookItsPlace() {
        var list = Self.list()
        let top = list.top
        let done4 = list.remove("20", height: 10)
        #expect(done4)
        #expect(list.selectedRecord?.id == "21")
        #expect(list.top == top)
        // The last record deleted while selected: the one before it.
        list.move(by: 100, height: 10)
        #expect(list.selectedRecord?.id == "29")
        let done5 = list.remove("29", height: 10)
        #expect(done5)
        #expect(list.selectedRecord?.id == "28")
        #expect(list.selected >= list.top && list.selected < list.top + 10)
    }

    @Test func aSectionLeftEmptyLosesItsHeader() {
        var list = BrowserState.List(sectioned: true)
        list.replace(with: [Self.record(1), Self.record(16)], before: nil, after: nil)
        #expect(Self.visible(list) == ["[B]", "1", "[C]", "16"])
        let done6 = list.remove("1", height: 10)
        #expect(done6)
        #expect(Self.visible(list) == ["[C]", "16"])
        #expect(list.selectedRecord?.id == "16")
        let done7 = list.remove("16", height: 10)
        #expect(done7)
        #expect(list.entries.isEmpty && list.selectedRecord == nil)
    }

    @Test func aNewRecordGoesInWhereItSortsKeepingTheScreen() {
        var list = Self.list()
        let screen = Self.visible(list)
        // Before record 5, above the screen: the screen stays as it was.
        let done8 = list.insert(Record(id: "n1", title: "T4½", section: "B"), before: "5", height: 10)
        #expect(done8)
        #expect(Self.visible(list) == screen)
        #expect(list.selectedRecord?.id == "20")
        let ids = list.entries.compactMap(\.record?.id)
        #expect(ids[4...6] == ["4", "n1", "5"])
        // On the screen: it shows, the selection stays on its record.
        let done9 = list.insert(Record(id: "n2", title: "T19½", section: "C"), before: "20", height: 10)
        #expect(done9)
        #expect(Self.visible(list).contains("n2"))
        #expect(list.selectedRecord?.id == "20")
        // A new section's header comes with it.
        let done10 = list.insert(Record(id: "n3", title: "Zebra", section: "Z"), before: nil, height: 10)
        #expect(done10)
        #expect(
            list.entries.suffix(2) == [
                .header("Z"), .record(Record(id: "n3", title: "Zebra", section: "Z"), matches: []),
            ])
    }

    @Test func aNewRecordOutsideTheLoadedWindowWaitsForItsPage() {
        var list = Self.list(before: "p", after: "n")
        let entries = list.entries
        // After the last loaded record while more follows, before the first while more precedes,
        // or before a record that is not loaded.
        let done11 = list.insert(Record(id: "x", title: "X"), before: nil, height: 10)
        #expect(!done11)
        let done12 = list.insert(Record(id: "x", title: "X"), before: "0", height: 10)
        #expect(!done12)
        let done13 = list.insert(Record(id: "x", title: "X"), before: "999", height: 10)
        #expect(!done13)
        #expect(list.entries == entries)
        // Already loaded (its page came first): updated instead.
        let done14 = list.insert(Record(id: "3", title: "T3 new", section: "B"), before: "4", height: 10)
        #expect(done14)
        #expect(list.recordCount == 30)
    }

    static func state() -> BrowserState {
        var state = BrowserState()
        state.screen = .catalog
        state.catalog = CatalogDetail(
            id: "shop", title: "Shop", locale: "en", count: 30, scopes: [], fields: [], sections: ["B", "C"])
        state.list = Self.list()
        var search = BrowserState.Search(line: LineEditor("t"))
        search.results.replace(
            with: [Self.record(3), Self.record(20)], matches: [[MatchRange(field: "title", start: 0, length: 1)], []],
            before: nil,
            after: nil)
        state.search = search
        return state
    }

    @Test func changesReachEveryListAndTheDetailPage() {
        var state = Self.state()
        state.detail = BrowserState.Detail(record: Self.record(3), returnTo: .catalog)
        state.screen = .detail
        var changed = Self.record(3)
        changed.subtitle = "Neu"
        let place = state.apply(CatalogChange(number: 8, kind: .upsert, id: "3", record: changed), height: 10)
        #expect(!place)
        #expect(state.detail?.record == changed && state.detail?.deleted == false)
        #expect(state.list.entries.compactMap(\.record).contains(changed))
        // The title did not change: the search's highlights stay.
        #expect(
            state.search?.results.entries.first
                == .record(changed, matches: [MatchRange(field: "title", start: 0, length: 1)]))
        #expect(BrowserView.detail(state, width: 80, height: 24).map(\.text).joined().contains("Neu"))

        let done15 = state.apply(CatalogChange(number: 9, kind: .delete, id: "3"), height: 10)
        #expect(!done15)
        #expect(state.detail?.deleted == true)
        #expect(!state.list.contains("3") && state.search?.results.contains("3") == false)
        let shown = BrowserView.detail(state, width: 80, height: 24).map(\.text)
        #expect(shown.contains { $0.contains("This record was deleted.") })

        // A record the list has not loaded is to be placed.
        let done16 = state.apply(
            CatalogChange(number: 10, kind: .upsert, id: "new", record: Record(id: "new", title: "New")), height: 10)
        #expect(done16)
        state.place(Record(id: "new", title: "T0½", section: "B"), before: "1", height: 10)
        #expect(state.list.entries.compactMap(\.record?.id).prefix(3) == ["0", "new", "1"])
    }

    @Test func theStatusLineSaysWhetherChangesAreLive() {
        var state = Self.state()
        state.search = nil
        #expect(!BrowserView.status(state, width: 120).text.contains("live"))
        state.live = .live
        #expect(BrowserView.status(state, width: 120).text.hasPrefix(" ● live"))
        state.live = .disconnected
        #expect(BrowserView.status(state, width: 40).text.contains("reconnecting"))
    }
}
