import CatalogModel
import CatalogStorage

extension CatalogManagement {
    /// Builds catalog `id`'s index again from its stored records as they are, in one write
    /// transaction (readers keep the previous version until it commits): for an index an earlier
    /// version of this program built without something the search now reads (the values of every
    /// field, ``SearchBlobs/fieldTerms``). A catalog without records is left as it is.
    ///
    /// - Throws: ``StorageError`` `.catalogNotFound`, or what the engine throws.
    public func rebuildIndex(_ id: String, in database: any CatalogDatabase) throws {
        try database.write { writer in
            let current = try Self.current(id, reader: writer.reader, revisions: nil)
            guard current.summary.count > 0 else { return }
            try rebuild(current, as: current.definition, writer: writer, isCancelled: { false }) { builder in
                try Self.addStoredRecords(of: current, reader: writer.reader, to: builder, { false })
            }
        }
    }
}
