import CatalogClient

/// A list takes a catalog's live changes without jumping: a changed record is replaced where it
/// stands, a deleted one leaves (with a section header it leaves empty), a new one goes in where it
/// sorts. The selection stays on its record (on the row that takes a deleted one's place), and
/// the first visible record stays where it was on the screen.
extension RecordList {
    /// Whether record `id` is loaded.
    func contains(_ id: String) -> Bool {
        entries.contains { $0.record?.id == id }
    }

    /// Replaces the loaded record with `record`'s id where it stands (its search matches kept only
    /// when its title did not change); false when it is not loaded.
    @discardableResult
    mutating func update(_ record: Record) -> Bool {
        guard let index = entries.firstIndex(where: { $0.record?.id == record.id }),
            case .record(let old, let matches) = entries[index]
        else { return false }
        entries[index] = .record(record, matches: old.title == record.title ? matches : [])
        return true
    }

    /// Removes record `id`; false when it is not loaded.
    @discardableResult
    mutating func remove(_ id: String, height: Int) -> Bool {
        var rows = records
        guard let position = rows.firstIndex(where: { $0.record.id == id }) else { return false }
        rows.remove(at: position)
        let selectedID = selectedRecord?.id
        rebuild(rows, selecting: selectedID == id ? nil : selectedID, orAt: position, height: height)
        return true
    }

    /// Puts `record` (new to the list) in where it sorts: before the loaded record `nextID` (the
    /// catalog's record after it), or at the end for nil. Nothing happens when that place is not
    /// inside what is loaded (before the first record while there is more before it, after the
    /// last while there is more after it, or `nextID` not loaded): the pages loaded there later
    /// bring it. True when it went in.
    @discardableResult
    mutating func insert(_ record: Record, before nextID: String?, height: Int) -> Bool {
        guard !contains(record.id) else { return update(record) }
        var rows = records
        let position: Int
        if let nextID {
            guard let next = rows.firstIndex(where: { $0.record.id == nextID }), next > 0 || before == nil else {
                return false
            }
            position = next
        } else {
            guard after == nil else { return false }
            position = rows.count
        }
        rows.insert((record, []), at: position)
        rebuild(rows, selecting: selectedRecord?.id, orAt: position, height: height)
        return true
    }

    /// The loaded records with their matches, in order.
    private var records: [(record: Record, matches: [MatchRange])] {
        entries.compactMap { entry in
            if case .record(let record, let matches) = entry { return (record, matches) }
            return nil
        }
    }

    /// Lays the entries out again from `rows`: the selection on record `selectedID` (else on the
    /// record now at `position`, else the last), the first visible record at the same row.
    private mutating func rebuild(
        _ rows: [(record: Record, matches: [MatchRange])], selecting selectedID: String?, orAt position: Int,
        height: Int
    ) {
        // The first record on the screen, and how many rows (a header) stand above it there.
        let anchorIndex = entries.indices.dropFirst(top).first { entries[$0].record != nil }
        let anchorID = anchorIndex.flatMap { entries[$0].record?.id }
        let anchorOffset = anchorIndex.map { $0 - top } ?? 0
        let anchorRow = anchorIndex.map { index in entries[..<index].reduce(0) { $0 + ($1.record == nil ? 0 : 1) } }
        entries = []
        append(rows.map(\.record), matches: rows.map(\.matches))
        let recordRows = entries.indices.filter { entries[$0].record != nil }
        if let selectedID, let index = entries.firstIndex(where: { $0.record?.id == selectedID }) {
            selected = index
        } else if !recordRows.isEmpty {
            selected = recordRows[min(position, recordRows.count - 1)]
        } else {
            selected = 0
        }
        if let anchorID, let index = entries.firstIndex(where: { $0.record?.id == anchorID }) {
            top = max(0, index - anchorOffset)
        } else if let anchorRow, !recordRows.isEmpty {
            // The first visible record left: the one that took its place is first now.
            let index = recordRows[min(anchorRow, recordRows.count - 1)]
            top = max(0, index - anchorOffset)
        } else {
            top = min(top, max(0, entries.count - 1))
        }
        reveal(height: height)
    }
}
