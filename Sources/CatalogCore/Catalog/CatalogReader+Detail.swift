import CatalogModel
import CatalogStorage

extension CatalogReader {
    /// A catalog as `GET /api/v1/catalogs/{id}` describes it (and an offline catalog too): its
    /// scopes' labels, the source's field order and every label of its index.
    public func detail(of catalog: StoredCatalog) -> CatalogDetail {
        let summary = catalog.summary
        return CatalogDetail(
            id: summary.id, title: summary.title, locale: summary.locale, count: summary.count,
            scopes: scopes(of: catalog).map(\.label), fields: catalog.definition.fieldOrder,
            sections: catalog.sectionLabels)
    }
}
