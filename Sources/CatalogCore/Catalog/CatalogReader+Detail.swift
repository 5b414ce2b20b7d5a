import CatalogModel
import CatalogStorage

extension CatalogReader {
    /// A catalog as `GET /api/v1/catalogs/{id}` describes it (and an offline catalog too): its
    /// scopes' labels, the source's field order and every label of its index, and what an
    /// administrator may change of its definition (roles, types, labels, scopes, list options, visibility).
    public func detail(of catalog: StoredCatalog) -> CatalogDetail {
        let summary = catalog.summary
        let definition = catalog.definition
        return CatalogDetail(
            id: summary.id, title: summary.title, locale: summary.locale, count: summary.count,
            scopes: scopes(of: catalog).map(\.label), fields: definition.fieldOrder,
            sections: catalog.sectionLabels,
            roles: Dictionary(uniqueKeysWithValues: definition.mapping.map { ($0.key.rawValue, $0.value) }),
            types: definition.fieldTypes, labels: definition.fieldLabels, scopeDefinitions: definition.scopes,
            flatList: definition.flatList, rowTint: definition.rowTint, visibility: definition.visibility,
            description: definition.description, listFields: definition.searchSettings.listFields,
            detailFields: definition.searchSettings.detailFields)
    }
}
