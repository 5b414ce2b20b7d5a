import CatalogCore
import CatalogStorage
import Synchronization

/// The home page's catalog pictures (``CatalogReader/coverImage(of:)``), kept per catalog
/// version: a catalog's picture is looked for once after each import or change, not on every
/// visit. Shared by the requests of one server; a lookup that two requests make at once is
/// simply made twice.
final class CatalogCovers: Sendable {
    /// Catalogs remembered at most; beyond, the memory starts again (deleted catalogs' entries go).
    static let maxEntries = 4096

    private struct Entry {
        var versionKey: String
        var image: String?
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The picture of `catalog`, looked for in `reader` unless known for its version.
    func image(of catalog: StoredCatalog, in reader: any CatalogReader) throws -> String? {
        if let entry = entries.withLock({ $0[catalog.id] }), entry.versionKey == catalog.versionKey {
            return entry.image
        }
        let image = try reader.coverImage(of: catalog)
        entries.withLock { entries in
            if entries.count >= Self.maxEntries, entries[catalog.id] == nil { entries.removeAll() }
            entries[catalog.id] = Entry(versionKey: catalog.versionKey, image: image)
        }
        return image
    }
}
