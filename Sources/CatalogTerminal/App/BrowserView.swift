import CatalogClient
import CatalogModel
import Foundation

/// Draws the state as rows of text: a pure function of the state and the terminal's size, so
/// screens are tested without a terminal.
enum BrowserView {
    /// Rows above the list: the title bar, the tab bar (when there are tabs), the search field
    /// and scope buttons (while searching).
    static func headerHeight(state: BrowserState) -> Int {
        guard state.screen == .catalog else { return 1 }
        return 1 + (state.tabs.count > 1 ? 1 : 0) + (state.search != nil ? 2 : 0)
    }

    /// Rows below the list: the index (in the list tab) and the status line.
    static func footerHeight(state: BrowserState) -> Int {
        state.screen == .catalog && state.tab == .list && state.search == nil ? 2 : 1
    }

    /// Rows for the list.
    static func bodyHeight(state: BrowserState, height: Int) -> Int {
        max(1, height - headerHeight(state: state) - footerHeight(state: state))
    }

    /// The whole screen.
    static func frame(_ state: BrowserState, width: Int, height: Int) -> Frame {
        var rows: [Row]
        switch state.screen {
        case _ where state.showingHelp: rows = help(state, width: width, height: height)
        case .catalogs: rows = catalogs(state, width: width, height: height)
        case .catalog: rows = catalog(state, width: width, height: height)
        case .detail: rows = detail(state, width: width, height: height)
        case .signIn: rows = signIn(state, width: width, height: height)
        }
        while rows.count < height - 1 { rows.append(Row()) }
        rows = Array(rows.prefix(max(0, height - 1)))
        rows.append(status(state, width: width))
        return Frame(rows: rows)
    }

    // MARK: - Screens

    static func titleBar(_ left: String, _ right: String = "", width: Int) -> Row {
        Row.spread(
            [Span(" " + left, TextStyle(bold: true, reverse: true))], [Span(right + " ", .selected)], width: width,
            fill: .selected)
    }

    static func catalogs(_ state: BrowserState, width: Int, height: Int) -> [Row] {
        // No catalog's language yet: the user's.
        let phrases = CatalogPhrases.forLocale(state.userLocale)
        var rows = [titleBar(phrases.catalogs, state.signedInAs.map { "● \($0)" } ?? "", width: width)]
        if !state.catalogsLoaded {
            rows.append(Row(" " + (state.message == nil ? phrases.loading : ""), .muted))
            return rows
        }
        for (index, catalog) in state.catalogs.enumerated() {
            let selected = index == state.catalogSelection
            let row = Row.spread(
                [Span(" " + catalog.title, .bold), Span("  " + catalog.id, .muted)],
                [Span("\(catalog.count)  \(catalog.locale)", .muted)], width: width, fill: selected ? .selected : nil)
            rows.append(row)
        }
        return rows
    }

    static func catalog(_ state: BrowserState, width: Int, height: Int) -> [Row] {
        guard let catalog = state.catalog else { return [] }
        let phrases = state.phrases
        let who = state.offline ? phrases.offline : state.signedInAs.flatMap { $0.isEmpty ? nil : "● \($0)" }
        var rows = [titleBar(catalog.title, "\(catalog.count)" + (who.map { " · \($0)" } ?? ""), width: width)]
        if state.tabs.count > 1 {
            var spans: [Span] = [Span(" ")]
            for tab in state.tabs {
                let name: String
                switch tab {
                case .list: name = phrases.list
                case .hot: name = phrases.hot
                case .categories: name = phrases.categories
                case .favorites: name = phrases.favorites
                }
                spans.append(
                    Span(
                        " \(name) ",
                        tab == state.tab && state.search == nil ? TextStyle(bold: true, reverse: true) : .muted))
                spans.append(Span(" "))
            }
            rows.append(Row(spans).fitted(to: width))
        }
        let body = bodyHeight(state: state, height: height)
        if let search = state.search {
            rows.append(Row([Span(" / ", .bold)] + search.line.spans(width: max(0, width - 4))).fitted(to: width))
            rows.append(scopeBar(search, catalog: catalog, width: width))
            if search.results.loaded && search.results.entries.isEmpty && !search.searching {
                rows.append(Row("  " + phrases.noResults, .muted))
            } else {
                rows += list(search.results, height: body, width: width, state: state)
            }
            return rows
        }
        switch state.tab {
        case .list:
            rows += list(state.list, height: body, width: width, state: state)
            while rows.count < height - 2 { rows.append(Row()) }
            rows.append(
                indexRail(catalog.sections, sections: state.sections, current: state.list.currentSection, width: width))
        case .hot:
            rows += list(state.hot, height: body, width: width, state: state)
        case .categories:
            if let open = state.openCategory {
                rows.append(Row([Span(" ‹ \(open)", .bold)]))
                rows += list(state.categoryItems, height: body - 1, width: width, state: state)
            } else {
                for (index, category) in state.categories.enumerated().dropFirst(state.categoryTop).prefix(body) {
                    rows.append(
                        Row.spread(
                            [Span("  " + category.name)], [Span("\(category.count)", .muted)], width: width,
                            fill: index == state.categorySelection ? .selected : nil))
                }
            }
        case .favorites:
            if state.signedInAs == nil {
                rows.append(Row("  " + phrases.signInForFavorites + "  (Enter)", .muted))
            } else if state.favorites.loaded && state.favorites.entries.isEmpty {
                rows.append(Row("  " + phrases.noFavorites, .muted))
            } else {
                rows += list(state.favorites, height: body, width: width, state: state)
            }
        }
        return rows
    }

    /// The scope buttons with their counts: `[Alle 11]  Windows 6  Apple 6  Apple&Win 2`. Buttons that
    /// do not fit are left out whole, a window around the selected one, `‹` and `›` saying more
    /// are on that side (Tab scrolls to them).
    static func scopeBar(_ search: BrowserState.Search, catalog: CatalogDetail, width: Int) -> Row {
        if catalog.scopes.isEmpty {
            return Row([Span(" "), Span("\(search.total)\(search.totalCapped ? "+" : "")", .muted)]).fitted(to: width)
        }
        let buttons = catalog.scopes.enumerated().map { index, label in
            let count = search.scopes.first { $0.label == label }.map { "\($0.count)\($0.capped ? "+" : "")" } ?? "…"
            let style = index == search.scope ? TextStyle(bold: true, reverse: true) : TextStyle.muted
            return Span(" \(label) \(count) ", style)
        }
        let columns = buttons.map { TextWidth.of($0.text) + 1 }
        let selected = min(max(0, search.scope), buttons.count - 1)
        // The widest window holding the selected button: from it, grow to the right, then left.
        let room = width - 3  // the leading space and the two markers
        var (first, last) = (selected, selected)
        var used = columns[selected]
        while last + 1 < buttons.count, used + columns[last + 1] <= room {
            last += 1
            used += columns[last]
        }
        while first > 0, used + columns[first - 1] <= room {
            first -= 1
            used += columns[first]
        }
        var spans = [Span(first > 0 ? "‹" : " ", .muted)]
        for index in first...last {
            spans.append(buttons[index])
            spans.append(Span(" "))
        }
        if last + 1 < buttons.count { spans.append(Span("›", .muted)) }
        return Row(spans).fitted(to: width)
    }

    /// Visible rows of a list: section headers, records with their highlights, the selection.
    static func list(_ list: RecordList, height: Int, width: Int, state: BrowserState) -> [Row] {
        guard list.loaded else { return [Row("  " + state.phrases.loading, .muted)] }
        var rows: [Row] = []
        var parity = 0
        for index in list.entries.indices.dropFirst(list.top).prefix(height) {
            switch list.entries[index] {
            case .header(let label):
                rows.append(
                    Row([
                        Span(" \(label) ", TextStyle(bold: true, foreground: .accent)),
                        Span(String(repeating: "─", count: max(0, width - TextWidth.of(label) - 2)), .muted),
                    ]))
                parity = 0
            case .record(let record, let matches):
                let selected = index == list.selected
                let tint: TextStyle = selected ? .selected : .paper(tinted: parity % 2 == 1)
                rows.append(
                    recordRow(
                        record, matches: matches, width: width, state: state, fill: tint,
                        typo: list.typoIDs.contains(record.id)))
                parity += 1
            }
        }
        if list.loadingAfter, rows.count < height { rows.append(Row("  " + state.phrases.loading, .muted)) }
        return rows
    }

    /// One record: ★ when a favorite, the title (matches marked), dimmed after it what the
    /// catalog's rows show (``RecordDisplay``: the subtitle or "Kategorie …", or the fields its
    /// settings name), and at the right the price and the flag of the country; `typo`: a
    /// search's record that matched only through a typo, marked `≈` before its title.
    static func recordRow(
        _ record: Record, matches: [MatchRange], width: Int, state: BrowserState, fill: TextStyle?, typo: Bool = false
    ) -> Row {
        let favorite = state.favoriteIDs.contains(record.id)
        var left: [Span] = [Span(favorite ? " ★ " : "   ", TextStyle(foreground: .accent))]
        if typo { left.append(Span("≈ ", .muted)) }
        left += highlighted(record.title, matches.filter { $0.field == "title" }, base: .bold)
        let parts = RecordDisplay.listLine(
            record, fields: state.catalog?.listFields, categoryPrefix: state.phrases.category)
        for (index, part) in parts.enumerated() {
            left.append(Span(index == 0 ? "  " : RecordDisplay.separator, .muted))
            left += highlighted(
                part.text, part.field == "subtitle" ? matches.filter { $0.field == "subtitle" } : [], base: .muted)
        }
        var right: [Span] = []
        if let price = record.price { right.append(Span(money(price, record.currency))) }
        if let country = record.country, let flag = flag(country) { right.append(Span(" " + flag)) }
        right.append(Span(" "))
        return Row.spread(left, right, width: width, fill: fill)
    }

    /// A price: with a currency, at least two decimals (`24.90 EUR`); without, as written.
    static func money(_ price: Decimal, _ currency: String?) -> String {
        var text = DecimalText.format(price)
        guard let currency else { return text }
        let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 }
        switch decimals {
        case nil: text += ".00"
        case 1: text += "0"
        default: break
        }
        return text + " " + currency
    }

    /// `text` split into spans with the matched UTF-16 ranges marked.
    static func highlighted(_ text: String, _ matches: [MatchRange], base: TextStyle) -> [Span] {
        guard !matches.isEmpty else { return [Span(text, base)] }
        let utf16 = Array(text.utf16)
        var spans: [Span] = []
        var position = 0
        for match in matches.sorted(by: { $0.start < $1.start }) {
            let start = max(position, min(match.start, utf16.count))
            let end = max(start, min(match.start + match.length, utf16.count))
            if start > position { spans.append(Span(String(decoding: utf16[position..<start], as: UTF16.self), base)) }
            if end > start {
                var style = base
                style.foreground = .match
                style.bold = true
                spans.append(Span(String(decoding: utf16[start..<end], as: UTF16.self), style))
            }
            position = end
        }
        if position < utf16.count { spans.append(Span(String(decoding: utf16[position...], as: UTF16.self), base)) }
        return spans
    }

    /// The flag emoji of an ISO 3166 code (`DE` → 🇩🇪).
    static func flag(_ code: String) -> String? {
        CountryCode(code)?.flagEmoji
    }

    /// The index as a key: every label, the current section marked; a window around it when the
    /// labels do not fit.
    static func indexRail(_ labels: [String], sections: [SectionCount], current: String?, width: Int) -> Row {
        let present = Set(sections.map(\.label))
        var spans: [Span] = []
        for label in labels {
            let style =
                label == current
                ? TextStyle(bold: true, reverse: true) : present.contains(label) ? TextStyle.plain : TextStyle.muted
            spans.append(Span(label, style))
            spans.append(Span(" "))
        }
        var total = spans.reduce(0) { $0 + TextWidth.of($1.text) } + 1
        if total > width, let index = labels.firstIndex(where: { $0 == current }) {
            // Drop labels from the far end until the window fits.
            var first = 0
            while total > width - 2, first < index * 2 {
                total -= TextWidth.of(spans[first].text) + 1
                first += 2
            }
            spans = [Span("…", .muted)] + Array(spans.dropFirst(first))
        }
        return Row([Span(" ")] + spans).fitted(to: width)
    }

    /// Every field of a record, wrapped to the width; each labelled as the catalog labels it in its
    /// language, else with the app's word (``CatalogPhrases``), else with the field's name.
    static func detailLines(_ record: Record, state: BrowserState, width: Int) -> [Row] {
        let phrases = state.phrases
        let inner = max(10, width - 4)
        var rows: [Row] = []
        for line in TextWidth.wrap(record.title, to: inner) { rows.append(Row([Span("  " + line, .bold)])) }
        if let subtitle = record.subtitle {
            for line in TextWidth.wrap(subtitle, to: inner) { rows.append(Row("  " + line, .muted)) }
        }
        rows.append(Row())
        // A field's label: the catalog's own in its language, else the app's word, else its name.
        func label(_ name: String, _ word: String? = nil) -> String {
            state.catalog?.fieldLabel(name) ?? word ?? name
        }
        func field(_ label: String, _ value: String) {
            let lines = TextWidth.wrap(value, to: max(10, inner - TextWidth.of(label) - 2))
            for (index, line) in lines.enumerated() {
                let head = index == 0 ? label + ": " : String(repeating: " ", count: TextWidth.of(label) + 2)
                rows.append(Row([Span("  " + head, .muted), Span(line)]))
            }
        }
        if !record.categories.isEmpty {
            field(label("categories", phrases.category), record.categories.joined(separator: ", "))
        }
        if let price = record.price { field(label("price", phrases.price), money(price, record.currency)) }
        if let quantity = record.quantity { field(label("quantity", phrases.quantity), String(quantity)) }
        if let country = record.country {
            field(label("country", phrases.country), country + (flag(country).map { " " + $0 } ?? ""))
        }
        if state.favoriteIDs.contains(record.id) { field("★", phrases.favorites) }
        rows.append(Row())
        let description = record.description.flatMap { $0.isEmpty ? nil : $0 }
        for line in TextWidth.wrap(description ?? phrases.noDescription, to: inner) {
            rows.append(Row("  " + line, description == nil ? .muted : .plain))
        }
        rows.append(Row())
        // The fields the catalog's detail pages show (``RecordDisplay``), as the web app does.
        let names = RecordDisplay.detailFields(
            record, listed: state.catalog?.detailFields, fieldOrder: state.catalog?.fields ?? [])
        for name in names { field(label(name), record.fields[name]?.joined ?? "") }
        if let image = record.image { field(label("image", phrases.image), image) }
        if let featured = record.featured { field(label("featured", phrases.hot), "#\(featured)") }
        field(label("id", phrases.identifier), record.id)
        return rows
    }

    static func detail(_ state: BrowserState, width: Int, height: Int) -> [Row] {
        guard let detail = state.detail else { return [] }
        var rows = [titleBar(detail.record.title, detail.record.section ?? "", width: width)]
        if detail.deleted {
            let deleted = "  ⚠ " + state.phrases.recordDeleted
            rows.append(Row([Span(deleted, TextStyle(bold: true, foreground: .error))]))
        }
        rows += detailLines(detail.record, state: state, width: width).dropFirst(detail.scroll).prefix(
            max(0, height - rows.count - 1))
        return rows
    }

    static func signIn(_ state: BrowserState, width: Int, height: Int) -> [Row] {
        let phrases = state.phrases
        let form = state.signIn
        var rows = [titleBar(phrases.signIn, width: width), Row()]
        rows.append(
            Row([
                Span("  \(TextWidth.fit(phrases.name, to: 12)) ", .muted),
                Span(form.name + (form.onPassword ? "" : "▏"), form.onPassword ? .plain : .bold),
            ]))
        rows.append(
            Row([
                Span("  \(TextWidth.fit(phrases.password, to: 12)) ", .muted),
                Span(
                    String(repeating: "•", count: form.password.count) + (form.onPassword ? "▏" : ""),
                    form.onPassword ? .bold : .plain),
            ]))
        rows.append(Row())
        if form.busy { rows.append(Row("  " + phrases.loading, .muted)) }
        if form.failed {
            rows.append(Row([Span("  " + phrases.wrongCredentials, TextStyle(bold: true, foreground: .error))]))
        }
        return rows
    }

    /// The bottom line: the message, else what the keys do here.
    static func status(_ state: BrowserState, width: Int) -> Row {
        if let message = state.message {
            let retry = message.canRetry ? "  Ctrl-R: \(state.phrases.retry)" : ""
            return Row(
                [
                    Span(
                        " " + (message.isError ? "⚠ " : "") + message.text,
                        TextStyle(bold: message.isError, foreground: message.isError ? .error : nil)),
                    Span(retry, .bold),
                ]
            ).fitted(to: width)
        }
        return Row(liveHint(state) + fitted(hints(state), width: width - liveWidth(state))).fitted(to: width)
    }

    /// `● live` while the open catalog's changes stream in, `○ reconnecting…` while the server
    /// is away (in the catalog's language); nothing offline.
    static func liveHint(_ state: BrowserState) -> [Span] {
        guard state.screen != .catalogs, state.screen != .signIn else { return [] }
        let phrases = state.phrases
        switch state.live {
        case .off: return []
        case .connecting: return [Span(" ○ \(phrases.connecting) ", .muted)]
        case .live: return [Span(" ● \(phrases.live) ", .bold)]
        case .disconnected:
            return [Span(" ○ \(phrases.reconnecting) ", TextStyle(bold: true, foreground: .error))]
        }
    }
}
