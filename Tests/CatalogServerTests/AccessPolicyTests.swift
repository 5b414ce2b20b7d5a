import CatalogAuth
import CatalogHTTP
import CatalogStorage
import Testing

@testable import CatalogServer

/// Who may do what: every kind of user × every action, on the catalog they have their role in,
/// on another one and on none (`catalog: nil`).
@Suite struct AccessPolicyTests {
    /// Someone a request may come from.
    enum Who: String, CaseIterable, CustomTestStringConvertible {
        case anonymous, user, viewer, editor, owner, admin

        var testDescription: String { rawValue }

        /// The user, nil for anonymous.
        var user: User? {
            self == .anonymous ? nil : User(id: 7, name: rawValue, isAdmin: self == .admin, createdAt: "")
        }

        /// Their roles: a role in "cookbook" for the roles; an administrator's viewer role
        /// there must not hold them back.
        var roles: [String: CatalogRole] {
            switch self {
            case .anonymous, .user: [:]
            case .viewer, .admin: ["cookbook": .viewer]
            case .editor: ["cookbook": .editor]
            case .owner: ["cookbook": .owner]
            }
        }
    }

    /// For each action and each kind of user, whether they may take it on their own catalog
    /// ("cookbook"), on another ("products") and on none (nil): `y` yes, `-` no.
    static let table: [CatalogAction: [Who: String]] = [
        .read: [.anonymous: "yyy", .user: "yyy", .viewer: "yyy", .editor: "yyy", .owner: "yyy", .admin: "yyy"],
        .editRecords: [.anonymous: "---", .user: "---", .viewer: "---", .editor: "y--", .owner: "y--", .admin: "yyy"],
        .manageCatalog: [
            .anonymous: "---", .user: "---", .viewer: "---", .editor: "---", .owner: "y--", .admin: "yyy",
        ],
        .createCatalog: [
            .anonymous: "---", .user: "---", .viewer: "---", .editor: "---", .owner: "---", .admin: "yyy",
        ],
        .deleteCatalog: [
            .anonymous: "---", .user: "---", .viewer: "---", .editor: "---", .owner: "---", .admin: "yyy",
        ],
        .manageAccounts: [
            .anonymous: "---", .user: "---", .viewer: "---", .editor: "---", .owner: "---", .admin: "yyy",
        ],
    ]

    @Test func theTableCoversEveryActionAndEveryone() {
        #expect(Set(Self.table.keys) == Set(CatalogAction.allCases))
        for (action, row) in Self.table {
            #expect(Set(row.keys) == Set(Who.allCases), "\(action)")
        }
    }

    @Test(arguments: CatalogAction.allCases, Who.allCases)
    func thePolicyAllowsWhatTheTableSays(_ action: CatalogAction, _ who: Who) throws {
        let row = try #require(Self.table[action]?[who])
        let expected = row.map { $0 == "y" }
        let catalogs: [String?] = ["cookbook", "products", nil]
        let policy = AccessPolicy(user: who.user, roles: who.roles)
        for (catalog, allowed) in zip(catalogs, expected) {
            #expect(policy.allows(action, catalog: catalog) == allowed, "\(who) \(action) \(catalog ?? "nil")")
            #expect(
                AccessPolicy.allows(who.user, roles: who.roles, action, catalog: catalog) == allowed,
                "\(who) \(action) \(catalog ?? "nil")")
        }
    }

    @Test func aRoleCountsInItsOwnCatalogOnlyAndNeedsAUser() {
        // Roles without a user (as no request has) allow nothing beyond reading.
        let nobody = AccessPolicy(user: nil, roles: ["cookbook": .owner])
        #expect(!nobody.allows(.editRecords, catalog: "cookbook"))
        #expect(nobody.allows(.read, catalog: "cookbook"))
        // Ids are compared exactly: no case folding, no prefixes.
        let editor = AccessPolicy(user: Who.editor.user, roles: ["cookbook": .editor])
        #expect(!editor.allows(.editRecords, catalog: "Cookbook"))
        #expect(!editor.allows(.editRecords, catalog: "cookbook2"))
        #expect(!editor.allows(.editRecords, catalog: ""))
    }

    @Test func rolesInACatalog() {
        #expect(AccessPolicy(user: Who.admin.user, roles: [:]).role(in: "anything") == .owner)
        #expect(AccessPolicy(user: Who.editor.user, roles: Who.editor.roles).role(in: "cookbook") == .editor)
        #expect(AccessPolicy(user: Who.editor.user, roles: Who.editor.roles).role(in: "products") == nil)
        #expect(AccessPolicy(user: nil, roles: ["cookbook": .owner]).role(in: "cookbook") == nil)
        #expect(CatalogRole.viewer < .editor && CatalogRole.editor < .owner)
        #expect(CatalogRole.allCases.sorted() == [.viewer, .editor, .owner])
        #expect(CatalogRole.names == "viewer, editor, owner")
    }

    @Test func refusalsSayWhatWasRefused() {
        #expect(AccessPolicy.refusal(.editRecords, catalog: "x") == "you may not change catalog \"x\"")
        #expect(
            AccessPolicy.refusal(.manageCatalog, catalog: "x")
                == "you may not manage catalog \"x\": only its owners and administrators may")
        #expect(AccessPolicy.refusal(.deleteCatalog, catalog: "x") == "only administrators may delete catalogs")
        #expect(AccessPolicy.refusal(.createCatalog, catalog: nil) == "only administrators may create catalogs")
        #expect(AccessPolicy.refusal(.manageAccounts, catalog: nil) == "only administrators may manage accounts")
        #expect(AccessPolicy.refusal(.editRecords, catalog: nil) == "only administrators may do this")
    }
}

/// ``RequestAuthentication/require(_:catalog:_:_:)``: 401 without credentials, 403 when the
/// policy refuses, the user when it allows, with roles as the accounts store has them now.
@Suite struct RequireTests {
    let fixture: ServerFixture
    let authentication: RequestAuthentication

    init() throws {
        fixture = try ServerFixture()
        authentication = RequestAuthentication(stores: fixture.application.stores, authenticator: Authenticator())
    }

    func require(_ action: CatalogAction, _ catalog: String?, token: String?) throws -> User {
        var request = try #require(Request(method: .post, target: "/"))
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        return try authentication.require(action, catalog: catalog, request, RequestContext())
    }

    func refusal(_ action: CatalogAction, _ catalog: String?, token: String?) -> HTTPError? {
        do {
            _ = try require(action, catalog, token: token)
            return nil
        } catch {
            return (error as? any HTTPResponseError)?.httpError
        }
    }

    @Test func withoutCredentialsItIs401() {
        let error = refusal(.read, "cookbook", token: nil)
        #expect(error?.status == .unauthorized)
        #expect(error?.headers["WWW-Authenticate"] == "Bearer realm=\"catalog\"")
        #expect(refusal(.editRecords, "cookbook", token: "ctk_nonsense")?.status == .unauthorized)
    }

    @Test func aRefusedActionIs403AndAGrantAllowsItAtOnce() throws {
        let refused = refusal(.editRecords, "cookbook", token: fixture.userToken)
        #expect(refused?.status == .forbidden)
        #expect(refused?.code == "forbidden")
        #expect(refused?.message == "you may not change catalog \"cookbook\"")

        try fixture.elsewhere { _ = try $0.users().grant(user: "mari", catalog: "cookbook", role: .editor) }
        #expect(try require(.editRecords, "cookbook", token: fixture.userToken).name == "mari")
        #expect(refusal(.editRecords, "products", token: fixture.userToken)?.status == .forbidden)
        #expect(refusal(.manageCatalog, "cookbook", token: fixture.userToken)?.status == .forbidden)
        #expect(refusal(.editRecords, "cookbook", token: fixture.otherToken)?.status == .forbidden, "jozsi has none")

        #expect(try require(.deleteCatalog, "cookbook", token: fixture.adminToken).name == "admin")
        #expect(try require(.manageAccounts, nil, token: fixture.adminToken).isAdmin)
        #expect(try require(.read, "cookbook", token: fixture.otherToken).name == "jozsi")

        try fixture.elsewhere { _ = try $0.users().revoke(user: "mari", catalog: "cookbook") }
        #expect(refusal(.editRecords, "cookbook", token: fixture.userToken)?.status == .forbidden)
    }
}
