import CatalogClient

/// The open catalog's live changes (``Browser`` follows them with `CatalogClient.changes(of:since:)`):
/// every loaded list and the detail page take them where they stand.
extension BrowserState {
    /// Whether the open catalog's changes are followed, and how that goes (the status line's hint).
    enum Live: Equatable, Sendable {
        /// Not followed: an offline snapshot, or no catalog open.
        case off
        /// Following started; the server has not answered yet.
        case connecting
        /// The server streams the changes.
        case live
        /// The server cannot be reached; following resumes by itself.
        case disconnected
    }

    /// Applies an upsert or a delete of the open catalog to every loaded list and to the detail
    /// page, keeping each list's selection and scroll (rows `height` high).
    ///
    /// - Returns: whether the main list should place the record, which it has not loaded (a new
    ///   record, or one it had not reached): ``place(_:before:height:)`` does, once the browser
    ///   knows the record that follows it in the catalog.
    mutating func apply(_ change: CatalogChange, height: Int) -> Bool {
        switch change.kind {
        case .upsert:
            guard let record = change.record else { return false }
            forEachList { list in list.update(record) }
            if detail?.record.id == record.id {
                detail?.record = record
                detail?.deleted = false
            }
            return list.loaded && !list.contains(record.id)
        case .delete:
            guard let id = change.id else { return false }
            forEachList { list in list.remove(id, height: height) }
            if detail?.record.id == id { detail?.deleted = true }
            return false
        case .definition, .reload:
            return false
        }
    }

    /// Puts a record the main list has not loaded in where it sorts (before `nextID`, the
    /// catalog's record after it; nil at the end), when that is inside the loaded window.
    mutating func place(_ record: Record, before nextID: String?, height: Int) {
        list.insert(record, before: nextID, height: height)
    }

    /// Runs `body` on every list that holds records: the main list, the featured, a category's,
    /// the favorites, and the search results (open or kept for later).
    private mutating func forEachList(_ body: (inout RecordList) -> Void) {
        body(&list)
        body(&hot)
        body(&categoryItems)
        body(&favorites)
        if search != nil { body(&search!.results) }
        if lastSearch != nil { body(&lastSearch!.results) }
    }
}
