import CatalogClient
import Foundation
import Testing

@testable import CatalogTerminal

@Suite struct TextWidthTests {
    @Test(arguments: [
        ("abc", 3), ("Ärger", 5), ("日本語", 6), ("한국어", 6), ("🇩🇪", 2), ("e\u{301}", 1), ("👨‍👩‍👧", 2), ("❤️", 2),
        ("ｶﾀｶﾅ", 4), ("Ｆｕｌｌ", 8), ("\u{200B}", 0), ("a\tb", 2),
    ])
    func columns(_ text: String, _ width: Int) {
        #expect(TextWidth.of(text) == width)
    }

    @Test func truncatesAndPadsByColumns() {
        #expect(TextWidth.truncate("日本語のテキスト", to: 7) == "日本語…")
        #expect(TextWidth.of(TextWidth.fit("日本語のテキスト", to: 8)) == 8)
        #expect(TextWidth.fit("ab", to: 4) == "ab  ")
        #expect(TextWidth.truncate("abc", to: 0) == "")
        #expect(TextWidth.wrap("eins zwei drei vier", to: 9) == ["eins zwei", "drei vier"])
        #expect(TextWidth.wrap("Donaudampfschifffahrt", to: 8) == ["Donaudam", "pfschiff", "fahrt"])
        #expect(TextWidth.wrap("a\n\nb", to: 5) == ["a", "", "b"])
    }
}

@Suite struct KeyDecoderTests {
    @Test func decodesKeysAndSplitSequences() {
        var decoder = KeyDecoder()
        #expect(
            decoder.feed(Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[4~\u{1B}[Z".utf8)) == [
                .up, .down, .right, .pageUp, .pageDown, .home, .end, .backTab,
            ])
        #expect(decoder.feed([0x1B, 0x5B]) == [])
        #expect(decoder.feed([0x44]) == [.left])
        #expect(decoder.feed(Array("ö".utf8).prefix(1).map { $0 }) == [])
        #expect(decoder.feed(Array(Array("ö".utf8).dropFirst())) == [.character("ö")])
        #expect(decoder.feed([0x03, 0x0D, 0x09, 0x7F]) == [.control("c"), .enter, .tab, .backspace])
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.feed(Array("/日".utf8)) == [.character("/"), .character("日")])
        #expect(decoder.feed([0xFF, 0x41]) == [.character("A")])
    }

    @Test func decodesSGRMouseReports() {
        var decoder = KeyDecoder()
        let click = Mouse(sgr: "<0;12;5", pressed: true)
        #expect(click == Mouse(sgr: "<0;12;5", pressed: true) && click?.column == 12 && click?.row == 5)
        #expect(
            decoder.feed(Array("\u{1B}[<0;12;5M\u{1B}[<0;12;5m\u{1B}[<64;1;1M\u{1B}[<65;1;1M\u{1B}[<35;3;3Mx".utf8))
                == [
                    .mouse(click!), .mouse(Mouse(sgr: "<64;1;1", pressed: true)!),
                    .mouse(Mouse(sgr: "<65;1;1", pressed: true)!), .character("x"),
                ])
        #expect(Mouse(sgr: "<64;1;1", pressed: true)?.action == .wheelUp)
        #expect(Mouse(sgr: "<2;1;1", pressed: true) == nil)  // the right button
        // A report split across reads waits for its end.
        #expect(decoder.feed(Array("\u{1B}[<0;100;".utf8)) == [])
        #expect(decoder.feed(Array("40M".utf8)) == [.mouse(Mouse(sgr: "<0;100;40", pressed: true)!)])
    }
}

@Suite struct BrowserViewTests {
    static let detail = CatalogDetail(
        id: "shop", title: "Shop", locale: "de", count: 3, scopes: ["Alle", "Tee"], fields: ["weight"],
        sections: ["A", "B", "#"])

    static func state() -> BrowserState {
        var state = BrowserState()
        state.screen = .catalog
        state.catalog = detail
        state.tabs = [.list, .favorites]
        state.sections = [SectionCount(label: "A", count: 2), SectionCount(label: "#", count: 1)]
        state.list = RecordList(sectioned: true)
        state.list.replace(
            with: [
                Record(
                    id: "1", title: "Apfeltee", subtitle: "Teehaus", price: 3.5, currency: "EUR", country: "DE",
                    section: "A"),
                Record(id: "2", title: "抹茶 Matcha 宇治", price: 12, currency: "JPY", country: "JP", section: "A"),
                Record(id: "3", title: "1001 Nacht\u{1B}[2J", categories: ["Tee"], section: "#"),
            ], before: nil, after: nil)
        return state
    }

    /// A catalog whose settings name the fields of its rows and detail pages: the terminal shows
    /// those, in that order, as the web app does (``RecordDisplay``).
    @Test func rowsAndDetailsShowTheFieldsTheSettingsName() {
        var state = Self.state()
        state.catalog?.listFields = ["weight", "subtitle"]
        state.catalog?.detailFields = ["origin"]
        let record = Record(
            id: "9", title: "Grüner Tee", subtitle: "Teehaus",
            fields: ["weight": .text("100 g"), "origin": .text("Japan"), "note": .text("x")])
        let row = BrowserView.recordRow(record, matches: [], width: 80, state: state, fill: nil)
        #expect(row.text.contains("Grüner Tee  100 g · Teehaus"))
        let lines = BrowserView.detailLines(record, state: state, width: 80).map(\.text)
        #expect(lines.contains { $0.contains("origin: Japan") })
        #expect(!lines.contains { $0.contains("note:") || $0.contains("weight:") })
    }

    /// Every row fits the width, and the price column ends at the same place in rows with wide
    /// characters.
    @Test(arguments: [(80, 24), (100, 30), (132, 43)])
    func rowsFitAndAlign(_ width: Int, _ height: Int) {
        let frame = BrowserView.frame(Self.state(), width: width, height: height)
        #expect(frame.rows.count == height)
        for row in frame.rows { #expect(TextWidth.of(row.text) <= width, "\(row.text)") }
        let priced = frame.rows.filter { $0.text.contains("EUR") || $0.text.contains("JPY") }
        #expect(priced.count == 2)
        #expect(Set(priced.map { TextWidth.of($0.text) }).count == 1)
        #expect(frame.text.contains("3.50 EUR 🇩🇪") && frame.text.contains("Kategorie Tee"))
        #expect(!frame.render(width: width, height: height, colors: .palette).contains("\u{1B}[2J"))
    }

    @Test func coloursOnlyWhenAllowed() {
        let frame = BrowserView.frame(Self.state(), width: 80, height: 24)
        let plain = frame.render(width: 80, height: 24, colors: .none)
        #expect(!plain.contains("38;5;") && !plain.contains("48;5;"))
        #expect(plain.contains("\u{1B}[7m") || plain.contains(";7m"))
        let colored = frame.render(width: 80, height: 24, colors: .palette)
        #expect(colored.contains("48;5;"))
        #expect(!colored.contains("\u{1B}[2J"))
    }

    @Test func tinySizesNeverFail() {
        for (width, height) in [(1, 1), (5, 3), (20, 2), (0, 0)] {
            let frame = BrowserView.frame(Self.state(), width: width, height: height)
            #expect(frame.rows.count <= max(1, height))
            _ = frame.render(width: max(0, width), height: max(0, height), colors: .trueColor)
        }
    }

    @Test func detailShowsEveryFieldAndThePlaceholder() {
        var state = Self.state()
        let record = Record(
            id: "x", title: "Kräutertee", categories: ["Tee"], price: 2, currency: "EUR", quantity: 7, country: "AT",
            fields: ["weight": .number("1.50"), "origin": .text("Tirol")])
        state.detail = BrowserState.Detail(record: record, returnTo: .catalog)
        state.screen = .detail
        let text = BrowserView.frame(state, width: 80, height: 24).text
        for expected in [
            "Kategorie: Tee", "Preis: 2.00 EUR", "Menge: 7", "Land: AT 🇦🇹", "weight: 1.50", "origin: Tirol",
            "(Keine Daten hinterlegt)", "Kennung: x",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        #expect(
            text.components(separatedBy: "weight").first!.count < text.components(separatedBy: "origin").first!.count)
    }

    /// A search's records that matched only through a typo come after a header, marked ≈, as in
    /// the web app; the header comes once, also when they arrive on a later page.
    @Test func typoMatchesAreSetApart() {
        var state = Self.state()
        var search = BrowserState.Search(line: LineEditor("leves"))
        search.results.similarHeader = state.phrases.similarSpelling
        search.results.replace(
            with: [Record(id: "s1", title: "Gulyásleves"), Record(id: "s2", title: "Bableves")],
            typos: [false, false], before: nil, after: "next")
        search.results.append([Record(id: "k1", title: "Kevés só")], typos: [true])
        search.results.append([Record(id: "k2", title: "Kevés cukor")], typos: [true])
        state.search = search
        let frame = BrowserView.frame(state, width: 80, height: 24)
        let lines = frame.rows.map(\.text)
        let header = lines.firstIndex { $0.contains("Ähnliche Schreibweise") }
        #expect(lines.filter { $0.contains("Ähnliche Schreibweise") }.count == 1)
        let exact = lines.firstIndex { $0.contains("Bableves") }
        let similar = lines.firstIndex { $0.contains("Kevés só") }
        #expect(header != nil && exact! < header! && header! < similar!)
        #expect(lines[similar!].contains("≈ Kevés só") && !lines[exact!].contains("≈"))
        #expect(search.results.recordCount == 4)
    }

    @Test func highlightsFollowUTF16Ranges() {
        let spans = BrowserView.highlighted(
            "Ötzi 🥁 Drums", [MatchRange(field: "title", start: 8, length: 5)], base: .plain)
        #expect(spans.map(\.text) == ["Ötzi 🥁 ", "Drums"])
        #expect(spans[1].style.foreground == .match)
        #expect(
            BrowserView.highlighted("ab", [MatchRange(field: "title", start: 5, length: 9)], base: .plain).map(\.text)
                == ["ab"])
    }

    @Test(arguments: [("c", "C"), ("cs", "CS"), ("dzs", "DZS"), ("ö", "Ö"), ("7", "#"), ("ж", "#"), ("q", "Q")])
    func indexJumps(_ typed: String, _ label: String) {
        let hungarian = ["A", "B", "C", "CS", "D", "DZ", "DZS", "E", "Ö", "Q", "ZS", "#"]
        #expect(BrowserState.jumpTarget(typed, labels: hungarian) == label)
        #expect(BrowserState.jumpTarget("ä", labels: ["A", "B", "#"]) == "A")
    }

    @Test func listsScrollAndPrependKeepTheSelection() {
        var list = RecordList(sectioned: true)
        list.replace(
            with: (0..<30).map { Record(id: "\($0)", title: "T\($0)", section: $0 < 15 ? "B" : "C") }, before: "p",
            after: "n")
        list.move(by: 20, height: 10)
        #expect(list.selectedRecord?.id == "20")
        #expect(list.selected >= list.top && list.selected < list.top + 10)
        let before = list.selectedRecord
        list.prepend((0..<5).map { Record(id: "a\($0)", title: "A\($0)", section: "A") })
        #expect(list.selectedRecord == before)
        list.prepend((0..<3).map { Record(id: "z\($0)", title: "Z\($0)", section: "A") })
        #expect(list.selectedRecord == before)
        #expect(list.entries.filter { if case .header("A") = $0 { true } else { false } }.count == 1)
        list.after = nil
        list.move(by: 100, height: 10)
        #expect(!list.wantsMoreAfter(height: 10))
        list.after = "n"
        #expect(list.wantsMoreAfter(height: 10))
    }
}
