import CatalogAuth
import CatalogEngines
import CatalogStorage
import Foundation
import SQLiteSupport
import Testing

@Suite struct MigrationTests {
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

    @Test func reopeningADatabaseChangesNothing() throws {
        let fixture = try AuthFixture()
        let (ada, _) = try Authenticator().addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        let before = try tables(fixture.path)
        let again = try CatalogEngines.open(fixture.path)
        defer { again.close() }
        #expect(try again.users().users() == [ada])
        #expect(try tables(fixture.path) == before)
        #expect(before.names == ["favorites", "sessions", "users"])
    }
}
