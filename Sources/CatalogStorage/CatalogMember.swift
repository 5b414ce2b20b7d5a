/// A member of a catalog: a user with a role there, `{"user","role"}`.
public struct CatalogMember: Codable, Sendable, Equatable {
    /// The user's name, as the account spells it.
    public var user: String
    /// The user's role in the catalog.
    public var role: CatalogRole

    /// Creates a member value; grants themselves are made by a ``UserStore``.
    public init(user: String, role: CatalogRole) {
        self.user = user
        self.role = role
    }
}
