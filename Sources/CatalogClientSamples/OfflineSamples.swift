import CatalogClient
import Foundation

/// Offline use: a snapshot downloaded and refreshed, browsed and searched like the server, and
/// favorites kept until the server can be reached.
enum OfflineSamples {
    static func download(client: CatalogClient, folder: URL) async throws {
        // sample: offline-download
        let file = folder.appendingPathComponent("cookbook.sqlite")
        let result = try await client.download(catalog: "cookbook", to: file) { progress in
            print("\(Int((progress.fraction ?? 0) * 100)) %")
        }
        if case .notModified = result { print("the snapshot is current") }
        let offline = try OfflineCatalog(at: file)
        // end
        _ = offline
    }

    static func sync(client: CatalogClient, offline: OfflineCatalog) async throws {
        // sample: offline-sync
        switch try await offline.sync(with: client) {
        case .current: print("nothing new")
        case .applied(let count, let change): print("\(count) changes, now at change \(change)")
        case .downloaded(let change): print("downloaded again at change \(change)")
        }
        // end
    }

    static func browse(offline: OfflineCatalog) async throws {
        // sample: offline-browse
        let sections = try await offline.sections(of: offline.id)
        let results = try await offline.search(SearchRequest(query: "paprik", scope: "Levesek"), in: offline.id)
        print(sections.map(\.label), results.total)
        // end
    }

    // sample: offline-either
    /// One screen for both: the server when it can be reached, the snapshot when not.
    static func firstPage(of catalog: String, from source: some CatalogBrowsing) async throws -> [Record] {
        try await source.items(of: catalog, limit: 50).items
    }
    // end

    static func favorites(client: CatalogClient, folder: URL) async throws {
        // sample: offline-favorites
        let favorites = OfflineFavorites(client: client, file: folder.appendingPathComponent("favorites.json"))
        if try await favorites.set(true, catalog: "cookbook", item: "r01") == .kept {
            print("kept until the server can be reached")
        }
        // Later, when the network is back (on launch, or when the app becomes active):
        let report = try await favorites.sync()
        print(report.sent, report.remaining)
        // end
    }
}
