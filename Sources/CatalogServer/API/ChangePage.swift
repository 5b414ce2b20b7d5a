import CatalogCore
import CatalogModel
import CatalogStorage

/// A page of a catalog's change log, as `GET /api/v1/catalogs/{id}/changes?since=N` answers and
/// the event stream sends it: `{"change","changes":[…],"next","reload"}`.
///
/// - `change`: the catalog's change number now;
/// - `changes`: the changes after `since`, oldest first: `{"number","kind","id","record","time"}`
///   (`kind` is `upsert` with the record as the API serves it, `delete`, `definition` or
///   `reload`) and `cursor`: for an upsert, the record's place in index order spelled as a
///   browse cursor (``BrowseCursor``: section, collation key, id), when the server's collator is
///   the one the catalog was sorted with (null otherwise, and for other kinds). A client that keeps a copy of the catalog files the
///   record where the server did without a collator of its own (the client library's offline
///   catalogs have none), and a list on screen can place it (`items?after=` it is the page after
///   it);
/// - `next`: the `since` of the next page, null when this page reached the current change;
/// - `reload`: true when the log cannot bring the client up to date (`since` is older than the
///   log keeps, or newer than the catalog: it was deleted and made again): the client reads the
///   catalog again from the start;
/// - `filtered`: true when the page leaves changes out (an API key's record filter: the changes
///   of records it does not see), so that numbers may skip and `change` may be later than the
///   last change, which a copy of the key's records follows without reading it again.
///
/// Who made a change is not shown here; a record's history (`…/items/{item}/history`) shows it to
/// those who may change the catalog.
struct ChangePage: JSONWritable {
    var current: Int
    var changes: [StoredChange]
    var next: Int?
    var reload: Bool
    var filtered = false
    /// The browse cursors of the upserts' records, by change number (``place(with:sortedWith:)``).
    var cursors: [Int: String] = [:]

    /// The page after `since`; with `filter` (an API key's), only the changes someone who sees
    /// the records it passes sees (``RecordFilter/seen(_:)``: a record that leaves the filter is a
    /// deletion), while `next` still follows the whole log.
    static func read(
        _ catalog: StoredCatalog, since: Int, limit: Int, reader: any CatalogReader, filter: RecordFilter? = nil
    ) throws -> ChangePage {
        guard since <= catalog.change else {
            return ChangePage(current: catalog.change, changes: [], next: nil, reload: true)
        }
        // The log must hold every change after `since`: the one right after it at least.
        if since < catalog.change, (try reader.oldestChange(of: catalog)).map({ since < $0 - 1 }) ?? true {
            return ChangePage(current: catalog.change, changes: [], next: nil, reload: true)
        }
        let changes = try reader.changes(of: catalog, since: since, limit: limit)
        let last = changes.last?.number ?? since
        return ChangePage(
            current: catalog.change, changes: filter.map { changes.compactMap($0.seen) } ?? changes,
            next: last < catalog.change ? last : nil, reload: changes.contains { $0.kind == .reload },
            filtered: filter != nil)
    }

    /// The page with ``cursors`` filled by a collator of `catalog`'s locale from `collations`,
    /// when it has upserts. Without a collator of the locale (or of the catalog's version) the
    /// page goes without cursors: a copy of the catalog is then read again from the start.
    func placed(using collations: CollationCache, for catalog: StoredCatalog) -> ChangePage {
        guard changes.contains(where: { $0.kind == .upsert }) else { return self }
        var page = self
        try? collations.with(catalog.definition.locale) { collation in
            page.place(with: collation, sortedWith: catalog.collationVersion)
        }
        return page
    }

    /// Fills ``cursors`` with `collation`, provided it is `version`, the one the catalog was sorted
    /// with (its keys would file records elsewhere otherwise; such a catalog cannot change before
    /// it is imported again anyway).
    mutating func place(with collation: any CatalogCollating, sortedWith version: String) {
        guard collation.version == version else { return }
        for change in changes where change.kind == .upsert {
            guard let json = change.record, let record = try? Record(json: json) else { continue }
            cursors[change.number] = BrowseCursor.encode(
                BrowseKey(
                    section: collation.section(for: record.title), sortKey: collation.sortKey(record.title),
                    id: record.id))
        }
    }

    func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("change", current)
            object.member("changes") { output in
                output.array(changes) { output, change in
                    Self.write(change, withPrevious: false, cursor: cursors[change.number], to: &output)
                }
            }
            object.integer("next", next)
            object.boolean("reload", reload)
            object.boolean("filtered", filtered)
        }
    }

    /// One change: `{"actor"?,"cursor"?,"id","kind","number","previous"?,"record","time"}` (who
    /// made it and the record before it only in a record's history; `cursor` only in the feed,
    /// null but for an upsert with one).
    static func write(_ change: StoredChange, withPrevious: Bool, cursor: String? = nil, to output: inout JSONOutput) {
        output.object { object in
            if withPrevious { object.string("actor", change.actor) }
            if !withPrevious { object.string("cursor", cursor) }
            object.string("id", change.item)
            object.string("kind", change.kind.rawValue)
            object.integer("number", change.number)
            if withPrevious {
                object.member("previous") { output in
                    if let previous = change.previous { output.append(json: previous) } else { output.raw("null") }
                }
            }
            object.member("record") { output in
                if let record = change.record { output.append(json: record) } else { output.raw("null") }
            }
            object.string("time", change.time)
        }
    }
}
