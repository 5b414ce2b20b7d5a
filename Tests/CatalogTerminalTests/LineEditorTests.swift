import Testing

@testable import CatalogTerminal

/// The search field edits as a shell's line does, by grapheme cluster and display width.
@Suite struct LineEditorTests {
    /// `keys` applied to a line holding `text` (cursor at its end).
    static func edit(_ text: String, _ keys: [Key]) -> LineEditor {
        var line = LineEditor(text)
        for key in keys { _ = line.apply(key) }
        return line
    }

    static func type(_ text: String) -> [Key] { text.map { .character($0) } }

    @Test func cursorKeysInsertAndDeleteWhereTheCursorIs() {
        var line = Self.edit("abc", [.left, .left] + Self.type("X"))
        #expect(line.text == "aXbc" && line.cursor == 2)
        line = Self.edit("abc", [.home] + Self.type("Z") + [.end] + Self.type("!"))
        #expect(line.text == "Zabc!")
        line = Self.edit("abc", [.control("a"), .right, .delete])
        #expect(line.text == "ac" && line.cursor == 1)
        line = Self.edit("abc", [.control("a"), .control("e"), .backspace])
        #expect(line.text == "ab")
        #expect(Self.edit("abc", [.home, .backspace, .left]).text == "abc")
        #expect(Self.edit("abc", [.delete, .right]).cursor == 3)
    }

    @Test func ctrlUDeletesToTheStartAndCtrlWTheWordBefore() {
        #expect(Self.edit("green tea", [.left, .left, .control("u")]).text == "ea")
        #expect(Self.edit("green tea cup", [.control("w")]).text == "green tea ")
        #expect(Self.edit("green tea  ", [.control("w")]).text == "green ")
        var line = Self.edit("green tea cup", [.left, .left, .left, .left, .control("w")])
        #expect(line.text == "green  cup" && line.cursor == 6)
        line = Self.edit("tea", [.home, .control("w"), .control("u")])
        #expect(line.text == "tea")
    }

    @Test func wideCharactersAndCombiningMarksAreOneStep() {
        // 抹茶 takes four columns; é written as e and a combining accent is one character.
        var line = Self.edit("抹茶e\u{301}x", [.left, .left])
        #expect(line.cursor == 2 && line.cursorColumn == 4)
        _ = line.apply(.backspace)
        #expect(line.text == "抹e\u{301}x" && line.cursorColumn == 2)
        _ = line.apply(.right)
        #expect(line.cursorColumn == 3)
        _ = line.apply(.backspace)
        #expect(line.text == "抹x")
        // A combining mark typed after a letter joins it: the cursor stays after the pair.
        line = Self.edit("cafe", Self.type("\u{301}"))
        #expect(line.text == "caf\u{E9}" || line.text == "cafe\u{301}")
        #expect(line.cursor == 4 && line.cursorColumn == 4)
        #expect(Self.edit("한국어", [.control("w")]).text.isEmpty)
    }

    @Test func aReopenedLineIsSelectedTypingReplacesItACursorKeyKeepsIt() {
        var line = LineEditor("hammer").reopened()
        #expect(line.selected)
        #expect(line.apply(.character("s")) == .edited)
        #expect(line.text == "s" && !line.selected)
        line = LineEditor("hammer").reopened()
        #expect(line.apply(.left) == .moved)
        #expect(line.text == "hammer" && !line.selected && line.cursor == 5)
        line = LineEditor("hammer").reopened()
        _ = line.apply(.backspace)
        #expect(line.text.isEmpty)
        #expect(!LineEditor("").reopened().selected)
        #expect(line.apply(.up) == .ignored && line.apply(.enter) == .ignored)
    }

    @Test func theCursorIsDrawnWhereItIsAndStaysInView() {
        let line = Self.edit("抹茶 tea", [.home, .right])
        let spans = line.spans(width: 20)
        #expect(spans.map(\.text) == ["抹", "茶", " tea"])
        #expect(spans[1].style.reverse && !spans[0].style.reverse)
        let end = LineEditor("tea").spans(width: 20)
        #expect(end.map(\.text) == ["tea", " "] && end[1].style.reverse)
        // A line longer than the field scrolls so that the cursor stays visible.
        let long = LineEditor(String(repeating: "日本", count: 20)).spans(width: 10)
        #expect(long.reduce(0) { $0 + TextWidth.of($1.text) } <= 10)
        #expect(long.last?.text == " " && long.last?.style.reverse == true)
        #expect(LineEditor("x").reopened().spans(width: 5).first?.style == .selected)
    }
}
