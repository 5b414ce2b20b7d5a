/// An API token: `ctk_<selector>_<secret>`, 64 characters, shown to its owner once.
///
/// The selector (12 random bytes, unpadded base64url) finds the token's owner; the secret
/// (32 random bytes) is stored only as its BLAKE2b-256 hash, so a copy of the database signs no
/// one in. Presented secrets are hashed and compared in constant time.
///
/// ```swift
/// let token = APIToken.issue()
/// try store.replaceToken(forUser: "ada", selector: token.selector, hash: token.hash)
/// print(token.text)  // the only time it is seen
///
/// if let (selector, secret) = APIToken.parse(header),
///     let (user, hash) = try store.tokenCredential(selector: selector),
///     APIToken.verify(secret: secret, against: hash)
/// { … }  // or simply Authenticator().user(bearerToken:in:)
/// ```
///
/// `description` and `debugDescription` show the selector only, so a token never lands in a log.
public struct APIToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The first characters of every API token.
    public static let prefix = "ctk_"
    /// Characters in every API token.
    public static var length: Int { format.length }

    static let format = CredentialFormat(prefix: prefix)

    /// The whole token, to hand to its owner once and never store.
    public let text: String
    /// The public half, which the store looks the token up by.
    public let selector: String
    /// BLAKE2b-256 of the secret half: what the store keeps.
    public let hash: [UInt8]

    /// Issues a new token.
    ///
    /// - Parameter random: the source of its selector and secret (the system's secure source
    ///   unless a test fixes it).
    /// - Returns: the token; store ``selector`` and ``hash``, show ``text`` once.
    public static func issue(random: RandomBytes = .system) -> APIToken {
        let issued = format.issue(random: random)
        return APIToken(text: issued.text, selector: issued.selector, hash: issued.hash)
    }

    /// Splits a presented token into its selector and secret.
    ///
    /// - Parameter text: the token as presented (for example after `Bearer `).
    /// - Returns: nil for anything that is not exactly a well-formed token: another prefix,
    ///   another length, characters outside base64url, a non-canonical encoding. Never traps.
    public static func parse(_ text: String) -> (selector: String, secret: [UInt8])? {
        format.parse(text)
    }

    /// Whether a presented secret belongs to a stored hash, compared in constant time.
    ///
    /// - Parameters:
    ///   - secret: the secret half from ``parse(_:)``.
    ///   - hash: the hash the store keeps for the selector.
    /// - Returns: true when the secret hashes to `hash`.
    public static func verify(secret: [UInt8], against hash: [UInt8]) -> Bool {
        CredentialFormat.verify(secret: secret, against: hash)
    }

    public var description: String { "\(Self.prefix)\(selector)_…" }

    public var debugDescription: String { "APIToken(\(description))" }
}
