import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// Stores and removes a record's image (``StoredImage``), the same on every engine and for the
/// API, the web editor and the command line: the image and the record's `image` field change in
/// one write transaction, and the record's change is an ordinary one (``CatalogEditor``), with a
/// change number, a history entry and a new ETag.
public enum StoredImageEditor {
    /// Stores `image` as the image of record `item` of catalog `catalog` and points the record's
    /// `image` field at it (``StoredImageLocation``). The image stored before, if any, goes.
    ///
    /// - Parameter precondition: what the record must be before (`If-Match`).
    /// - Returns: the change and where the image is served.
    /// - Throws: ``EditFailure`` (`.notFound` without the record, or a failed precondition),
    ///   ``StorageError`` `.catalogNotFound`.
    public static func put(
        _ image: PreparedImage, of item: String, in catalog: String, database: any CatalogDatabase,
        collation: any CatalogCollating, precondition: EditPrecondition = .any, actor: String? = nil,
        now: Date = Date()
    ) throws -> (outcome: EditOutcome, location: StoredImageLocation) {
        let hash = ContentDigest.hex(of: image.bytes)
        guard
            let location = StoredImageLocation(
                catalog: catalog, item: item, hash: hash, contentType: image.contentType)
        else {
            throw StorageError(.invalidArgument, "images are not stored as \(image.contentType)")
        }
        let outcome = try database.write { writer in
            var record = try current(item, of: catalog, reader: writer.reader)
            record.image = location.path
            let outcome = try CatalogEditor.apply(
                [RecordEdit(.upsert(record), precondition: precondition)], to: catalog, writer: writer,
                collation: collation, actor: actor, now: now)
            try writer.storeImage(
                StoredImage(
                    catalog: catalog, item: item, bytes: image.bytes, contentType: image.contentType,
                    width: image.width, height: image.height, hash: hash,
                    storedAt: ISO8601DateFormatter.changeLog.string(from: now)))
            return outcome
        }
        return (outcome, location)
    }

    /// Removes the stored image of record `item` and clears the record's `image` field.
    ///
    /// - Returns: the change, or nil when the record has no stored image (nothing changed).
    /// - Throws: ``EditFailure`` (`.notFound` without the record, or a failed precondition),
    ///   ``StorageError`` `.catalogNotFound`.
    public static func remove(
        of item: String, in catalog: String, database: any CatalogDatabase, collation: any CatalogCollating,
        precondition: EditPrecondition = .any, actor: String? = nil, now: Date = Date()
    ) throws -> EditOutcome? {
        try database.write { writer in
            var record = try current(item, of: catalog, reader: writer.reader)
            guard CatalogEditor.storedImageHash(record.image, catalog: catalog, item: item) != nil else {
                // An image stored for a record that no longer names it is of no use to anyone.
                _ = try writer.removeStoredImage(of: catalog, item: item, keeping: nil)
                return nil
            }
            record.image = nil
            return try CatalogEditor.apply(
                [RecordEdit(.upsert(record), precondition: precondition)], to: catalog, writer: writer,
                collation: collation, actor: actor, now: now)
        }
    }

    /// After an import wrote catalog `id` anew, inside its transaction: removes the stored images
    /// its records no longer name, as a change that names another image removes one
    /// (``CatalogEditor/storedImageHash(_:catalog:item:)``).
    static func removeUnnamed(of id: String, writer: any CatalogWriter) throws {
        guard let catalog = try writer.reader.catalog(id) else { return }
        var unnamed: [String] = []
        try writer.reader.forEachStoredImage(of: id) { image in
            let record = try writer.reader.item(of: catalog, id: image.item)?.record()
            if CatalogEditor.storedImageHash(record?.image, catalog: id, item: image.item) != image.hash {
                unnamed.append(image.item)
            }
        }
        for item in unnamed { _ = try writer.removeStoredImage(of: id, item: item, keeping: nil) }
    }

    /// The record as it is, in the write transaction.
    private static func current(_ item: String, of catalog: String, reader: any CatalogReader) throws -> Record {
        guard let stored = try reader.catalog(catalog) else {
            throw StorageError(.catalogNotFound, "no catalog named \"\(catalog.prefix(80))\"")
        }
        guard let hit = try reader.item(of: stored, id: item) else {
            throw EditFailure(position: 0, id: item, reason: .notFound)
        }
        return try hit.record()
    }
}
