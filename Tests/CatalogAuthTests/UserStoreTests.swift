import CatalogAuth
import CatalogModel
import CatalogSQLite
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

@Suite struct UserStoreTests {
    /// Adds a user with a fresh token and no password.
    @discardableResult
    func add(_ name: String, admin: Bool = false, to store: SQLiteUserStore) throws -> User {
        let token = APIToken.issue()
        return try store.addUser(
            name: name, isAdmin: admin, passwordHash: nil, tokenSelector: token.selector, tokenHash: token.hash)
    }

    @Test func usersAreListedByNameAndFoundIgnoringCase() throws {
        let fixture = try AuthFixture()
        let bob = try add("bob", to: fixture.store)
        let ada = try add("Ada.Lovelace@example.org", admin: true, to: fixture.store)
        #expect(try fixture.store.users() == [ada, bob])
        #expect(try fixture.store.user(named: "ada.lovelace@EXAMPLE.org") == ada)
        #expect(try fixture.store.user(named: "carol") == nil)
        #expect(ada.isAdmin && !bob.isAdmin)
        #expect(ada.createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(ada.createdAt)")
        let json = String(decoding: try JSONEncoder().encode(bob), as: UTF8.self)
        #expect(json.contains("\"isAdmin\":false"))
        #expect(!json.contains("hash"))
    }

    @Test func aDuplicateNameIsAConstraintError() throws {
        let fixture = try AuthFixture()
        try add("ada", to: fixture.store)
        for name in ["ada", "ADA"] {
            #expect {
                try add(name, to: fixture.store)
            } throws: { error in
                let error = error as? StorageError
                return error?.code == .constraint && error?.message == "a user named \"ada\" already exists"
            }
        }
        #expect(try fixture.store.users().count == 1)
    }

    @Test(arguments: ["", "ada lovelace", "ada/1", "ada\u{0}", "ädä", String(repeating: "a", count: 65), "'; --"])
    func invalidNamesAreRefused(_ name: String) throws {
        let fixture = try AuthFixture()
        #expect {
            try add(name, to: fixture.store)
        } throws: { ($0 as? StorageError)?.code == .invalidArgument }
        #expect(!User.isValidName(name))
    }

    @Test func validNames() {
        for name in ["a", "ada", "Ada_L-1.x@example.org", String(repeating: "z", count: 64)] {
            #expect(User.isValidName(name), "\(name)")
        }
    }

    @Test func favoritesAreIdempotentNewestFirstAndPerUser() throws {
        let fixture = try AuthFixture()
        let store = fixture.store
        let ada = try add("ada", to: store)
        let bob = try add("bob", to: store)
        #expect(try store.addFavorite(userID: ada.id, catalog: "cookbook", item: "r1"))
        #expect(try store.addFavorite(userID: ada.id, catalog: "products", item: "p001"))
        #expect(try store.addFavorite(userID: ada.id, catalog: "cookbook", item: "r3"))
        #expect(try !store.addFavorite(userID: ada.id, catalog: "cookbook", item: "r1"), "already a favorite")
        #expect(try store.addFavorite(userID: bob.id, catalog: "cookbook", item: "r1"))
        let favorites = try store.favorites(ofUser: ada.id)
        #expect(favorites.map(\.item) == ["r3", "p001", "r1"])
        #expect(favorites.map(\.catalog) == ["cookbook", "products", "cookbook"])
        #expect(favorites.allSatisfy { $0.added.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil })
        #expect(try store.favorites(ofUser: bob.id).map(\.item) == ["r1"])

        #expect(try store.removeFavorite(userID: ada.id, catalog: "cookbook", item: "r1"))
        #expect(try !store.removeFavorite(userID: ada.id, catalog: "cookbook", item: "r1"))
        #expect(try store.favorites(ofUser: ada.id).map(\.item) == ["r3", "p001"])
        #expect(try store.favorites(ofUser: bob.id).map(\.item) == ["r1"], "bob's favorite is his own")
        // Adding again puts it first.
        #expect(try store.addFavorite(userID: ada.id, catalog: "cookbook", item: "r1"))
        #expect(try store.favorites(ofUser: ada.id).map(\.item) == ["r1", "r3", "p001"])
        #expect(try store.favorites(ofUser: 999).isEmpty)
        #expect(try !store.removeFavorite(userID: 999, catalog: "cookbook", item: "r1"))
    }

    @Test func badFavoritesAreRefused() throws {
        let fixture = try AuthFixture()
        let ada = try add("ada", to: fixture.store)
        let cases: [(Int64, String, String, StorageError.Code)] = [
            (999, "cookbook", "r1", .userNotFound),
            (ada.id, "", "r1", .invalidArgument),
            (ada.id, "cook book", "r1", .invalidArgument),
            (ada.id, "cookbook", "", .invalidArgument),
            (ada.id, "cookbook", String(repeating: "x", count: 1025), .invalidArgument),
        ]
        for (user, catalog, item, code) in cases {
            #expect {
                try fixture.store.addFavorite(userID: user, catalog: catalog, item: item)
            } throws: { ($0 as? StorageError)?.code == code }
        }
        #expect(try fixture.store.addFavorite(userID: ada.id, catalog: "cookbook", item: "'; DROP TABLE items; --"))
        #expect(try fixture.store.favorites(ofUser: ada.id).map(\.item) == ["'; DROP TABLE items; --"])
    }

    @Test func removingAUserRemovesTheirSessionsAndFavorites() throws {
        let fixture = try AuthFixture()
        let store = fixture.store
        let ada = try add("ada", to: store)
        let bob = try add("bob", to: store)
        for user in [ada, bob] {
            _ = try store.addFavorite(userID: user.id, catalog: "cookbook", item: "r1")
            try store.createSession(
                userID: user.id, selector: "s-\(user.name)", hash: [1, 2, 3], expires: "2999-01-01T00:00:00Z")
        }
        #expect(try fixture.count("favorites") == 2)
        #expect(try fixture.count("sessions") == 2)
        #expect(try store.removeUser(named: "ADA"))
        #expect(try !store.removeUser(named: "ada"))
        #expect(try store.users() == [bob])
        #expect(try fixture.count("favorites") == 1)
        #expect(try fixture.count("sessions") == 1)
        #expect(try store.sessionCredential(selector: "s-ada") == nil)
        #expect(try store.sessionCredential(selector: "s-bob")?.user == bob)
        #expect(try store.favorites(ofUser: bob.id).count == 1)
        // The name is free again, for a new account.
        let newAda = try add("ada", to: store)
        #expect(newAda.id != ada.id)
        #expect(try store.favorites(ofUser: newAda.id).isEmpty)
    }

    @Test func expiredSessionsAreDeleted() throws {
        let fixture = try AuthFixture()
        let ada = try add("ada", to: fixture.store)
        try fixture.store.createSession(userID: ada.id, selector: "old", hash: [1], expires: "2024-01-01T00:00:00Z")
        try fixture.store.createSession(userID: ada.id, selector: "new", hash: [2], expires: "2024-01-01T00:00:01Z")
        try fixture.store.deleteExpiredSessions(now: "2024-01-01T00:00:00Z")
        #expect(try fixture.store.sessionCredential(selector: "old") == nil)
        #expect(try fixture.store.sessionCredential(selector: "new")?.hash == [2])
        try fixture.store.deleteSession(selector: "new")
        try fixture.store.deleteSession(selector: "never existed")
        #expect(try fixture.count("sessions") == 0)
        #expect {
            try fixture.store.createSession(userID: 999, selector: "x", hash: [1], expires: "2999-01-01T00:00:00Z")
        } throws: { ($0 as? StorageError)?.code == .userNotFound }
    }

    @Test func passwordHashesAndTokensAreReplaced() throws {
        let fixture = try AuthFixture()
        let store = fixture.store
        let ada = try store.addUser(
            name: "ada", isAdmin: false, passwordHash: "$argon2id$first", tokenSelector: "sel1", tokenHash: [1])
        #expect(try store.passwordHash(forUser: "ada")?.hash == "$argon2id$first")
        #expect(try store.passwordHash(forUser: "ada")?.user == ada)
        try store.setPasswordHash(nil, forUser: "ada")
        #expect(try store.passwordHash(forUser: "ada") == nil)
        #expect(try store.passwordHash(forUser: "nobody") == nil)
        #expect {
            try store.setPasswordHash("x", forUser: "nobody")
        } throws: { ($0 as? StorageError)?.code == .userNotFound }
        #expect(try store.tokenCredential(selector: "sel1")?.hash == [1])
        try store.replaceToken(forUser: "ada", selector: "sel2", hash: [2])
        #expect(try store.tokenCredential(selector: "sel1") == nil)
        #expect(try store.tokenCredential(selector: "sel2")?.user == ada)
    }

    @Test func aReadOnlyStoreChecksCredentialsButChangesNothing() throws {
        let fixture = try AuthFixture()
        let auth = Authenticator()
        let (ada, token) = try auth.addUser(name: "ada", isAdmin: false, password: nil, in: fixture.store)
        _ = try fixture.store.addFavorite(userID: ada.id, catalog: "cookbook", item: "r1")
        let reader = try SQLiteUserStore(path: fixture.path, readOnly: true)
        defer { reader.close() }
        #expect(try auth.user(bearerToken: token, in: reader) == ada)
        #expect(try reader.favorites(ofUser: ada.id).map(\.item) == ["r1"])
        #expect {
            try reader.addFavorite(userID: ada.id, catalog: "cookbook", item: "r2")
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .engine && error?.message.contains("read-only") == true
        }
        #expect(throws: StorageError.self) { try auth.startSession(for: ada, in: reader) }
        #expect(throws: StorageError.self) { try reader.removeUser(named: "ada") }
        #expect(try fixture.store.users() == [ada])
    }
}
