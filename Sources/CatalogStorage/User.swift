/// An account: someone who signs in to the web app or calls the API with a token.
///
/// Encoded as `{"id","name","isAdmin","createdAt"}`; secrets (the password hash, the token hash)
/// are never part of it.
public struct User: Codable, Sendable, Equatable {
    /// The engine's number for the user; favorites and sessions refer to it.
    public var id: Int64
    /// The sign-in name: 1 to 64 ASCII letters, digits, `.`, `-`, `_` or `@`, unique ignoring case.
    public var name: String
    /// Whether the user is an administrator: an owner of every catalog, who also creates and
    /// deletes catalogs and manages the accounts. Other users change only the catalogs they have
    /// a ``CatalogRole`` in.
    public var isAdmin: Bool
    /// When the account was created, ISO 8601 in UTC (`2024-05-01T12:00:00Z`).
    public var createdAt: String

    /// Creates a user value; accounts themselves are created by a ``UserStore``.
    public init(id: Int64, name: String, isAdmin: Bool, createdAt: String) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
        self.createdAt = createdAt
    }

    /// The longest name, in characters.
    public static let maxNameLength = 64

    /// Whether `name` is a valid sign-in name: 1 to 64 ASCII letters, digits, `.`, `-`, `_` or `@`.
    ///
    /// ```swift
    /// User.isValidName("ada.lovelace@example.org")  // true
    /// User.isValidName("Ada Lovelace")              // false: a space
    /// ```
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxNameLength
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: "@"):
                    return true
                default:
                    return false
                }
            }
    }
}
