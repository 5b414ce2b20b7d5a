import CatalogClient
import Foundation

/// The corporate product catalog: alphabetical sections with headers, an index rail that jumps
/// to a section, rows with a thumbnail, the manufacturer, the price and a flag.
enum ProductsSamples {
    static func sections(client: CatalogClient) async throws {
        // sample: product-sections
        let catalog = try await client.catalog("products")
        // The rail shows every label of the locale's index; headers only the non-empty sections.
        let rail = catalog.sections
        let headers = try await client.sections(of: catalog.id).map(\.label)
        print(rail, headers)
        // end
    }

    static func jump(client: CatalogClient) async throws {
        // sample: product-jump
        // A tap on "M" in the rail: the page starting at M (or the next non-empty section).
        let page = try await client.items(of: "products", startingAt: "M", limit: 50)
        let upward = page.previous  // scrolling up from there loads the page before
        print(page.items.first?.section ?? "-", upward != nil)
        // end
    }

    // sample: product-row
    /// One row: thumbnail path, name, manufacturer, price and the flag of the country of origin.
    struct ProductRow: Sendable {
        let name: String
        let manufacturer: String
        let price: String
        let flag: String
        let image: String?

        init(_ record: Record) {
            name = record.title
            manufacturer = record.subtitle ?? ""
            price = record.price.map { "\($0) \(record.currency ?? "")" } ?? ""
            // `DE` → 🇩🇪: regional indicator letters, for a valid code.
            flag = record.country.flatMap { CountryCode($0) }?.flagEmoji ?? ""
            image = record.image
        }
    }
    // end

    static func thumbnail(client: CatalogClient, row: ProductRow) async throws {
        // sample: product-thumbnail
        // 40×40 points on a 2× screen: an 80-pixel thumbnail, loaded once however many rows ask.
        if let image = row.image {
            let bytes = try await client.image(for: image, size: 80)
            print(bytes.count)
        }
        // end
    }
}
