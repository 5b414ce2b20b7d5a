/// Record text made safe to print on a terminal: the one place that decides how the CLI
/// (`catalog list`, `show`, `search`, error messages) and `catalog browse` show text that came
/// from a catalog, a file or a command line.
///
/// A terminal obeys the control characters in what it prints: ESC starts a sequence (CSI
/// `ESC[2J` clears the screen, OSC `ESC]0;title BEL` renames the window, DCS, APC…), and so do the
/// C1 controls (U+009B is CSI on its own). Bidirectional overrides reorder what follows, so a line
/// can read differently from what it holds. Every such character is replaced by a visible one:
///
/// - C0 controls (U+0000–U+001F) by their Control Pictures (`ESC` → `␛`, `BEL` → `␇`), DEL by `␡`;
/// - C1 controls (U+0080–U+009F) and the bidirectional embeddings, overrides and isolates
///   (U+202A–U+202E, U+2066–U+2069) by `�`.
///
/// The sequence after an ESC stays as plain text (`␛]0;pwned␇`), harmless and visible. In a
/// ``field(_:)`` each character is replaced by exactly one of the same UTF-16 length, so offsets
/// into the original (search match ranges) still point at the same characters.
///
/// ```swift
/// TerminalText.field("Tea\u{1B}]0;pwned\u{07}\tcups")   // "Tea␛]0;pwned␇ cups"
/// TerminalText.text("line one\nline two")            // the newline is kept
/// ```
///
/// Exports (XML, JSON, CSV, SQLite) are data, not terminal text, and are never passed through it.
public enum TerminalText {
    /// One field of a line, as `catalog list` and `search` print tab-separated: tabs and line
    /// breaks become spaces, so a value cannot add a column or a line; every other control is
    /// made visible.
    public static func field(_ text: String) -> String {
        sanitized(text, keepingLineBreaks: false)
    }

    /// Text that may span lines (a record's description in `catalog show`, a message): line
    /// breaks (`\n`; `\r\n` and `\r` become `\n`) and tabs are kept, every other control is made
    /// visible.
    public static func text(_ text: String) -> String {
        sanitized(text, keepingLineBreaks: true)
    }

    /// Whether `scalar` would be replaced: a control, DEL, a C1 control or a bidirectional
    /// control.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func sanitized(_ text: String, keepingLineBreaks: Bool) -> String {
        // Most text has nothing to replace: return it as it is, without copying.
        guard text.unicodeScalars.contains(where: { isUnsafe($0) || $0.value == 0x2028 || $0.value == 0x2029 })
        else { return text }
        var output = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            switch scalar.value {
            case 0x0A:
                // `\r\n` already gave its line break at the `\r`.
                if !keepingLineBreaks {
                    output.append(" ")
                } else if previous != "\r" {
                    output.append("\n")
                }
            case 0x0D:
                output.append(keepingLineBreaks ? "\n" : " ")
            case 0x09:
                output.append(keepingLineBreaks ? "\t" : " ")
            case 0x2028, 0x2029, 0x85:
                // Unicode's line and paragraph separators and NEL break lines in some terminals.
                output.append(keepingLineBreaks ? "\n" : " ")
            case 0x00...0x1F:
                output.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F:
                output.append("\u{2421}")
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                output.append("\u{FFFD}")
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }
}
