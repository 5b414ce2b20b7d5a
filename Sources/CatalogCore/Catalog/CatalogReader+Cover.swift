import CatalogModel
import CatalogStorage
import Foundation

extension CatalogLimits {
    /// The most featured records, and the most records in index order, looked at for a catalog's
    /// cover picture (``CatalogReader/coverImage(of:)``).
    public static let coverScan = 200
    /// Records per read while looking for a cover picture.
    static let coverPage = 50
}

extension CatalogReader {
    /// The picture that stands for a catalog (its card on the home page): the image of its first
    /// featured record that has one (by rank), else of its first record in index order that has
    /// one, else nil.
    ///
    /// It reads at most ``CatalogLimits/coverScan`` featured records and as many in index order,
    /// by index, so a catalog of a million records without pictures costs no more than a small
    /// one; a picture further down is not found. The answer only changes with the catalog's
    /// version (``StoredCatalog/versionKey``), which is what a server's cache of it keys on.
    ///
    /// ```swift
    /// let image = try reader.coverImage(of: catalog)  // "/images/demo/products/p001.svg"
    /// ```
    ///
    /// - Returns: the record's image as it stores it (an image-store path or a URL), or nil.
    /// - Throws: ``StorageError`` when the catalog cannot be read.
    public func coverImage(of catalog: StoredCatalog) throws -> String? {
        for hit in try featured(of: catalog, limit: CatalogLimits.coverScan) {
            if let image = try Self.image(of: hit) { return image }
        }
        var bound: BrowseBound?
        var read = 0
        while read < CatalogLimits.coverScan {
            let limit = min(CatalogLimits.coverPage, CatalogLimits.coverScan - read)
            let chunk = try page(of: catalog, selection: .all, from: bound, limit: limit)
            for hit in chunk.items {
                if let image = try Self.image(of: hit) { return image }
            }
            read += chunk.items.count
            guard chunk.hasMore, let last = chunk.items.last, let key = last.key else { break }
            bound = .after(key)
        }
        return nil
    }

    /// The image of a stored record, when it has one that is not blank.
    private static func image(of hit: StoredHit) throws -> String? {
        guard let image = try hit.record().image?.trimmingCharacters(in: .whitespaces), !image.isEmpty else {
            return nil
        }
        return image
    }
}
