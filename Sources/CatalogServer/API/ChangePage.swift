import CatalogCore
import CatalogModel
import CatalogStorage

/// A page of a catalog's change log, as `GET /api/v1/catalogs/{id}/changes?since=N` answers and
/// the event stream sends it: `{"change","changes":[…],"next","reload"}`.
///
/// - `change`: the catalog's change number now;
/// - `changes`: the changes after `since`, oldest first: `{"number","kind","id","record","time"}`
///   (`kind` is `upsert` with the record as the API serves it, `delete`, `definition` or
///   `reload`);
/// - `next`: the `since` of the next page, null when this page reached the current change;
/// - `reload`: true when the log cannot bring the client up to date (`since` is older than the
///   log keeps, or newer than the catalog: it was deleted and made again): the client reads the
///   catalog again from the start.
///
/// Who made a change is not shown here; a record's history (`…/items/{item}/history`) shows it to
/// those who may change the catalog.
struct ChangePage: JSONWritable {
    var current: Int
    var changes: [StoredChange]
    var next: Int?
    var reload: Bool

    /// The page after `since`.
    static func read(_ catalog: StoredCatalog, since: Int, limit: Int, reader: any CatalogReader) throws -> ChangePage {
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
            current: catalog.change, changes: changes, next: last < catalog.change ? last : nil,
            reload: changes.contains { $0.kind == .reload })
    }

    func write(to output: inout JSONOutput) {
        output.object { object in
            object.integer("change", current)
            object.member("changes") { output in
                output.array(changes) { output, change in Self.write(change, withPrevious: false, to: &output) }
            }
            object.integer("next", next)
            object.boolean("reload", reload)
        }
    }

    /// One change: `{"actor"?,"id","kind","number","previous"?,"record","time"}` (who made it and
    /// the record before it only in a record's history).
    static func write(_ change: StoredChange, withPrevious: Bool, to output: inout JSONOutput) {
        output.object { object in
            if withPrevious { object.string("actor", change.actor) }
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
