/// The body of `POST /api/v1/signin`: `{"name","password"}`.
public struct SignInRequest: Codable, Sendable, Equatable {
    /// The account's name.
    public var name: String
    /// Its password.
    public var password: String

    /// Creates a request.
    public init(name: String, password: String) {
        self.name = name
        self.password = password
    }
}

/// The answer to a sign-in: a bearer token for this client (`cts_…`), whom it signs in, and when
/// it expires: `{"token","user":{"name","admin"},"expires"}`.
public struct SignInResponse: Codable, Sendable, Hashable {
    /// Who signed in.
    public struct User: Codable, Sendable, Hashable {
        /// The account's name.
        public var name: String
        /// Whether the account may import catalogs and manage accounts.
        public var admin: Bool

        /// Creates a user value.
        public init(name: String, admin: Bool) {
            self.name = name
            self.admin = admin
        }
    }

    /// The token to send as `Authorization: Bearer …`. It exists nowhere else.
    public var token: String
    /// The account.
    public var user: User
    /// When the token stops working, ISO 8601 in UTC.
    public var expires: String

    /// Creates a response.
    public init(token: String, user: User, expires: String) {
        self.token = token
        self.user = user
        self.expires = expires
    }
}
