import CatalogCollation
import CatalogCore

extension CatalogManagement {
    /// Management with ICU's collations, accepting for new and changed catalogs the locales whose
    /// language ICU has data for: what the API and the command line use.
    public static var withICU: CatalogManagement {
        CatalogManagement(
            collation: { try ICUCollation.forImport(locale: $0) },
            localeProblem: { ICUCollation.problem(knownLocale: $0) })
    }
}
