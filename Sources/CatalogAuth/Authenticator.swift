import CatalogStorage
import Foundation

/// Issues and checks credentials against a ``UserStore``: API tokens, passwords and web
/// sessions.
///
/// A value type without state of its own: the clock and the random source are injected, so
/// tests are exact. Wrong, malformed or expired credentials give nil, never an error; errors are
/// the store's (``StorageError``) or a refused password (``AuthError``).
///
/// ```swift
/// let auth = Authenticator()
/// let (user, token) = try auth.addUser(name: "ada", isAdmin: true, password: nil, in: store)
/// try auth.user(bearerToken: token, in: store)  // ada
/// ```
public struct Authenticator: Sendable {
    /// The time sessions are started and checked at.
    public var clock: AuthClock
    /// Where selectors and secrets come from.
    public var random: RandomBytes
    /// How passwords are hashed and checked.
    public var passwordHasher: PasswordHasher

    /// How long a web session lasts unless the caller says otherwise: 30 days.
    public static let defaultSessionLifetime: Duration = .seconds(30 * 24 * 60 * 60)

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - clock: the time for sessions (default: the system clock).
    ///   - random: the source of secrets (default: the system's secure source).
    ///   - passwordHasher: argon2id with interactive limits unless given.
    public init(clock: AuthClock = .system, random: RandomBytes = .system, passwordHasher: PasswordHasher = .init()) {
        self.clock = clock
        self.random = random
        self.passwordHasher = passwordHasher
    }

    // MARK: - Accounts

    /// Creates an account with a new API token and, optionally, a password for web sign-in.
    ///
    /// - Parameters:
    ///   - name: the sign-in name (``User/isValidName(_:)``).
    ///   - isAdmin: whether the user may change catalogs and accounts.
    ///   - password: the web sign-in password, or nil for a token-only account.
    ///   - store: where the account goes.
    /// - Returns: the user and their API token's text, which exists nowhere else: show it once.
    /// - Throws: ``AuthError`` `.invalidPassword`; ``StorageError`` `.constraint` for a taken name,
    ///   `.invalidArgument` for an invalid one.
    public func addUser(
        name: String, isAdmin: Bool, password: String?, in store: any UserStore
    ) throws -> (user: User, token: String) {
        let passwordHash = try password.map { password throws(AuthError) in try passwordHasher.hash(password) }
        let token = APIToken.issue(random: random)
        let user = try store.addUser(
            name: name, isAdmin: isAdmin, passwordHash: passwordHash, tokenSelector: token.selector,
            tokenHash: token.hash)
        return (user, token.text)
    }

    /// Issues a new API token for a user; the old one stops working.
    ///
    /// - Returns: the new token's text: show it once.
    /// - Throws: ``StorageError`` `.userNotFound`.
    public func replaceToken(forUser name: String, in store: any UserStore) throws -> String {
        let token = APIToken.issue(random: random)
        try store.replaceToken(forUser: name, selector: token.selector, hash: token.hash)
        return token.text
    }

    /// Sets a user's web sign-in password (nil removes it); their web sessions end.
    ///
    /// - Throws: ``AuthError`` `.invalidPassword`; ``StorageError`` `.userNotFound`.
    public func setPassword(_ password: String?, forUser name: String, in store: any UserStore) throws {
        let hash = try password.map { password throws(AuthError) in try passwordHasher.hash(password) }
        try store.setPasswordHash(hash, forUser: name)
    }

    // MARK: - Checking credentials

    /// The owner of an API token.
    ///
    /// - Parameter bearerToken: the token as presented (without `Bearer `).
    /// - Returns: nil for a malformed token, an unknown or replaced one, or a wrong secret.
    public func user(bearerToken: String, in store: any UserStore) throws -> User? {
        guard let (selector, secret) = APIToken.parse(bearerToken),
            let (user, hash) = try store.tokenCredential(selector: selector),
            APIToken.verify(secret: secret, against: hash)
        else { return nil }
        return user
    }

    /// The user a name and password sign in, for the web app's sign-in form.
    ///
    /// An unknown name costs the same password check as a wrong password, so the answer's timing
    /// does not reveal which names exist.
    ///
    /// - Returns: nil for an unknown name, a user without a password, or a wrong password.
    public func user(name: String, password: String, in store: any UserStore) throws -> User? {
        guard case .signedIn(let user) = try checkPassword(name: name, password: password, in: store) else {
            return nil
        }
        return user
    }

    /// How a sign-in with a name and password went: the user, or why not (for the audit log;
    /// clients are told only that the name or the password is wrong).
    public enum PasswordCheck: Sendable, Equatable {
        /// The password is the user's.
        case signedIn(User)
        /// No account has the name.
        case unknownUser
        /// The account has no password (it signs in with its API token only).
        case noPassword
        /// The password is not the account's.
        case wrongPassword

        /// The reason's name in the audit log: `unknown-user`, `no-password`, `wrong-password`;
        /// nil for a sign-in.
        public var failure: String? {
            switch self {
            case .signedIn: nil
            case .unknownUser: "unknown-user"
            case .noPassword: "no-password"
            case .wrongPassword: "wrong-password"
            }
        }
    }

    /// Checks a name and password, as ``user(name:password:in:)`` does (an unknown name costs
    /// the same password check), and says why a sign-in failed.
    public func checkPassword(name: String, password: String, in store: any UserStore) throws -> PasswordCheck {
        guard User.isValidName(name), let (user, hash) = try store.passwordHash(forUser: name) else {
            passwordHasher.verifyAgainstDummy(password)
            // Told apart only after the check, which costs the same either way.
            return try User.isValidName(name) && store.user(named: name) != nil ? .noPassword : .unknownUser
        }
        return passwordHasher.verify(password, against: hash) ? .signedIn(user) : .wrongPassword
    }
}
