/// Tokens for the web app's forms that change something (CSRF tokens), which a page from
/// another site cannot know.
///
/// - Signed in, a form's token is derived from the session cookie (a BLAKE2b-256 hash of it
///   under a fixed label): only the cookie's holder can compute it, it changes with every
///   session (so signing in rotates it), and a cookie-and-field pair chosen by someone else
///   fails, because the cookie must be a live session.
/// - Before signing in, the token is a random nonce with a MAC under a key made when the server
///   starts, so only tokens this server issued pass (and none survive a restart).
///
/// ```swift
/// let tokens = FormTokens()
/// let field = tokens.token(forSession: cookie)
/// tokens.matches(field, session: cookie)    // true
/// tokens.isIssued(tokens.anonymousToken())  // true
/// ```
public struct FormTokens: Sendable {
    private let key: [UInt8]

    /// Characters of the nonce and of the MAC of an anonymous token.
    static let nonceLength = 24
    static let macLength = 32

    /// Tokens under a new random key.
    public init(random: RandomBytes = .system) {
        key = random.bytes(32)
    }

    /// The token of forms shown to the holder of the session cookie `cookie`.
    public func token(forSession cookie: String) -> String {
        Sodium.base64URL(Sodium.hash(Array("catalog form token v1\u{0}".utf8) + Array(cookie.utf8)))
    }

    /// Whether `presented` is the token of the session cookie `cookie`, compared in constant time.
    public func matches(_ presented: String, session cookie: String) -> Bool {
        Sodium.constantTimeEqual(Array(presented.utf8), Array(token(forSession: cookie).utf8))
    }

    /// A new token for forms shown before signing in.
    public func anonymousToken() -> String {
        let nonce = Sodium.base64URL(Sodium.randomBytes(18))
        return nonce + mac(nonce)
    }

    /// Whether `token` is an anonymous token this value issued.
    public func isIssued(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard bytes.count == Self.nonceLength + Self.macLength else { return false }
        let nonce = String(decoding: bytes[..<Self.nonceLength], as: UTF8.self)
        return Sodium.constantTimeEqual(Array(bytes[Self.nonceLength...]), Array(mac(nonce).utf8))
    }

    private func mac(_ nonce: String) -> String {
        String(Sodium.base64URL(Sodium.hash(Array(nonce.utf8), key: key)).prefix(Self.macLength))
    }
}
