import CatalogModel

extension DemoCatalogs {
    /// The English corporate product catalog: a JSON object `{"products": [...]}` with forty
    /// invented products.
    static let products = DemoCatalog(
        definition: productsDefinition,
        format: .json,
        source: productsJSON,
        recordPath: "products"
    )

    /// Labels for the products' extra fields.
    private static var productsDefinition: CatalogDefinition {
        var definition = CatalogDefinition(
            id: "products",
            title: "Products",
            locale: "en",
            mapping: [.title: "name", .subtitle: "manufacturer", .description: "details", .categories: "category"],
            categories: DemoProduct.categoryNames.enumerated().map { CategoryInfo(id: $0.offset + 1, name: $0.element) }
        )
        definition.fieldLabels = [
            "sku": ["en": "Item number", "de": "Artikelnummer", "hu": "Cikkszám"],
            "weight": ["en": "Weight", "de": "Gewicht", "hu": "Tömeg"],
        ]
        definition.description =
            "Tools, kitchenware and garden goods from makers in many countries, with prices, stock and origin."
        return definition
    }

    /// The JSON source: one product per line; `category` is a string, or an array when a product
    /// has several; `weight` is missing for a few.
    private static var productsJSON: String {
        let elements = DemoProduct.all.map { product in
            var members: [(String, String)] = [
                ("id", JSONText.quoted(product.id)),
                ("name", JSONText.quoted(product.name)),
                ("manufacturer", JSONText.quoted(product.manufacturer)),
                ("details", JSONText.quoted(product.details)),
                ("price", product.price),
                ("currency", JSONText.quoted(product.currency)),
                ("quantity", String(product.quantity)),
                ("country", JSONText.quoted(product.country)),
                ("image", JSONText.quoted(product.image)),
                (
                    "category",
                    product.categories.count == 1
                        ? JSONText.quoted(product.categories[0]) : JSONText.array(product.categories)
                ),
                ("sku", JSONText.quoted(product.sku)),
            ]
            if let weight = product.weight { members.append(("weight", JSONText.quoted(weight))) }
            return JSONText.object(members)
        }
        return JSONText.document(key: "products", elements: elements)
    }
}
