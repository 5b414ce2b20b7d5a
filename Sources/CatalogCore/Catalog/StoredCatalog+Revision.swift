import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

extension StoredCatalog {
    /// Names this state of the catalog: it changes whenever its records do (a new version), its
    /// definition, its collation, its counts or its labels do, so everything
    /// `GET /api/v1/catalogs/{id}` shows of it is the same for one revision. The route's strong
    /// `ETag` is it in quotes, and a change made against a revision (`If-Match`) is refused once
    /// the catalog has another (``CatalogManagement``).
    ///
    /// 32 lowercase hexadecimal digits (``ContentDigest``).
    public var revision: String {
        var digest = ContentDigest()
        digest.update(field: "catalog-revision-v1")
        for part in [versionKey, collationVersion, summary.id, summary.title, summary.locale, String(summary.count)] {
            digest.update(field: part)
        }
        for label in sectionLabels { digest.update(field: label) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A definition and its categories are strings, numbers and lists of them: they encode.
        digest.update(Array((try? encoder.encode(definition)) ?? Data()))
        digest.update(Array((try? encoder.encode(categories)) ?? Data()))
        return digest.finalized()
    }
}
