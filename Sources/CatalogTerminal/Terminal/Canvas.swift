import CatalogModel
import CatalogSupport

/// How a piece of text looks. Colours are only used on a colour terminal (not with `NO_COLOR`,
/// not with `TERM=dumb`); bold, underline and reverse video always.
///
/// Rows of the list are drawn on "paper" where the terminal's colours are known
/// (``ColorDepth/tints``): every other row in the tint, the rest in a light base colour, with
/// dark text whose every colour keeps a WCAG contrast of at least 4.5:1 on both.
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
        /// The background of the list's other rows.
        case base
        /// The text on the list's rows.
        case text
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
    /// A list row's paper: the tint for odd rows, the base colour for the others.
    static func paper(tinted: Bool) -> TextStyle {
        TextStyle(foreground: .text, background: tinted ? .alternate : .base)
    }

    /// Whether this style is a row's paper (its colours are the app's, not the terminal's).
    var isPaper: Bool { background == .alternate || background == .base }

    /// The SGR sequence that switches to this style from the default, at `depth`, for text on a
    /// row's paper (`onPaper`) or on the terminal's own background.
    func sequence(depth: ColorDepth, onPaper: Bool = false) -> String {
        var codes: [String] = []
        if bold { codes.append("1") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        let paper = onPaper && depth.tints
        if depth != .none {
            if let foreground, let code = Self.code(foreground, foreground: true, depth: depth, onPaper: paper) {
                codes.append(code)
            }
            if let background, let code = Self.code(background, foreground: false, depth: depth, onPaper: paper) {
                codes.append(code)
            }
        } else if foreground == .match {
            // Without colours, matches are underlined.
            codes.append("4")
        }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// The SGR parameters of `color` (nil: the terminal's own colour).
    static func code(_ color: Color, foreground: Bool, depth: ColorDepth, onPaper: Bool) -> String? {
        let prefix = foreground ? "38" : "48"
        if depth == .basic {
            let basic: Int? =
                switch color {
                case .accent: 4
                case .match: 3
                case .error: 1
                case .muted, .alternate, .base, .text: nil
                }
            return basic.map { "\(foreground ? 30 + $0 : 40 + $0)" }
        }
        if depth == .trueColor, onPaper || color == .alternate || color == .base || color == .text {
            let (red, green, blue) = paperRGB(color, foreground: foreground)
            return "\(prefix);2;\(red);\(green);\(blue)"
        }
        let index: Int
        switch color {
        case .accent: index = onPaper ? 18 : 33
        case .muted: index = onPaper ? 237 : 245
        case .match: index = onPaper ? 88 : 208
        case .alternate: index = foreground ? 22 : 144  // rgb(180,190,150), as near as 256 colours get
        case .base: index = 255
        case .text: index = 16
        case .error: index = onPaper ? 124 : 196
        }
        return "\(prefix);5;\(index)"
    }

    /// The 24-bit colours of the list's paper and the text on it.
    static func paperRGB(_ color: Color, foreground: Bool) -> (Int, Int, Int) {
        switch color {
        case .accent: (0, 40, 120)
        case .muted: (70, 70, 70)
        case .match: (140, 20, 0)
        case .alternate: foreground ? (0, 95, 0) : (180, 190, 150)
        case .base: (250, 250, 245)
        case .text: (20, 20, 20)
        case .error: (160, 0, 0)
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
    func render(width: Int, height: Int, colors: ColorDepth) -> String {
        var out = "\u{1B}[H"
        for line in 0..<height {
            let row = line < rows.count ? rows[line].fitted(to: width) : Row()
            // Paper where tints are drawn; elsewhere the row keeps the terminal's colours.
            let paper = row.fill?.isPaper == true && colors.tints
            let fill =
                row.fill.map { $0.isPaper && !colors.tints ? "" : $0.sequence(depth: colors, onPaper: paper) } ?? ""
            out += "\u{1B}[0m" + fill
            var used = 0
            for span in row.spans {
                out += span.style.sequence(depth: colors, onPaper: paper)
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
