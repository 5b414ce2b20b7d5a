/// Everything a database keeps about one account, as `catalog copy --users` moves it from one
/// database to another: the account, its credentials as stored (hashes only), its web sessions,
/// its favorites, its roles in catalogs and its API keys.
public struct StoredAccount: Sendable, Equatable {
    /// The account (its ``User/id`` is the source database's).
    public var user: User
    /// The encoded password hash, or nil for token-only accounts.
    public var passwordHash: String?
    /// The API token's public half and the hash of its secret half, or nil.
    public var token: (selector: String, hash: [UInt8])?
    /// The web sessions.
    public var sessions: [StoredSession]
    /// The favorites, newest first.
    public var favorites: [Favorite]
    /// The roles in catalogs, by catalog id.
    public var roles: [String: CatalogRole]
    /// The API keys, ordered by name, with their selectors and hashes.
    public var keys: [NewAPIKey]

    /// Creates the description.
    public init(
        user: User, passwordHash: String?, token: (selector: String, hash: [UInt8])?, sessions: [StoredSession],
        favorites: [Favorite], roles: [String: CatalogRole] = [:], keys: [NewAPIKey] = []
    ) {
        self.user = user
        self.passwordHash = passwordHash
        self.token = token
        self.sessions = sessions
        self.favorites = favorites
        self.roles = roles
        self.keys = keys
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.user == rhs.user && lhs.passwordHash == rhs.passwordHash && lhs.token?.selector == rhs.token?.selector
            && lhs.token?.hash == rhs.token?.hash && lhs.sessions == rhs.sessions && lhs.favorites == rhs.favorites
            && lhs.roles == rhs.roles && lhs.keys == rhs.keys
    }
}

/// A web session as stored: the cookie's public half, the hash of its secret half, its end.
public struct StoredSession: Sendable, Equatable {
    /// The public half of the session cookie.
    public var selector: String
    /// The hash of the cookie's secret half.
    public var hash: [UInt8]
    /// When it ends, ISO 8601 UTC.
    public var expires: String

    /// Creates the description.
    public init(selector: String, hash: [UInt8], expires: String) {
        self.selector = selector
        self.hash = hash
        self.expires = expires
    }
}
