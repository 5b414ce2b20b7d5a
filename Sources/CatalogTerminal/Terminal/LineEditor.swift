/// One line of text being typed, edited as a shell's line is: the cursor moves by grapheme
/// cluster (a CJK character, an `e` with a combining accent, a flag are one step each), and text
/// reopened for editing starts selected, so typing replaces it and a cursor key keeps it.
///
/// ```swift
/// var line = LineEditor("tea cup")
/// _ = line.apply(.control("w"))   // "tea "
/// _ = line.apply(.home)
/// _ = line.apply(.character("x"))  // "xtea ", the cursor after the x
/// ```
struct LineEditor: Equatable, Sendable {
    /// What a key did to the line.
    enum Outcome: Equatable, Sendable {
        /// The text changed.
        case edited
        /// Only the cursor or the selection changed.
        case moved
        /// The key is not an editing key.
        case ignored
    }

    private(set) var text: String
    /// The cursor, in grapheme clusters from the start (0...text.count).
    private(set) var cursor: Int
    /// The whole text is selected: typing replaces it, a cursor key keeps it.
    private(set) var selected = false

    /// A line holding `text`, the cursor at its end.
    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// The same text with the cursor at its end and all of it selected (when there is any), for
    /// a field opened again.
    func reopened() -> LineEditor {
        var line = LineEditor(text)
        line.selected = !text.isEmpty
        return line
    }

    /// Applies one key: characters are inserted at the cursor; Left, Right, Home, End, Ctrl-A,
    /// Ctrl-E move; Backspace, Delete, Ctrl-U (to the start) and Ctrl-W (the word before the
    /// cursor) delete.
    mutating func apply(_ key: Key) -> Outcome {
        if selected {
            switch key {
            case .character, .backspace, .delete, .control("u"), .control("w"):
                text = ""
                cursor = 0
                selected = false
                if case .character(let character) = key { insert(character) }
                return .edited
            case .left, .right, .home, .end, .control("a"), .control("e"):
                selected = false
            default:
                return .ignored
            }
        }
        let count = text.count
        switch key {
        case .character(let character):
            insert(character)
            return .edited
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = count
        case .backspace:
            guard cursor > 0 else { return .moved }
            remove(cursor - 1..<cursor)
            return .edited
        case .delete:
            guard cursor < count else { return .moved }
            remove(cursor..<cursor + 1)
            return .edited
        case .control("u"):
            guard cursor > 0 else { return .moved }
            remove(0..<cursor)
            return .edited
        case .control("w"):
            let characters = Array(text)
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            guard start < cursor else { return .moved }
            remove(start..<cursor)
            return .edited
        default:
            return .ignored
        }
        return .moved
    }

    /// The columns before the cursor (where a terminal draws it), by display width.
    var cursorColumn: Int { TextWidth.of(text.prefix(cursor)) }

    /// The text as spans that fit in `width` columns with the cursor shown (the character under
    /// it in reverse video, a reversed space at the end), scrolled so that the cursor stays in
    /// view; a selection is shown in reverse video as a whole.
    func spans(width: Int, style: TextStyle = .plain) -> [Span] {
        guard width > 0 else { return [] }
        if selected { return [Span(TextWidth.truncate(text, to: width), .selected)] }
        let characters = Array(text)
        let under = cursor < characters.count ? characters[cursor] : " "
        // Drop characters from the start until the text before the cursor and the cursor fit.
        var first = 0
        var before = cursorColumn
        while first < cursor, before + TextWidth.of(under) > width {
            before -= TextWidth.of(characters[first])
            first += 1
        }
        var cursorStyle = style
        cursorStyle.reverse = true
        var spans = [Span(String(characters[first..<cursor]), style), Span(String(under), cursorStyle)]
        if cursor + 1 < characters.count {
            let rest = String(characters[(cursor + 1)...])
            let room = width - before - TextWidth.of(under)
            if room > 0 { spans.append(Span(TextWidth.truncate(rest, to: room), style)) }
        }
        return spans
    }

    private mutating func insert(_ character: Character) {
        let index = text.index(text.startIndex, offsetBy: cursor)
        let before = text.count
        text.insert(character, at: index)
        // A combining mark joins the character before it: the count may not grow.
        cursor += text.count - before
    }

    private mutating func remove(_ range: Range<Int>) {
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        text.removeSubrange(start..<end)
        cursor = range.lowerBound
    }
}
