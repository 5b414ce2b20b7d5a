import CatalogClient
import Foundation

/// The cookbook: Hot, Categories (→ recipes → recipe) and Favorites, with images.
enum CookbookSamples {
    static func tabs(client: CatalogClient) async throws {
        // sample: cookbook-tabs
        let hot = try await client.featured(of: "cookbook", limit: 20)
        let categories = try await client.categories(of: "cookbook")
        if let soups = categories.first {
            let recipes = try await client.items(of: "cookbook", category: soups.name, limit: 100)
            print(soups.name, soups.count, recipes.items.map(\.title))
        }
        print(hot.map(\.title))
        // end
    }

    static func recipe(client: CatalogClient) async throws {
        // sample: cookbook-recipe
        let recipe = try await client.item("r01", of: "cookbook")
        let time = recipe.fields["complexity"]?.joined ?? ""  // "30 perc"
        print(recipe.title, recipe.subtitle ?? "", time)
        // end
    }

    static func favorites(client: CatalogClient) async throws {
        // sample: cookbook-favorites
        try await client.signIn(name: "mari", password: "…")
        try await client.addFavorite("r01", in: "cookbook")
        let favorites = try await client.favorites()
        print(favorites.compactMap(\.record?.title))
        try await client.removeFavorite("r01", in: "cookbook")
        // end
    }

    static func original(client: CatalogClient) async throws {
        // sample: cookbook-original
        // The original endpoints, answered exactly as the old app expects them:
        let hots = try await client.hots()
        let categories = try await client.compatCategories()
        let soups = try await client.recipes(inCategory: categories.first?.catid ?? 1)
        print(hots.count, soups.map(\.title))
        // end
    }
}
