import CatalogModel
import CatalogSupport

/// How a piece of text looks. Colours are only used on a colour terminal (not with `NO_COLOR`,
/// not with `TERM=dumb`); bold, underline and reverse video always.
struct TextStyle: Equatable, Sendable {
    /// The colours the app uses, by meaning.
    enum Color: Equatable, Sendable {
        /// Headers and the selected index label.
        case accent
        /// Secondary text (subtitles, hints).
        case muted
        /// Matched text in search results.
        case match
        /// The tint of every other row (the original sequencers app's sage green).
        case alternate
        /// Errors.
        case error
    }

    var bold = false
    var underline = false
    var reverse = false
    var foreground: Color?
    var background: Color?

    static let plain = TextStyle()
    static let bold = TextStyle(bold: true)
    static let muted = TextStyle(foreground: .muted)
    static let selected = TextStyle(reverse: true)

    /// The SGR sequence that switches to this style from the default.
    func sequence(colors: Bool) -> String {
        var codes: [String] = []
        if bold { codes.append("1") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if colors {
            if let foreground { codes.append("38;5;\(Self.code(foreground, foreground: true))") }
            if let background { codes.append("48;5;\(Self.code(background, foreground: false))") }
        } else if foreground == .match {
            // Without colours, matches are underlined.
            codes.append("4")
        }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    static func code(_ color: Color, foreground: Bool) -> Int {
        switch color {
        case .accent: 33
        case .muted: 245
        case .match: 208
        case .alternate: foreground ? 22 : 144  // rgb(180,190,150), as near as 256 colours get
        case .error: 196
        }
    }
}

/// A run of text in one style.
struct Span: Equatable, Sendable {
    var text: String
    var style: TextStyle

    /// A span; control characters in `text` are made visible (one column each), so a record
    /// cannot move the cursor or change the terminal, and widths stay right.
    init(_ text: String, _ style: TextStyle = .plain) {
        self.text = Frame.printable(text)
        self.style = style
    }
}

/// One row of the screen.
struct Row: Equatable, Sendable {
    var spans: [Span]
    /// A style for the whole row's background (selection, alternate tint).
    var fill: TextStyle?

    init(_ spans: [Span] = [], fill: TextStyle? = nil) {
        self.spans = spans
        self.fill = fill
    }

    init(_ text: String, _ style: TextStyle = .plain) {
        spans = [Span(text, style)]
        fill = nil
    }

    /// The text without styles.
    var text: String { spans.map(\.text).joined() }

    /// The row cut to `width` columns ("…" where cut).
    func fitted(to width: Int) -> Row {
        var result = Row(fill: fill)
        var used = 0
        for span in spans {
            let columns = TextWidth.of(span.text)
            if used + columns <= width {
                result.spans.append(span)
                used += columns
                continue
            }
            result.spans.append(Span(TextWidth.truncate(span.text, to: width - used), span.style))
            break
        }
        return result
    }

    /// `left` and `right` on one row of `width` columns: the right part stays whole, the left
    /// is cut to make room.
    static func spread(_ left: [Span], _ right: [Span], width: Int, fill: TextStyle? = nil) -> Row {
        let rightWidth = right.reduce(0) { $0 + TextWidth.of($1.text) }
        guard rightWidth + 1 < width else { return Row(left, fill: fill).fitted(to: width) }
        let leftRow = Row(left).fitted(to: width - rightWidth - 1)
        let gap = width - rightWidth - leftRow.spans.reduce(0) { $0 + TextWidth.of($1.text) }
        return Row(leftRow.spans + [Span(String(repeating: " ", count: max(1, gap)))] + right, fill: fill)
    }
}

/// A whole frame: rows drawn top to bottom, each cut or padded to the width.
struct Frame: Equatable, Sendable {
    var rows: [Row]

    /// The frame as terminal output: home, each row with its styles, the rest of each line
    /// cleared, nothing below the last row.
    func render(width: Int, height: Int, colors: Bool) -> String {
        var out = "\u{1B}[H"
        for line in 0..<height {
            let row = line < rows.count ? rows[line].fitted(to: width) : Row()
            let fill = row.fill?.sequence(colors: colors) ?? ""
            out += "\u{1B}[0m" + fill
            var used = 0
            for span in row.spans {
                out += span.style.sequence(colors: colors)
                out += span.text
                out += "\u{1B}[0m" + fill
                used += TextWidth.of(span.text)
            }
            if !fill.isEmpty { out += String(repeating: " ", count: max(0, width - used)) }
            out += "\u{1B}[K\u{1B}[0m"
            if line < height - 1 { out += "\r\n" }
        }
        return out
    }

    /// Text with control characters made visible and line breaks as spaces (``TerminalText``, the
    /// rule the CLI follows too), so a record cannot move the cursor or change the terminal.
    static func printable(_ text: String) -> String {
        TerminalText.field(text)
    }

    /// The frame's text without styles, one line per row (for tests).
    var text: String { rows.map(\.text).joined(separator: "\n") }
}
