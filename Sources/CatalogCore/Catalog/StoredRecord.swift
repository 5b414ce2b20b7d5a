import CatalogModel
import CatalogStorage
import Foundation

/// Records as engines store them: the JSON the API serves (``Record`` written with
/// ``JSONOutput``), decoded back into a ``Record`` when a page or a command needs its fields.
public enum StoredRecord {
    /// The stored JSON of `record`.
    public static func encode(_ record: Record) -> [UInt8] {
        var output = JSONOutput(capacity: 512)
        record.write(to: &output)
        return output.bytes
    }

    /// Decodes stored JSON with CatalogModel's record reader, which keeps number literals exactly
    /// (`JSONDecoder` would turn `1.50` into `1.5`) and builds no value tree.
    ///
    /// - Throws: ``StorageError`` `.engine` when the stored bytes are not a record (damaged data).
    public static func decode(_ json: [UInt8]) throws(StorageError) -> Record {
        do {
            return try Record(json: json)
        } catch {
            throw StorageError(.engine, "a stored record is damaged")
        }
    }
}

extension StoredHit {
    /// The record, decoded from its JSON.
    public func record() throws(StorageError) -> Record {
        try StoredRecord.decode(json)
    }
}
