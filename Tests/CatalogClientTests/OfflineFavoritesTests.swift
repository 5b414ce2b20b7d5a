import CatalogClient
import CatalogTestSupport
import Foundation
import Testing

/// Favorites changed without a network are kept on disk, sent when the server can be reached
/// again, and the last change wins.
@Suite struct OfflineFavoritesTests {
    let live: LiveServer
    /// Where no server answers: connections are refused.
    let down: RefusingPort

    init() throws {
        live = try LiveServer()
        down = try RefusingPort()
    }

    /// A client whose server is down.
    func unreachableClient() throws -> CatalogClient {
        CatalogClient(baseURL: URL(string: down.baseURL)!, token: live.userToken, cache: .none, timeout: 30)
    }

    var file: URL { live.directory.appendingPathComponent("favorites.json") }

    @Test func changesMadeOfflineAreSentLaterAndTheLastWriteWins() async throws {
        let online = live.client(token: live.userToken)
        try await online.addFavorite("r03", in: "cookbook")  // removed offline later: the removal wins
        let hour: TimeInterval = 3600
        let now = Date()
        // Offline: stamps an hour ago, so the server's later changes are newer.
        let offline = OfflineFavorites(client: try unreachableClient(), file: file, now: { now - hour })
        #expect(try await offline.set(true, catalog: "cookbook", item: "r01") == .kept)
        #expect(try await offline.set(true, catalog: "cookbook", item: "r02") == .kept)
        #expect(try await offline.set(false, catalog: "cookbook", item: "r02") == .kept)  // coalesced: one change
        #expect(try await offline.set(false, catalog: "cookbook", item: "r04") == .kept)
        #expect(await offline.pending.map(\.item) == ["r01", "r02", "r04"])
        // Meanwhile, on another device: r04 is added (after the offline removal, so it stays).
        try await online.addFavorite("r04", in: "cookbook")
        // The offline list shows the kept changes on top of the last known list (none yet).
        #expect(try await offline.favorites().map(\.item) == ["r01"])

        // The app restarts online: the queue was kept on disk.
        let later = OfflineFavorites(client: online, file: file, now: { now })
        #expect(await later.pending.count == 3)
        let report = try await later.sync()
        #expect(report == OfflineFavorites.SyncReport(sent: 2, superseded: 1, dropped: 0, remaining: 0))
        #expect(await later.pending.isEmpty)
        #expect(Set(try await online.favorites().map(\.item)) == ["r01", "r03", "r04"])

        // A removal newer than the server's addition is sent.
        let fresh = OfflineFavorites(client: online, file: file, now: { now + hour })
        #expect(try await fresh.set(false, catalog: "cookbook", item: "r03") == .sent)
        #expect(Set(try await online.favorites().map(\.item)) == ["r01", "r04"])
    }

    @Test func aMissingRecordIsDroppedAndTheFileSurvivesDamage() async throws {
        let online = live.client(token: live.userToken)
        let favorites = OfflineFavorites(client: online, file: file)
        do {
            try await favorites.set(true, catalog: "cookbook", item: "nope")
            Issue.record("a missing record became a favorite")
        } catch {
            #expect(error.code == .notFound)
        }
        #expect(await favorites.pending.isEmpty)
        // Without a token the change is kept for after sign-in.
        let anonymous = OfflineFavorites(client: live.client(), file: file)
        do {
            try await anonymous.set(true, catalog: "cookbook", item: "r01")
            Issue.record("an anonymous change was sent")
        } catch {
            #expect(error.code == .unauthorized)
        }
        #expect(await anonymous.pending.count == 1)
        try Data("{not json".utf8).write(to: file)
        let recovered = OfflineFavorites(client: online, file: file)
        #expect(await recovered.pending.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.appendingPathExtension("damaged").path))
        #expect(try await recovered.sync() == OfflineFavorites.SyncReport())
    }
}
