import CatalogClient
import CatalogHTTP
import CatalogTestSupport
import Foundation
import Testing

/// Every client method against a live server on loopback. Where the server writes its JSON by
/// hand, the decoded model value written again must be the server's exact bytes: the client's
/// types hold everything the server sends.
@Suite struct ClientEndpointTests {
    let live: LiveServer
    let client: CatalogClient
    let raw: RawClient

    init() throws {
        live = try LiveServer()
        client = live.client()
        raw = RawClient(port: live.server.port)
    }

    /// The server's body for `path`, as sent.
    func serverBytes(_ path: String, token: String? = nil) throws -> [UInt8] {
        let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        let reply = try raw.request("GET", path, headers: headers)
        #expect(reply.status == 200, "\(path): \(reply.text)")
        return reply.body
    }

    @Test func catalogsAndDetails() async throws {
        let catalogs = try await client.catalogs()
        #expect(catalogs.map(\.id) == ["cookbook", "products", "sequencers"])
        #expect(try CatalogList(catalogs: catalogs).jsonOfList == serverBytes("/api/v1/catalogs"))
        let sequencers = try await client.catalog("sequencers")
        #expect(sequencers.scopes == ["Alle", "Windows", "Apple", "Apple&Win"])
        #expect(sequencers.locale == "de")
        let detail = try JSONSerialization.jsonObject(with: Data(serverBytes("/api/v1/catalogs/sequencers")))
        // The nine keys a client draws its screens with (listFields and detailFields among them),
        // and the eight of the definition an administrator may change (description, roles, types,
        // labels, scopeDefinitions, flatList, rowTint, visibility).
        #expect((detail as? [String: Any])?.count == 17)
        #expect((detail as? [String: Any])?["visibility"] as? String == "public")
        #expect(sequencers.description?.hasPrefix("Programme zum Aufnehmen") == true)
        #expect(catalogs.first { $0.id == "products" }?.description?.hasPrefix("Tools, kitchenware") == true)
        #expect(
            try CatalogJSONDecoder().decode(CatalogDetail.self, from: serverBytes("/api/v1/catalogs/sequencers"))
                == sequencers)
        let cookbook = try await client.catalog("cookbook")
        #expect(cookbook.sections.contains("CS"))
    }

    @Test func sectionsPagesAndCursors() async throws {
        let sections = try await client.sections(of: "cookbook")
        #expect(sections.map(\.label).contains("CS"))
        #expect(try SectionList(sections: sections).jsonOfList == serverBytes("/api/v1/catalogs/cookbook/sections"))
        var ids: [String] = []
        var page = try await client.items(of: "products", limit: 7)
        #expect(page.jsonBytes == (try serverBytes("/api/v1/catalogs/products/items?limit=7")))
        ids += page.items.map(\.id)
        while let next = page.next {
            page = try await client.items(of: "products", after: next, limit: 7)
            ids += page.items.map(\.id)
        }
        #expect(ids.count == 40 && Set(ids).count == 40)
        let back = try await client.items(of: "products", before: try #require(page.previous), limit: 7)
        #expect(back.items.last.map(\.id) == ids[ids.count - page.items.count - 1])
        let section = try await client.items(of: "cookbook", section: "CS", limit: 50)
        #expect(!section.items.isEmpty && section.items.allSatisfy { $0.section == "CS" })
        let jump = try await client.items(of: "cookbook", startingAt: "GY", limit: 3)
        #expect(jump.items.first?.section == "GY" && jump.previous != nil)
        var all: [String] = []
        for try await record in client.allItems(of: "products", pageSize: 9) { all.append(record.id) }
        #expect(all == ids)
    }

    @Test func itemsAndSearch() async throws {
        let item = try await client.item("p001", of: "products")
        #expect(item.jsonBytes == (try serverBytes("/api/v1/catalogs/products/items/p001")))
        var request = SearchRequest(query: "klang", scope: "Apple&Win")
        let response = try await client.search(request, in: "sequencers")
        #expect(response.scope == "Apple&Win")
        #expect(response.scopes.map(\.label) == ["Alle", "Windows", "Apple", "Apple&Win"])
        // Search hits carry `matches` and `snippet` after the stored record's keys: the same JSON,
        // not the same bytes.
        #expect(
            try sameJSON(
                response.jsonBytes, serverBytes("/api/v1/catalogs/sequencers/search?q=klang&scope=Apple%26Win")))
        request = SearchRequest(query: "", limit: 5)
        request.facets = [.categories, .country]
        request.sort = .priceDescending
        request.countries = ["de", "HU"]
        let sorted = try await client.search(request, in: "products")
        #expect(
            try sameJSON(
                sorted.jsonBytes,
                serverBytes(
                    "/api/v1/catalogs/products/search?facets=categories,country&sort=-price&country=DE&country=HU&limit=5"
                )))
        #expect(sorted.facets?["country"]?.isEmpty == false)
        let second = try await client.search(
            SearchRequest(query: "", sort: .title, after: try #require(sorted.next), limit: 5), in: "products")
        #expect(second.items.count == 5)
        // Matches are ranges of the text, in UTF-16.
        let hit = try #require(try await client.search(SearchRequest(query: "leves"), in: "cookbook").items.first)
        let range = try #require(hit.matches.first { $0.field == "title" })
        let title = hit.record.title.utf16
        let matched = String(title[title.index(title.startIndex, offsetBy: range.start)...].prefix(range.length))
        #expect(matched?.lowercased() == "leves")
    }

    @Test func categoriesAndFeatured() async throws {
        let categories = try await client.categories(of: "cookbook")
        #expect(!categories.isEmpty)
        #expect(
            try CategoryList(categories: categories).jsonOfList == serverBytes("/api/v1/catalogs/cookbook/categories"))
        let first = try #require(categories.first)
        let page = try await client.items(of: "cookbook", category: first.name, limit: 200)
        #expect(page.items.count == first.count)
        #expect(page.items.allSatisfy { $0.categories.contains(first.name) })
        let featured = try await client.featured(of: "cookbook", limit: 10)
        #expect(!featured.isEmpty && featured.map { $0.featured ?? 0 } == featured.map { $0.featured ?? 0 }.sorted())
        #expect(
            try RecordList(items: featured).jsonOfList == serverBytes("/api/v1/catalogs/cookbook/featured?limit=10"))
    }

    @Test func signInFavoritesAndSignOut() async throws {
        let response = try await client.signIn(name: LiveServer.userName, password: LiveServer.password)
        #expect(response.token.hasPrefix("cts_") && response.user.name == LiveServer.userName && !response.user.admin)
        #expect(client.token == response.token)
        try await client.addFavorite("r01", in: "cookbook")
        try await client.addFavorite("r02", in: "cookbook")
        try await client.addFavorite("r01", in: "cookbook")
        var favorites = try await client.favorites()
        #expect(favorites.map(\.item) == ["r02", "r01"])
        #expect(favorites.first?.record?.id == "r02")
        try await client.removeFavorite("r02", in: "cookbook")
        favorites = try await client.favorites()
        #expect(favorites.map(\.item) == ["r01"])
        // The API token of the same account sees the same favorites.
        let other = live.client(token: live.userToken)
        #expect(try await other.favorites().map(\.item) == ["r01"])
        let token = client.token
        try await client.signOut()
        #expect(client.token == nil)
        let stale = live.client(token: token)
        await #expect(throws: CatalogClientError.self) { try await stale.favorites() }
        do {
            _ = try await stale.favorites()
        } catch {
            #expect(error.code == .unauthorized && error.status == 401)
        }
        do {
            try await client.signIn(name: LiveServer.userName, password: "wrong")
            Issue.record("a wrong password signed in")
        } catch {
            #expect(error.code == .unauthorized && error.apiCode == "sign_in_failed")
        }
    }

    @Test func importAsAdministrator() async throws {
        let admin = live.client(token: live.adminToken)
        let csv = Data("id,title,price\nx1,Alpha,1.50\nx2,Beta,2\n".utf8)
        let summary = try await admin.importCatalog(
            "pantry", data: csv, format: .csv, options: .init(locale: "hu", title: "Kamra"))
        #expect(summary.added == 2 && summary.total == 2)
        #expect(try await admin.catalog("pantry").title == "Kamra")
        do {
            _ = try await live.client(token: live.userToken).importCatalog("pantry", data: csv, format: .csv)
            Issue.record("a user imported")
        } catch {
            #expect(error.code == .forbidden)
        }
        do {
            _ = try await admin.importCatalog("pantry", data: Data("id,title\n\"x".utf8), format: .csv)
            Issue.record("a broken file imported")
        } catch {
            #expect(error.code == .unprocessable && error.message.contains("upload:"))
        }
    }

    @Test func originalCookbookEndpoints() async throws {
        let hots = try await client.hots()
        #expect(!hots.isEmpty && hots.allSatisfy { $0.imageurl.hasPrefix("http://127.0.0.1:") })
        let categories = try await client.compatCategories()
        let first = try #require(categories.first)
        let recipes = try await client.recipes(inCategory: first.catid)
        #expect(!recipes.isEmpty)
        let recipe = try await client.recipe(try #require(recipes.first).recid)
        #expect(recipe == recipes.first)
        do {
            _ = try await client.recipe("nope")
            Issue.record("an unknown recipe was found")
        } catch {
            #expect(error.code == .notFound && error.apiCode == "not_found")
        }
    }

    /// A feed read back gives the API's records (the feed does not carry the section label).
    @Test(arguments: ["sequencers", "cookbook", "products"])
    func feedsReadBackIntoTheSameRecords(_ catalog: String) async throws {
        let fromFeed = try await client.feed(of: catalog)
        var fromAPI: [Record] = []
        for try await record in client.allItems(of: catalog) {
            var copy = record
            copy.section = nil
            fromAPI.append(copy)
        }
        #expect(fromFeed.count == fromAPI.count)
        #expect(
            Dictionary(uniqueKeysWithValues: fromFeed.map { ($0.id, $0) })
                == Dictionary(uniqueKeysWithValues: fromAPI.map { ($0.id, $0) }))
    }

    @Test func imagesAreSharedAndCached() async throws {
        let record = try await client.item("r01", of: "cookbook")
        let path = try #require(record.image)
        async let a = client.image(for: path)
        async let b = client.image(for: path)
        let (first, second) = try await (a, b)
        #expect(first == second && String(decoding: first.prefix(64), as: UTF8.self).contains("<svg"))
        let again = try await client.image(for: path)
        #expect(again == first)
        // The PNG of a demo picture, for image views that do not read SVG (Apple platforms' default).
        let png = try await client.image(for: path, size: 40, raster: true)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png[19] == 40)
        let flag = try await client.image(for: "/images/demo/flags/de.svg", raster: true)
        #expect(flag.starts(with: [0x89, 0x50, 0x4E, 0x47]) && flag[19] == 128 && flag[23] == 85)
        let svg = try await client.image(for: "/images/demo/flags/de.svg", raster: false)
        #expect(String(decoding: svg.prefix(64), as: UTF8.self).contains("<svg"))
        do {
            _ = try await client.image(for: "/images/demo/nope.png")
            Issue.record("a missing image loaded")
        } catch {
            #expect(error.code == .notFound)
        }
    }
}

extension CatalogList {
    /// `{"catalogs":[…]}` as the server writes it.
    var jsonOfList: [UInt8] { listJSON("catalogs", catalogs) }
}

extension SectionList {
    var jsonOfList: [UInt8] { listJSON("sections", sections) }
}

extension CategoryList {
    var jsonOfList: [UInt8] { listJSON("categories", categories) }
}

extension RecordList {
    var jsonOfList: [UInt8] { listJSON("items", items) }
}

func listJSON<T: JSONWritable>(_ key: StaticString, _ values: [T]) -> [UInt8] {
    var output = JSONOutput()
    output.raw("{")
    output.key(key)
    output.array(values)
    output.raw("}")
    return output.bytes
}

/// Whether two documents hold the same JSON values (objects compared ignoring key order).
func sameJSON(_ a: [UInt8], _ b: [UInt8]) throws -> Bool {
    let left = try JSONSerialization.jsonObject(with: Data(a), options: [.fragmentsAllowed]) as? NSObject
    let right = try JSONSerialization.jsonObject(with: Data(b), options: [.fragmentsAllowed]) as? NSObject
    return left != nil && left == right
}
