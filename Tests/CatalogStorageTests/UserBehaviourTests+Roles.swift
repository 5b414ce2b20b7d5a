import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Testing

/// Roles in catalogs, on every engine (in ``UserBehaviourTests``, which `scripts/test-postgres.sh`
/// runs on PostgreSQL).
extension UserBehaviourTests {
    /// Adds a user with a token of their own and no password.
    @discardableResult
    func add(_ name: String, admin: Bool = false, to users: any UserStore) throws -> User {
        try users.addUser(
            name: name, isAdmin: admin, passwordHash: nil, tokenSelector: "token-\(name)", tokenHash: [1, 2, 3])
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func rolesAreGivenReplacedAndTakenAway(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        let ada = try add("ada", to: users)
        let bob = try add("bob", to: users)
        try add("Carol", to: users)
        #expect(try users.grant(user: "bob", catalog: "cookbook", role: .editor) == nil)
        #expect(try users.grant(user: "BOB", catalog: "cookbook", role: .owner) == .editor, "a name ignoring case")
        #expect(try users.grant(user: "bob", catalog: "cookbook", role: .owner) == .owner)
        try users.grant(user: "bob", catalog: "products", role: .viewer)
        try users.grant(user: "carol", catalog: "cookbook", role: .viewer)
        try users.grant(user: "ada", catalog: "cookbook", role: .editor)
        #expect(try users.roles(ofUser: bob.id) == ["cookbook": .owner, "products": .viewer])
        #expect(try users.roles(ofUser: ada.id) == ["cookbook": .editor])
        // Ordered by name, ignoring case; the names as the accounts spell them.
        #expect(
            try users.members(ofCatalog: "cookbook") == [
                CatalogMember(user: "ada", role: .editor), CatalogMember(user: "bob", role: .owner),
                CatalogMember(user: "Carol", role: .viewer),
            ])
        #expect(try users.members(ofCatalog: "products") == [CatalogMember(user: "bob", role: .viewer)])
        // Another handle (another server, on PostgreSQL) sees them at once.
        let other = try TemporaryDatabase.reopen(fixture.temporary)
        defer { other.close() }
        #expect(try other.users().roles(ofUser: bob.id) == ["cookbook": .owner, "products": .viewer])

        #expect(try users.revoke(user: "Bob", catalog: "cookbook"))
        #expect(try !users.revoke(user: "bob", catalog: "cookbook"), "had none any more")
        #expect(try !users.revoke(user: "nobody", catalog: "cookbook"))
        #expect(try !users.revoke(user: "bob", catalog: "not a catalog id"))
        #expect(try users.roles(ofUser: bob.id) == ["products": .viewer])
        #expect(try users.members(ofCatalog: "cookbook").map(\.user) == ["ada", "Carol"])
        #expect(try users.members(ofCatalog: "nothing").isEmpty)
        #expect(try users.members(ofCatalog: "'; --").isEmpty)
        #expect(try users.roles(ofUser: 999).isEmpty)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func badGrantsAreRefusedAndChangeNothing(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let users = try fixture.database.users()
        let ada = try add("ada", to: users)
        let cases: [(String, String, StorageError.Code)] = [
            ("nobody", "cookbook", .userNotFound),
            ("not a name", "cookbook", .userNotFound),
            ("ada", "", .invalidArgument),
            ("ada", "cook book", .invalidArgument),
            ("ada", "'; DROP TABLE grants; --", .invalidArgument),
            ("ada", String(repeating: "c", count: 65), .invalidArgument),
        ]
        for (name, catalog, code) in cases {
            #expect("\(name) in \(catalog)") {
                try users.grant(user: name, catalog: catalog, role: .owner)
            } throws: { ($0 as? StorageError)?.code == code }
        }
        #expect(try users.roles(ofUser: ada.id).isEmpty)
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func rolesSurviveReimportsAndGoWithTheirUserOrTheirCatalog(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        let shop = CatalogDefinition(id: "shop", title: "Shop", locale: "en")
        try fixture.load(shop, [Record(id: "a1", title: "Anvil")])
        let users = try fixture.database.users()
        let ada = try add("ada", to: users)
        let bob = try add("bob", to: users)
        for user in [ada, bob] {
            try users.grant(user: user.name, catalog: "shop", role: .editor)
            try users.grant(user: user.name, catalog: "cookbook", role: .owner)
            #expect(try users.addFavorite(userID: user.id, catalog: "shop", item: "a1"))
            #expect(try users.addFavorite(userID: user.id, catalog: "cookbook", item: "r1"))
        }
        try fixture.load(shop, [Record(id: "b2", title: "Bellows")])
        #expect(try users.roles(ofUser: ada.id) == ["shop": .editor, "cookbook": .owner], "a re-import keeps them")

        #expect(try users.removeUser(named: "bob"))
        #expect(try users.members(ofCatalog: "shop").map(\.user) == ["ada"], "bob's roles went with him")
        #expect(try users.roles(ofUser: bob.id).isEmpty)

        // The catalog is deleted: its roles and favorites go, in every account; others stay.
        let carol = try add("carol", to: users)
        try users.grant(user: "carol", catalog: "shop", role: .viewer)
        #expect(try users.addFavorite(userID: carol.id, catalog: "shop", item: "b2"))
        try users.removeCatalog("shop")
        #expect(try users.members(ofCatalog: "shop").isEmpty)
        #expect(try users.roles(ofUser: ada.id) == ["cookbook": .owner])
        #expect(try users.roles(ofUser: carol.id).isEmpty)
        #expect(try users.favorites(ofUser: ada.id).map(\.catalog) == ["cookbook"])
        #expect(try users.favorites(ofUser: carol.id).isEmpty)
        try users.removeCatalog("never-was")
        try users.removeCatalog("not an id")
        #expect(try users.members(ofCatalog: "cookbook").map(\.user) == ["ada"])
    }

    @Test(arguments: CatalogBehaviourTests.engines)
    func aCopiedAccountKeepsItsRoles(engine: TemporaryDatabase.Engine) throws {
        let source = try StoreFixture(engine)
        let users = try source.database.users()
        let ada = try add("ada", admin: true, to: users)
        try add("bob", to: users)
        try users.grant(user: "ada", catalog: "products", role: .viewer)
        try users.grant(user: "bob", catalog: "cookbook", role: .editor)
        try users.grant(user: "bob", catalog: "products", role: .owner)
        let accounts = try users.accounts()
        #expect(accounts.map(\.roles) == [["products": .viewer], ["cookbook": .editor, "products": .owner]])

        let target = try StoreFixture(engine)
        let copies = try target.database.users()
        // bob is there already, with other roles: the copy replaces him, roles and all.
        try add("BOB", to: copies)
        try copies.grant(user: "bob", catalog: "sequencers", role: .owner)
        for account in accounts { try copies.restore(account) }
        #expect(try copies.accounts().map(\.roles) == accounts.map(\.roles))
        #expect(try copies.members(ofCatalog: "sequencers").isEmpty)
        #expect(try copies.members(ofCatalog: "products").map(\.user) == ["ada", "bob"])
        #expect(try copies.user(named: "ada")?.isAdmin == ada.isAdmin)

        var bad = accounts[0]
        bad.roles = ["not an id": .owner]
        #expect {
            try copies.restore(bad)
        } throws: { ($0 as? StorageError)?.code == .invalidArgument }
        #expect(try copies.accounts().map(\.roles) == accounts.map(\.roles), "a refused restore changes nothing")
    }
}
