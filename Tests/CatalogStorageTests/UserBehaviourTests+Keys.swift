import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Testing

/// API keys, on every engine (in ``UserBehaviourTests``, which `scripts/test-postgres.sh` runs on
/// PostgreSQL).
extension UserBehaviourTests {
    /// A new key's description for `user`, with a selector and hash of its own.
    func newKey(
        _ name: String, of user: String, catalogs: [String] = ["shop"], actions: [KeyAction] = [.read, .search],
        filter: String? = nil, expires: String? = nil
    ) -> NewAPIKey {
        NewAPIKey(
            key: StoredAPIKey(
                name: name, user: user, catalogs: catalogs, actions: actions, filter: filter, expires: expires,
                createdAt: ""),
            selector: "selector-\(name)", hash: Array(name.utf8))
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func keysAreAddedFoundListedAndRevoked(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        let ada = try add("ada", to: users)
        let bob = try add("bob", to: users)
        let stored = try users.addKey(
            newKey(
                "shop-app", of: "ADA", catalogs: ["shop", "cookbook"], filter: "country = DE",
                expires: "2030-01-01T00:00:00Z"))
        #expect(stored.name == "shop-app")
        #expect(stored.user == "ada", "the account as it spells its name")
        #expect(stored.catalogs == ["shop", "cookbook"])
        #expect(stored.actions == [.read, .search])
        #expect(stored.filter == "country = DE")
        #expect(stored.expires == "2030-01-01T00:00:00Z")
        #expect(stored.createdAt.hasSuffix("Z") && stored.lastUsed == nil && stored.lastUsedFrom == nil)
        try users.addKey(newKey("Bobs-key", of: "bob", catalogs: ["*"], actions: [.admin]))
        #expect(throws: StorageError.self, "a name taken, ignoring case") {
            try users.addKey(newKey("SHOP-APP", of: "bob"))
        }
        #expect(try users.key(named: "Shop-App") == stored)
        #expect(try users.keys(ofUser: nil).map(\.name) == ["Bobs-key", "shop-app"])
        #expect(try users.keys(ofUser: ada.id).map(\.name) == ["shop-app"])
        #expect(try users.keys(ofUser: bob.id).map(\.catalogs) == [["*"]])

        let credential = try #require(try users.keyCredential(selector: "selector-shop-app"))
        #expect(credential.key == stored && credential.user == ada && credential.hash == Array("shop-app".utf8))
        #expect(try users.keyCredential(selector: "selector-unknown") == nil)

        try users.recordKeyUse(named: "shop-app", at: "2026-12-06T10:00:00Z", from: "192.0.2.7")
        // Another handle (another server, on PostgreSQL) sees the use and the keys at once.
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        let used = try #require(try other.users().key(named: "shop-app"))
        #expect(used.lastUsed == "2026-12-06T10:00:00Z" && used.lastUsedFrom == "192.0.2.7")

        #expect(try users.removeKey(named: "SHOP-app"))
        #expect(try !users.removeKey(named: "shop-app"), "gone already")
        #expect(try users.keyCredential(selector: "selector-shop-app") == nil, "a revoked key is not found")
        #expect(try users.keys(ofUser: nil).map(\.name) == ["Bobs-key"])
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func badKeysAreRefusedAndStoreNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        try add("ada", to: users)
        let cases: [(NewAPIKey, StorageError.Code)] = [
            (newKey("k", of: "nobody"), .userNotFound),
            (newKey("not a name", of: "ada"), .invalidArgument),
            (newKey("k", of: "ada", catalogs: []), .invalidArgument),
            (newKey("k", of: "ada", catalogs: ["cook book"]), .invalidArgument),
            (newKey("k", of: "ada", catalogs: ["*", "shop"]), .invalidArgument),
            (newKey("k", of: "ada", actions: []), .invalidArgument),
        ]
        for (key, code) in cases {
            #expect("\(key.key.name) \(key.key.catalogs)") {
                try users.addKey(key)
            } throws: { ($0 as? StorageError)?.code == code }
        }
        #expect(try users.keys(ofUser: nil).isEmpty)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func keysGoWithTheirAccountAndLoseADeletedCatalog(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        try add("ada", to: users)
        try add("bob", to: users)
        try users.addKey(newKey("ada-key", of: "ada", catalogs: ["shop", "cookbook"]))
        try users.addKey(newKey("bob-key", of: "bob", catalogs: ["shop"]))
        try users.removeCatalog("shop")
        #expect(try users.key(named: "ada-key")?.catalogs == ["cookbook"])
        #expect(try users.key(named: "bob-key")?.catalogs == [], "for no catalog any more, so for nothing")
        #expect(try users.removeUser(named: "ada"))
        #expect(try users.key(named: "ada-key") == nil)
        #expect(try users.keyCredential(selector: "selector-ada-key") == nil, "a removed account's keys stop working")
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func keysAreCopiedWithTheirAccount(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        try add("ada", to: users)
        try users.addKey(newKey("shop-app", of: "ada", filter: "price = ..50", expires: "2030-01-01T00:00:00Z"))
        try users.recordKeyUse(named: "shop-app", at: "2026-12-06T10:00:00Z", from: "192.0.2.7")
        let accounts = try users.accounts()
        #expect(accounts.first?.keys.map(\.selector) == ["selector-shop-app"])

        let copy = try StoreFixture(engine)
        let copied = try copy.database.users()
        for account in accounts { try copied.restore(account) }
        #expect(try copied.accounts().map(\.keys) == accounts.map(\.keys), "times, use, selector and hash kept")
        let credential = try #require(try copied.keyCredential(selector: "selector-shop-app"))
        #expect(credential.user.name == "ada" && credential.hash == Array("shop-app".utf8))
        // Restoring again replaces the account with its keys, not adding them twice.
        for account in accounts { try copied.restore(account) }
        #expect(try copied.keys(ofUser: nil).count == 1)
    }
}
