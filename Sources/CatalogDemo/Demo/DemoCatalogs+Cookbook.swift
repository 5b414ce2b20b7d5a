import CatalogModel

extension DemoCatalogs {
    /// The Hungarian cookbook: a JSON object `{"recipes": [...]}` with thirty-two recipes in eight
    /// categories; six are "hot" (featured).
    static let cookbook = DemoCatalog(
        definition: cookbookDefinition,
        format: .json,
        source: cookbookJSON,
        recordPath: "recipes"
    )

    /// The cookbook's own label for a recipe's time, in the languages it is read in.
    private static var cookbookDefinition: CatalogDefinition {
        var definition = CatalogDefinition(
            id: "cookbook",
            title: "Szakácskönyv",
            locale: "hu",
            mapping: [.image: "imageurl", .featured: "hot"],
            categories: DemoRecipe.categories.map {
                CategoryInfo(id: $0.id, name: $0.name, image: DemoRecipe.categoryImage($0.id))
            }
        )
        definition.fieldLabels = [
            "complexity": ["hu": "Elkészítési idő", "en": "Preparation time", "de": "Zubereitungszeit"]
        ]
        definition.schemaType = "Recipe"
        definition.description =
            "Otthoni receptek levesektől a desszertekig, elkészítési idővel és kiemelt ajánlatokkal."
        return definition
    }

    /// The JSON source: one recipe per line, `categories` always an array, `hot` a boolean.
    private static var cookbookJSON: String {
        let elements = DemoRecipe.all.map { recipe in
            JSONText.object([
                ("id", JSONText.quoted(recipe.id)),
                ("title", JSONText.quoted(recipe.title)),
                ("subtitle", JSONText.quoted(recipe.subtitle)),
                ("description", JSONText.quoted(recipe.description)),
                ("complexity", JSONText.quoted(recipe.complexity)),
                ("imageurl", JSONText.quoted(recipe.image)),
                ("categories", JSONText.array(recipe.categories)),
                ("hot", recipe.hot ? "true" : "false"),
            ])
        }
        return JSONText.document(key: "recipes", elements: elements)
    }
}
