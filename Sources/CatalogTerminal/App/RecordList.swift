import CatalogClient

/// A scrolling list of records (a window of a catalog in index order, search results, a
/// category's records): the entries loaded so far, the cursors to load more on either side, the
/// selection and the first visible row.
struct RecordList: Equatable, Sendable {
    /// One row of the list.
    enum Entry: Equatable, Sendable {
        /// A section header (`A`, `CS`, `#`).
        case header(String)
        /// A record, with where a search matched it.
        case record(Record, matches: [MatchRange])

        var record: Record? {
            if case .record(let record, _) = self { return record }
            return nil
        }
    }

    var entries: [Entry] = []
    /// The selected entry (always a record when there is one).
    var selected = 0
    /// The first entry shown.
    var top = 0
    /// The cursor of the page before the first entry, nil at the start.
    var before: String?
    /// The cursor of the page after the last entry, nil at the end.
    var after: String?
    /// Whether section headers go between records of different sections.
    var sectioned = false
    /// Bumped whenever the list is replaced, so late pages of an older list are dropped.
    var generation = 0
    /// Whether a page on either side is being loaded.
    var loadingBefore = false
    var loadingAfter = false
    /// Whether the list has been loaded at all.
    var loaded = false
    /// The records of a search that matched only through a typo (``SearchHit/typo``): marked `≈`
    /// and set apart after a header (``similarHeader``), the way the web app shows them.
    var typoIDs: Set<String> = []
    /// The header before a search's first record that matched only through a typo ("Similar
    /// spelling"); nil: no header.
    var similarHeader: String?

    init(sectioned: Bool = false) {
        self.sectioned = sectioned
    }

    /// The selected record.
    var selectedRecord: Record? { entries.indices.contains(selected) ? entries[selected].record : nil }

    /// How many records are loaded.
    var recordCount: Int { entries.reduce(0) { $0 + ($1.record == nil ? 0 : 1) } }

    /// Replaces the entries with a first page; `typos`: which records matched only through a typo.
    mutating func replace(
        with records: [Record], matches: [[MatchRange]] = [], typos: [Bool] = [], before: String?, after: String?
    ) {
        generation += 1
        entries = []
        typoIDs = []
        append(records, matches: matches, typos: typos)
        self.before = before
        self.after = after
        loadingBefore = false
        loadingAfter = false
        loaded = true
        top = 0
        selected = entries.firstIndex { $0.record != nil } ?? 0
    }

    /// Adds a page after the last entry; `typos`: which records matched only through a typo.
    mutating func append(_ records: [Record], matches: [[MatchRange]] = [], typos: [Bool] = []) {
        var lastSection = entries.last(where: { $0.record != nil })?.record?.section
        for (index, record) in records.enumerated() {
            if sectioned, let section = record.section, section != lastSection {
                entries.append(.header(section))
                lastSection = section
            }
            if index < typos.count, typos[index] {
                // Typo matches come after every exact one: the header goes before the first.
                if typoIDs.isEmpty, let similarHeader { entries.append(.header(similarHeader)) }
                typoIDs.insert(record.id)
            }
            entries.append(.record(record, matches: index < matches.count ? matches[index] : []))
        }
    }

    /// Adds a page before the first entry, keeping the selection on the same record.
    mutating func prepend(_ records: [Record]) {
        var page = RecordList(sectioned: sectioned)
        page.append(records)
        // The header of the first loaded section is already there when the page ends in it.
        if sectioned, case .header(let first) = entries.first, page.entries.last?.record?.section == first {
            entries.removeFirst()
            selected -= 1
            top = max(0, top - 1)
        }
        entries = page.entries + entries
        selected += page.entries.count
        top += page.entries.count
    }

    /// Moves the selection by `step` records (negative: up), keeping it in the window of
    /// `height` rows.
    mutating func move(by step: Int, height: Int) {
        guard !entries.isEmpty else { return }
        var index = selected
        var remaining = abs(step)
        let direction = step < 0 ? -1 : 1
        while remaining > 0 {
            var next = index + direction
            while entries.indices.contains(next), entries[next].record == nil { next += direction }
            guard entries.indices.contains(next) else { break }
            index = next
            remaining -= 1
        }
        selected = index
        reveal(height: height)
    }

    /// Selects the first (or last) record loaded.
    mutating func selectEdge(last: Bool, height: Int) {
        let index = last ? entries.lastIndex { $0.record != nil } : entries.firstIndex { $0.record != nil }
        selected = index ?? 0
        top = last ? max(0, entries.count - height) : 0
        reveal(height: height)
    }

    /// Scrolls so the selection is visible (with its section header when it is the first row).
    mutating func reveal(height: Int) {
        let height = max(1, height)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        if top > 0, selected == top, case .header = entries[top - 1] { top -= 1 }
        top = max(0, min(top, max(0, entries.count - 1)))
    }

    /// Whether the selection is near the end of what is loaded, and more can be loaded there.
    func wantsMoreAfter(height: Int) -> Bool {
        after != nil && !loadingAfter && selected + height >= entries.count
    }

    /// Whether the selection is near the start, and more can be loaded before.
    func wantsMoreBefore(height: Int) -> Bool {
        before != nil && !loadingBefore && selected <= height
    }

    /// The section of the selected (or first visible) record.
    var currentSection: String? {
        selectedRecord?.section ?? entries.dropFirst(top).first(where: { $0.record != nil })?.record?.section
    }
}
