// The code of the documentation's walkthroughs, compiled with the package so it stays true.
// Each `// sample: NAME` … `// end` region is quoted word for word by a code block of
// Sources/CatalogClient/CatalogClient.docc (CatalogClientTests.DocumentationSamplesTests checks).
// Nothing here runs: the functions exist to be compiled.

import CatalogClient
import Foundation

enum GettingStartedSamples {
    static func connect() async throws {
        // sample: connect
        let client = CatalogClient(baseURL: URL(string: "http://localhost:8080")!)
        let catalogs = try await client.catalogs()
        for catalog in catalogs {
            print(catalog.title, catalog.count)
        }
        // end
    }

    static func describe() async throws {
        // sample: describe
        let client = CatalogClient(baseURL: URL(string: "http://localhost:8080")!)
        let products = try await client.catalog("products")
        print(products.title, products.locale, products.scopes)
        // end
    }

    static func pages(client: CatalogClient) async throws {
        // sample: pages
        var page = try await client.items(of: "products", limit: 50)
        while let next = page.next {
            page = try await client.items(of: "products", after: next, limit: 50)
        }
        // end
        // sample: all-items
        var count = 0
        for try await record in client.allItems(of: "products") {
            count += record.price == nil ? 0 : 1
        }
        // end
        _ = count
    }

    static func search(client: CatalogClient) async throws {
        // sample: search
        var request = SearchRequest(query: "lamp")
        request.countries = ["DE", "AT"]
        request.facets = [.categories]
        let response = try await client.search(request, in: "products")
        for hit in response.items {
            print(hit.record.title, hit.matches.map(\.field))
        }
        // end
    }

    static func errors(client: CatalogClient) async {
        // sample: errors
        do {
            _ = try await client.item("nope", of: "products")
        } catch let error where error.code == .notFound {
            print("no such product")
        } catch let error where error.isConnectivity {
            print("offline:", error.message)
        } catch {
            print(error.message)
        }
        // end
    }
}
