import CatalogStorage
import Foundation

/// Web sessions: after a password sign-in the web app sets a cookie
/// `cts_<selector>_<secret>` (the shape of an ``APIToken``); the store keeps the selector, the
/// secret's hash and the expiry.
extension Authenticator {
    /// The first characters of every session cookie value.
    public static let sessionCookiePrefix = "cts_"

    static let sessionFormat = CredentialFormat(prefix: sessionCookiePrefix)

    /// Starts a web session for a signed-in user, and removes sessions that have expired.
    ///
    /// - Parameters:
    ///   - user: the user, as ``user(name:password:in:)`` returned them.
    ///   - store: where sessions are kept.
    ///   - lifetime: how long the session lasts from ``clock``'s now (whole seconds).
    /// - Returns: the cookie value, which exists nowhere else.
    /// - Throws: ``AuthError`` `.invalidArgument` for a lifetime under one second;
    ///   ``StorageError`` `.userNotFound` when the user was removed.
    public func startSession(
        for user: User, in store: any UserStore, lifetime: Duration = Self.defaultSessionLifetime
    ) throws -> String {
        let seconds = lifetime.components.seconds
        guard seconds >= 1 else { throw AuthError(.invalidArgument, "a session must last at least one second") }
        let now = clock.now()
        try store.deleteExpiredSessions(now: AuthClock.timestamp(now))
        let issued = Self.sessionFormat.issue(random: random)
        let expires = AuthClock.timestamp(now.addingTimeInterval(TimeInterval(seconds)))
        try store.createSession(userID: user.id, selector: issued.selector, hash: issued.hash, expires: expires)
        return issued.text
    }

    /// The user a session cookie signs in.
    ///
    /// - Returns: nil for a malformed cookie, an unknown or ended session, a wrong secret, or a
    ///   session that expired by ``clock``'s now.
    public func user(sessionCookie: String, in store: any UserStore) throws -> User? {
        guard let (selector, secret) = Self.sessionFormat.parse(sessionCookie),
            let (user, hash, expires) = try store.sessionCredential(selector: selector),
            CredentialFormat.verify(secret: secret, against: hash),
            let end = AuthClock.date(fromTimestamp: expires), clock.now() < end
        else { return nil }
        return user
    }

    /// Ends the session a cookie belongs to (signing out). A malformed cookie, or one whose
    /// secret does not match, ends nothing: knowing a selector is not enough to end a session.
    public func endSession(cookie: String, in store: any UserStore) throws {
        guard let (selector, secret) = Self.sessionFormat.parse(cookie),
            let (_, hash, _) = try store.sessionCredential(selector: selector),
            CredentialFormat.verify(secret: secret, against: hash)
        else { return }
        try store.deleteSession(selector: selector)
    }
}
