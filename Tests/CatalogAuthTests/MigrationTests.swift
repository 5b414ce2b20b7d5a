import CatalogAuth
import CatalogModel
import CatalogSQLite
import CatalogStorage
import Foundation
import Testing

@Suite struct MigrationTests {
    /// Turns the fixture's file into what version 1 wrote: the tables of version 2 dropped and
    /// `user_version` set back, with a catalog already imported.
    func makeVersion1(_ fixture: AuthFixture) throws {
        _ = try fixture.store.importRecords(
            definition: CatalogDefinition(id: "shop", title: "Shop", locale: "en"), replace: true,
            records: { add in
                try add(Record(id: "a1", title: "Anvil"))
                return nil
            }, progress: nil)
        fixture.store.close()
        let connection = try Connection(path: fixture.path, mode: .readWrite)
        defer { connection.close() }
        try connection.execute(
            "DROP TABLE favorites; DROP TABLE sessions; DROP TABLE users; PRAGMA user_version = 1")
    }

    func tables(_ path: String) throws -> (version: Int, names: [String]) {
        let connection = try Connection(path: path, mode: .readOnly)
        defer { connection.close() }
        let version = try connection.prepare("PRAGMA user_version").scalarInt() ?? 0
        let statement = try connection.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('users', 'sessions', 'favorites') "
                + "ORDER BY name")
        var names: [String] = []
        try statement.forEachRow { names.append($0.text(0)) }
        return (version, names)
    }

    @Test func aVersion1DatabaseGainsUsersAndKeepsItsCatalogs() throws {
        let fixture = try AuthFixture()
        try makeVersion1(fixture)
        #expect(try tables(fixture.path) == (1, []))

        // Read-only opens never migrate: they say what is wrong instead.
        #expect {
            try SQLiteCatalogStore(path: fixture.path, readOnly: true)
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .cannotOpen && error?.message.contains("schema version 1") == true
        }

        let store = try SQLiteCatalogStore(path: fixture.path)
        defer { store.close() }
        #expect(try tables(fixture.path) == (2, ["favorites", "sessions", "users"]))
        #expect(try store.item(of: "shop", itemID: "a1")?.title == "Anvil")
        let (ada, token) = try Authenticator().addUser(name: "ada", isAdmin: true, password: nil, in: store)
        #expect(try store.addFavorite(userID: ada.id, catalog: "shop", item: "a1"))
        #expect(try Authenticator().user(bearerToken: token, in: store) == ada)

        let reader = try SQLiteCatalogStore(path: fixture.path, readOnly: true)
        defer { reader.close() }
        #expect(try reader.favorites(ofUser: ada.id).map(\.item) == ["a1"])
    }

    @Test func reopeningAVersion2DatabaseChangesNothing() throws {
        let fixture = try AuthFixture()
        let (ada, _) = try Authenticator().addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        let again = try SQLiteCatalogStore(path: fixture.path)
        defer { again.close() }
        #expect(try again.users() == [ada])
        #expect(try tables(fixture.path) == (2, ["favorites", "sessions", "users"]))
    }
}
