import CatalogModel
import CatalogStorage

/// Something a request may want to do, which ``AccessPolicy`` allows or refuses.
enum CatalogAction: String, Sendable, CaseIterable {
    /// See a catalog and its records: who may depends on the catalog's visibility
    /// (``requirement(visibility:)``).
    case read
    /// Change a catalog's records and images.
    case editRecords
    /// Change a catalog's definition, its members and (issue 21) who sees it.
    case manageCatalog
    /// Make a new catalog.
    case createCatalog
    /// Delete a catalog with its records.
    case deleteCatalog
    /// Add, change and remove accounts.
    case manageAccounts

    /// Who may do it: anyone, a member with at least a role in the catalog, or administrators.
    enum Requirement: Equatable, Sendable {
        /// Anyone, signed in or not.
        case anyone
        /// Any signed-in user.
        case signedIn
        /// A signed-in user with this role or a higher one in the catalog.
        case role(CatalogRole)
        /// Administrators only.
        case administrator
    }

    /// The one table of who may do what; administrators may do everything.
    ///
    /// Deleting a catalog is for administrators only, as making one is: it cannot be undone, it
    /// takes every member's role with it (the owner's own included), and an owner could not make
    /// the catalog again.
    var requirement: Requirement {
        requirement(visibility: .public)
    }

    /// Who may do it to a catalog of `visibility`: reading a `signed-in` catalog takes an
    /// account, a `members` one a role in it; the other actions ask the same of every catalog.
    func requirement(visibility: CatalogVisibility) -> Requirement {
        switch self {
        case .read:
            switch visibility {
            case .public: .anyone
            case .signedIn: .signedIn
            case .members: .role(.viewer)
            }
        case .editRecords: .role(.editor)
        case .manageCatalog: .role(.owner)
        case .createCatalog, .deleteCatalog, .manageAccounts: .administrator
        }
    }

    /// The action an API key needs to be granted to do this (``KeyAction``).
    var keyAction: KeyAction {
        switch self {
        case .read: .read
        case .editRecords: .write
        case .manageCatalog, .createCatalog, .deleteCatalog, .manageAccounts: .admin
        }
    }
}

/// Who may do what, written once: what a user (or an anonymous request) may do to a catalog,
/// by their roles there. Made once per request, with the user's roles loaded once
/// (``RequestAuthentication/policy(_:_:)``), then asked for every action the request takes.
///
/// | | read | editRecords | manageCatalog | createCatalog, deleteCatalog, manageAccounts |
/// | --- | --- | --- | --- | --- |
/// | anonymous | public catalogs | — | — | — |
/// | signed in | public, signed-in catalogs | — | — | — |
/// | viewer of the catalog | yes | — | — | — |
/// | editor of the catalog | yes | yes | — | — |
/// | owner of the catalog | yes | yes | yes | — |
/// | administrator | yes | yes | yes | yes |
///
/// A role counts in its own catalog only. Reading needs what the catalog's visibility says
/// (``CatalogVisibility``); a catalog the policy hides does not exist for the requester
/// (``CatalogVisibilityGate`` answers the 404 of a missing one). A request with an API key may do
/// only what both the table and the key allow: the key's actions (``KeyAction``) in the key's
/// catalogs.
///
/// ```swift
/// let policy = AccessPolicy(user: mari, roles: ["cookbook": .editor])
/// policy.allows(.editRecords, catalog: "cookbook")   // true
/// policy.allows(.editRecords, catalog: "products")   // false
/// policy.allows(.manageCatalog, catalog: "cookbook") // false: owners only
/// ```
struct AccessPolicy: Sendable {
    /// The signed-in user, nil for an anonymous request.
    let user: User?
    /// The user's roles by catalog id (none for administrators, who need none).
    let roles: [String: CatalogRole]
    /// The API key the request came with, which limits the user's rights to its catalogs and
    /// actions; nil for a token or session, which carry all of them.
    let key: StoredAPIKey?

    /// A policy for `user`, with their roles as the store has them, limited by `key`.
    init(user: User?, roles: [String: CatalogRole], key: StoredAPIKey? = nil) {
        self.user = user
        self.roles = roles
        self.key = key
    }

    /// Whether the user may do `action` to `catalog` (nil for actions on no one catalog) of
    /// `visibility`: what their roles allow, and with a key, only where the key's catalogs and
    /// actions allow it too (an action on no one catalog needs a key for every catalog).
    func allows(_ action: CatalogAction, catalog: String?, visibility: CatalogVisibility = .public) -> Bool {
        if let key {
            guard key.actions.contains(action.keyAction) else { return false }
            let covered = catalog.map { key.covers(catalog: $0) } ?? (key.catalogs == [StoredAPIKey.allCatalogs])
            guard covered else { return false }
        }
        return Self.allows(user, roles: roles, action, catalog: catalog, visibility: visibility)
    }

    /// Whether the user may see the catalog `summary` describes: what catalog lists keep.
    func sees(_ summary: CatalogSummary) -> Bool {
        allows(.read, catalog: summary.id, visibility: summary.visibility)
    }

    /// Whether `user`, with `roles`, may do `action` to `catalog`: the table above.
    ///
    /// - Parameters:
    ///   - user: the signed-in user, nil for an anonymous request.
    ///   - roles: the user's roles by catalog id.
    ///   - action: what the request wants to do.
    ///   - catalog: the catalog's id; nil for an action on no one catalog, which only
    ///     administrators may take unless anyone may.
    ///   - visibility: the catalog's visibility.
    static func allows(
        _ user: User?, roles: [String: CatalogRole], _ action: CatalogAction, catalog: String?,
        visibility: CatalogVisibility = .public
    ) -> Bool {
        if user?.isAdmin == true { return true }
        switch action.requirement(visibility: visibility) {
        case .anyone:
            return true
        case .signedIn:
            return user != nil
        case .role(let least):
            guard user != nil, let catalog, let role = roles[catalog] else { return false }
            return role >= least
        case .administrator:
            return false
        }
    }

    /// The user's role in `catalog`: ``CatalogRole/owner`` for administrators, nil for someone
    /// with none (and anonymous requests).
    func role(in catalog: String) -> CatalogRole? {
        guard let user else { return nil }
        return user.isAdmin ? .owner : roles[catalog]
    }

    /// What a 403 says when `action` on `catalog` is refused.
    static func refusal(_ action: CatalogAction, catalog: String?) -> String {
        switch (action, catalog) {
        case (.read, let catalog?): "you may not see catalog \"\(catalog)\""
        case (.editRecords, let catalog?): "you may not change catalog \"\(catalog)\""
        case (.manageCatalog, let catalog?):
            "you may not manage catalog \"\(catalog)\": only its owners and administrators may"
        case (.createCatalog, _): "only administrators may create catalogs"
        case (.deleteCatalog, _): "only administrators may delete catalogs"
        case (.manageAccounts, _): "only administrators may manage accounts"
        case (_, nil): "only administrators may do this"
        }
    }
}
