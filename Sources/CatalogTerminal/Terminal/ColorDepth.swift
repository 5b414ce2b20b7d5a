/// How many colours the terminal shows, from its environment. The list's row tint needs known
/// colours (the 256-colour palette or 24-bit colour) so that its text can be chosen to stay
/// readable on it; with eight colours, or none, rows are not tinted.
enum ColorDepth: Equatable, Sendable, Comparable {
    /// No colours (`NO_COLOR`, `TERM=dumb`, no `TERM`): bold, underline and reverse video only.
    case none
    /// The eight basic colours, whose shades the terminal's theme decides.
    case basic
    /// The xterm 256-colour palette (`TERM=…-256color`).
    case palette
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor

    /// The depth the environment announces.
    static func detect(_ environment: [String: String]) -> ColorDepth {
        if let value = environment["NO_COLOR"], !value.isEmpty { return .none }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        if term.hasSuffix("256color") || term.contains("-256color") || !colorterm.isEmpty { return .palette }
        return .basic
    }

    /// Whether the row tint (and the list's explicit colours) is drawn.
    var tints: Bool { self >= .palette }
}
