import CatalogModel
import CatalogStorage

/// A record with what indexing it needs that depends on the record alone: its section, sort key,
/// stored form and content hash. An import makes these on its reading thread, beside the
/// indexing thread that numbers records and collects their terms (``CatalogIndexBuilder/add(_:counted:)``),
/// so the two stages share the work of a record more evenly.
public struct PreparedRecord: Sendable {
    /// The record as read.
    public let record: Record
    /// Its section's index in the collation's labels.
    let section: Int
    /// The collation key of its title.
    let sortKey: [UInt8]
    /// Its form in the builder's temporary file (``RecordBlob``).
    let blob: [UInt8]
    /// The content hash of its stored JSON.
    let hash: UInt64
    /// Its price as a number (NaN when it has none).
    let price: Double

    /// Prepares `record` for an index in `collation`'s order.
    ///
    /// - Parameter collation: used from the calling thread; ICU's collators and indexes may be
    ///   used from several threads at once.
    public init(_ record: Record, collation: any CatalogCollating) {
        self.record = record
        section = collation.section(for: record.title)
        sortKey = collation.sortKey(record.title)
        price = IndexedItem.price(record.price) ?? .nan
        let (stored, json) = CatalogIndexBuilder.stored(record, section: section, collation: collation)
        var blob: [UInt8] = []
        blob.reserveCapacity(json.count + 128)
        hash = RecordBlob.write(record: stored, json: json, to: &blob)
        self.blob = blob
    }
}
