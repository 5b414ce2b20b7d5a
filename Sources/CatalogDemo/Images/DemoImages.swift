import CatalogModel

/// The demo catalogs' pictures: small SVG documents we draw ourselves, generated from the same
/// data as the catalogs so every image path a record or category carries has a file here.
///
/// Every document has a `viewBox`, no scripts and no external references, and stays under 1.5 KB.
///
/// ```swift
/// let svg = DemoImages.files["flags/de.svg"]!   // served at /images/demo/flags/de.svg
/// ```
public enum DemoImages {
    /// SVG documents by path relative to /images/demo/ (e.g. "products/p001.svg", "recipes/r01.svg", "categories/1.svg", "flags/de.svg").
    public static let files: [String: String] = {
        var files: [String: String] = [:]
        for (index, product) in DemoProduct.all.enumerated() {
            files["products/\(product.id).svg"] = SVGPictogram.product(
                initial: product.name.first.map(String.init) ?? "?",
                category: product.categories.first ?? "",
                colorIndex: index
            )
        }
        for (index, recipe) in DemoRecipe.all.enumerated() {
            let category = DemoRecipe.categories.first { $0.name == recipe.categories.first }?.id ?? 0
            files["recipes/\(recipe.id).svg"] = SVGPictogram.dish(category: category, colorIndex: index)
        }
        for category in DemoRecipe.categories {
            files["categories/\(category.id).svg"] = SVGPictogram.category(category.id)
        }
        for country in Set(DemoProduct.all.map(\.country)) {
            let code = country.lowercased()
            files["flags/\(code).svg"] = SVGFlag.svg(for: code)
        }
        return files
    }()

    /// The flag of any assigned ISO 3166-1 alpha-2 country (``CountryCode/isAssigned``): drawn
    /// for the countries of plain shapes, a badge with the code for the others; nil when `code`
    /// (any case) is not an assigned code.
    public static func flag(_ code: String) -> String? {
        guard let country = CountryCode(code), country.isAssigned else { return nil }
        return SVGFlag.svg(for: country.text.lowercased())
    }
}
