import CatalogModel
import Foundation

/// The bottom line's key hints and the help screen: the keys that apply where the user is,
/// shortened by priority to the width, never cut in the middle of a hint; what each key does in
/// the open catalog's language (``CatalogPhrases``).
extension BrowserView {
    /// The keys of the current screen, in the order shown.
    static func hints(_ state: BrowserState) -> [KeyHint] {
        let phrases = state.phrases
        let signedIn = state.signedInAs != nil
        let help = KeyHint("?", phrases.keyHelp, priority: 0)
        let quit = KeyHint("q", phrases.keyQuit, priority: 2)
        let signOut = KeyHint("o", phrases.signOut.lowercased(), priority: 4)
        if state.showingHelp {
            return [KeyHint("↑↓", phrases.keyMore, priority: 1), KeyHint("", phrases.anyKeyCloses, priority: 0)]
        }
        switch state.screen {
        case .catalogs:
            return [
                KeyHint("↑↓", phrases.keyMove, priority: 5), KeyHint("Enter", phrases.keyOpen, priority: 1),
                signedIn ? signOut : KeyHint("s", phrases.signIn.lowercased(), priority: 4),
                KeyHint("r", phrases.keyReload, priority: 6), help, quit,
            ]
        case .catalog where state.search != nil:
            let search = state.search!
            return [
                KeyHint("\(search.total)\(search.totalCapped ? "+" : "")", phrases.results, priority: 0),
                KeyHint("Tab", phrases.keyScope, priority: 3), KeyHint("↑↓", phrases.keyMove, priority: 4),
                KeyHint("Enter", phrases.keyOpen, priority: 2), KeyHint("←→", phrases.keyEdit, priority: 5),
                KeyHint("Esc", phrases.keyClose, priority: 1),
            ]
        case .catalog:
            var hints: [KeyHint] = []
            if state.jumpLetters.isEmpty || Date().timeIntervalSince(state.lastJumpKey) > 0.8 {
                if state.tab == .list { hints.append(KeyHint("a–z", phrases.keyJump, priority: 7)) }
            } else {
                hints.append(KeyHint("[\(state.jumpLetters.uppercased())]", "", priority: 0))
            }
            hints.append(KeyHint("/", phrases.search.lowercased(), priority: 1))
            if state.tabs.count > 1 { hints.append(KeyHint("Tab", phrases.keyView, priority: 5)) }
            hints.append(KeyHint("Enter", phrases.keyOpen, priority: 3))
            hints.append(KeyHint("*", phrases.keyFavorite, priority: 6))
            if !atTop(state) { hints.append(KeyHint("Esc", phrases.back.lowercased(), priority: 2)) }
            if signedIn, state.tab != .list { hints.append(signOut) }
            return hints + [help, quit]
        case .detail:
            return [
                KeyHint("Esc", phrases.back.lowercased(), priority: 1), KeyHint("↑↓", phrases.keyScroll, priority: 3),
                KeyHint("*", phrases.keyFavorite, priority: 4),
            ] + (signedIn ? [signOut] : []) + [help, quit]
        case .signIn:
            return [
                KeyHint("Tab", phrases.keyNextField, priority: 2),
                KeyHint("Enter", phrases.signIn.lowercased(), priority: 1),
                KeyHint("Esc", phrases.keyCancel, priority: 0),
            ]
        }
    }

    /// Whether Esc has no level to go back to (the catalogs, or an offline snapshot's catalog).
    static func atTop(_ state: BrowserState) -> Bool {
        switch state.screen {
        case .catalogs: true
        case .catalog: state.offline && state.search == nil && state.openCategory == nil
        default: false
        }
    }

    /// The hints that fit in `width` columns: the least important dropped first, each one whole.
    static func fitted(_ hints: [KeyHint], width: Int) -> [Span] {
        var kept = hints
        while !kept.isEmpty, kept.reduce(0, { $0 + $1.columns }) > width {
            let drop = kept.indices.max { kept[$0].priority < kept[$1].priority } ?? kept.startIndex
            kept.remove(at: drop)
        }
        var spans: [Span] = []
        for hint in kept {
            if !hint.keys.isEmpty { spans.append(Span(" " + hint.keys, .bold)) }
            spans.append(Span((hint.label.isEmpty ? "" : " " + hint.label) + " ", .muted))
        }
        return spans
    }

    /// Columns the live hint takes on the bottom line.
    static func liveWidth(_ state: BrowserState) -> Int {
        liveHint(state).reduce(0) { $0 + TextWidth.of($1.text) }
    }

    /// Every key, by where it works, with what it does.
    static func helpSections(_ state: BrowserState) -> [(title: String, keys: [KeyHint])] {
        let phrases = state.phrases
        let back = phrases.back
        return [
            (
                phrases.everywhere,
                [
                    KeyHint("?", phrases.thisHelp, priority: 0), KeyHint("q", phrases.keyQuit, priority: 0),
                    KeyHint("Ctrl-C", phrases.keyQuit, priority: 0),
                    KeyHint("Esc", phrases.backNeverQuits, priority: 0),
                    KeyHint("Ctrl-R", phrases.retry, priority: 0), KeyHint("Ctrl-L", phrases.redraw, priority: 0),
                ]
            ),
            (
                phrases.lists,
                [
                    KeyHint("↑ ↓", phrases.keyMove, priority: 0), KeyHint("PgUp PgDn", phrases.pageUpDown, priority: 0),
                    KeyHint("Home End", phrases.firstLast, priority: 0),
                    KeyHint("Enter →", phrases.keyOpen, priority: 0), KeyHint("← Bksp", back, priority: 0),
                    KeyHint("Tab S-Tab", phrases.nextPreviousView, priority: 0),
                    KeyHint("a–z A–Z", phrases.jumpInIndex, priority: 0), KeyHint("/", phrases.search, priority: 0),
                    KeyHint("*", phrases.addFavorite, priority: 0), KeyHint("s", phrases.signIn, priority: 0),
                    KeyHint("o", phrases.signOut, priority: 0), KeyHint("r", phrases.reloadCatalogs, priority: 0),
                ]
            ),
            (
                phrases.search,
                [
                    KeyHint("← → Home End", phrases.moveCursor, priority: 0),
                    KeyHint("Ctrl-A Ctrl-E", phrases.startEnd, priority: 0),
                    KeyHint("Bksp Del", phrases.deleteCharacter, priority: 0),
                    KeyHint("Ctrl-U", phrases.deleteToStart, priority: 0),
                    KeyHint("Ctrl-W", phrases.deleteWord, priority: 0),
                    KeyHint("Tab S-Tab", phrases.keyScope, priority: 0),
                    KeyHint("↑ ↓ Enter", phrases.pickResult, priority: 0),
                    KeyHint("Esc", phrases.keyClose, priority: 0),
                ]
            ),
            (
                phrases.record,
                [
                    KeyHint("↑ ↓ PgUp PgDn", phrases.keyScroll, priority: 0),
                    KeyHint("*", phrases.addFavorite, priority: 0), KeyHint("Esc ←", back, priority: 0),
                ]
            ),
            (
                phrases.signIn,
                [
                    KeyHint("Tab ↑ ↓", phrases.keyNextField, priority: 0),
                    KeyHint("Enter", phrases.signIn, priority: 0), KeyHint("Esc", phrases.keyCancel, priority: 0),
                ]
            ),
        ]
    }

    /// Lines of the help that a screen of `width` × `height` cannot show at once (scrolled to
    /// with the arrows); 0 when it all fits.
    static func helpHiddenLines(_ state: BrowserState, width: Int, height: Int) -> Int {
        let lines = helpLines(state)
        let room = max(1, height - 2)
        if lines.count > room, width / 2 >= 38 { return 0 }  // two columns
        return max(0, lines.count - room)
    }

    /// The help's lines in one column.
    static func helpLines(_ state: BrowserState) -> [Row] {
        let keyWidth = 14
        var lines: [Row] = []
        for (index, section) in helpSections(state).enumerated() {
            if index > 0 { lines.append(Row()) }
            lines.append(Row([Span(" " + section.title, TextStyle(bold: true, foreground: .accent))]))
            for hint in section.keys {
                lines.append(Row([Span("  " + TextWidth.fit(hint.keys, to: keyWidth), .bold), Span(hint.label)]))
            }
        }
        return lines
    }

    /// The help screen: every key, in one column, or two when one is too long for the height and
    /// the width allows; a column longer than the screen scrolls with the arrows.
    static func help(_ state: BrowserState, width: Int, height: Int) -> [Row] {
        let lines = helpLines(state)
        let hidden = helpHiddenLines(state, width: width, height: height)
        let room = max(1, height - 2)
        let phrases = state.phrases
        let closes = phrases.anyKeyCloses
        var rows = [titleBar(phrases.keys, hidden > 0 ? "↑↓ \(phrases.keyMore) · \(closes)" : closes, width: width)]
        let columnWidth = width / 2
        if lines.count > room, columnWidth >= 38 {
            // Split between sections where possible, near the middle.
            var split = min(room, (lines.count + 1) / 2)
            while split > 0, split < lines.count, lines[split].spans.isEmpty == false, split > lines.count / 3 {
                split -= 1
            }
            let left = Array(lines[..<split])
            let right = Array(lines[split...]).drop { $0.spans.isEmpty }
            for line in 0..<max(left.count, right.count) {
                let first = line < left.count ? left[line].fitted(to: columnWidth - 1) : Row()
                let pad = Span(String(repeating: " ", count: max(0, columnWidth - TextWidth.of(first.text))))
                let second = line < right.count ? Array(right)[line].fitted(to: width - columnWidth) : Row()
                rows.append(Row(first.spans + [pad] + second.spans))
            }
        } else {
            rows += lines.dropFirst(min(state.helpScroll, hidden)).prefix(room).map { $0.fitted(to: width) }
        }
        return rows
    }
}
