/// Accounts, their credentials, web sessions, favorites and roles in catalogs: what every engine
/// stores for the server's sign-in and the `catalog user` commands.
///
/// Engines store secrets only in a form that cannot be used to sign in: a password as its
/// argon2id string, an API token or session as its public selector plus a hash of its secret
/// half. Issuing and checking credentials is `CatalogAuth`'s work; a store only keeps them.
///
/// Like ``CatalogStore``, methods are synchronous and blocking, and a store value belongs to one
/// thread at a time. Every write is one transaction. Times are ISO 8601 strings in UTC
/// (`2024-05-01T12:00:00Z`), which sort as they compare.
public protocol UserStore: AnyObject {
    // MARK: Accounts

    /// Creates an account with its first API token.
    ///
    /// - Parameters:
    ///   - name: the sign-in name (``User/isValidName(_:)``); unique ignoring ASCII case.
    ///   - isAdmin: whether the user is an administrator (``User/isAdmin``).
    ///   - passwordHash: the encoded password hash for web sign-in, or nil for token-only accounts.
    ///   - tokenSelector: the public half of the API token, used to look it up.
    ///   - tokenHash: the hash of the token's secret half.
    /// - Returns: the new user.
    /// - Throws: ``StorageError`` `.constraint` when a user with that name exists
    ///   ("a user named "ada" already exists"), `.invalidArgument` for an invalid name.
    func addUser(
        name: String, isAdmin: Bool, passwordHash: String?, tokenSelector: String, tokenHash: [UInt8]
    ) throws -> User

    /// The user named `name` (ignoring ASCII case), or nil.
    func user(named name: String) throws -> User?

    /// Every user, ordered by name.
    func users() throws -> [User]

    /// Removes the user named `name` with their sessions, favorites and roles.
    ///
    /// - Returns: false when there was no such user.
    func removeUser(named name: String) throws -> Bool

    // MARK: Passwords

    /// Sets (or, with nil, clears) the user's password hash and ends their web sessions, so a
    /// changed password signs everyone else out.
    ///
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such user.
    func setPasswordHash(_ hash: String?, forUser name: String) throws

    /// The user named `name` with their password hash; nil when there is no such user or the user
    /// has no password.
    func passwordHash(forUser name: String) throws -> (user: User, hash: String)?

    // MARK: API tokens

    /// Replaces the user's API token: the old one stops working at once.
    ///
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such user.
    func replaceToken(forUser name: String, selector: String, hash: [UInt8]) throws

    /// The owner of the API token whose public half is `selector`, with the hash of its secret
    /// half to check the presented secret against; nil for an unknown selector.
    func tokenCredential(selector: String) throws -> (user: User, hash: [UInt8])?

    // MARK: Web sessions

    /// Records a web session.
    ///
    /// - Parameters:
    ///   - userID: the signed-in user's ``User/id``.
    ///   - selector: the public half of the session cookie.
    ///   - hash: the hash of the cookie's secret half.
    ///   - expires: when the session ends, ISO 8601 UTC.
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such user.
    func createSession(userID: Int64, selector: String, hash: [UInt8], expires: String) throws

    /// The session whose public half is `selector`: its user, the hash of its secret half and when
    /// it expires (the store does not check the time); nil for an unknown selector.
    func sessionCredential(selector: String) throws -> (user: User, hash: [UInt8], expires: String)?

    /// Ends a session; nothing happens when it does not exist.
    func deleteSession(selector: String) throws

    /// Removes every session that expires at or before `now` (ISO 8601 UTC).
    func deleteExpiredSessions(now: String) throws

    // MARK: Favorites

    /// The user's favorites, newest first.
    func favorites(ofUser id: Int64) throws -> [Favorite]

    /// Marks a record as a favorite of the user.
    ///
    /// The record is named by its catalog's public id and its own id; the store does not check
    /// that it exists, so favorites outlive re-imports.
    ///
    /// - Returns: true when it was newly added, false when it already was a favorite.
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such user, `.invalidArgument`
    ///   for an invalid catalog id or an empty or oversized item id.
    func addFavorite(userID: Int64, catalog: String, item: String) throws -> Bool

    /// Unmarks a favorite.
    ///
    /// - Returns: true when it was a favorite.
    func removeFavorite(userID: Int64, catalog: String, item: String) throws -> Bool

    // MARK: Roles in catalogs

    /// Gives the user a role in a catalog, replacing the one they had there.
    ///
    /// The catalog is named by its public id; the store does not check that it exists, so a
    /// role can be given before the catalog's first import and outlives re-imports (as favorites
    /// do). ``removeCatalog(_:)`` drops it with the catalog.
    ///
    /// - Parameters:
    ///   - name: the user's name (ignoring ASCII case).
    ///   - catalog: the catalog's id (``CatalogDefinition/isValidID(_:)``).
    ///   - role: the role.
    /// - Returns: the role the user had there before, or nil.
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such user, `.invalidArgument`
    ///   for an invalid catalog id.
    @discardableResult
    func grant(user name: String, catalog: String, role: CatalogRole) throws -> CatalogRole?

    /// Takes the user's role in a catalog away.
    ///
    /// - Returns: true when they had one; false when they had none or there is no such user.
    func revoke(user name: String, catalog: String) throws -> Bool

    /// The user's roles, by catalog id (empty for an unknown id).
    func roles(ofUser id: Int64) throws -> [String: CatalogRole]

    /// The members of a catalog with their roles, ordered by name (empty for an unknown id).
    func members(ofCatalog id: String) throws -> [CatalogMember]

    /// Forgets a catalog in every account: every user's role in it, every favorite of its
    /// records, and the catalog in every API key's list. Called when the catalog is deleted, so a catalog made later with the same id
    /// starts with no members and no favorites. Nothing happens for an unknown id.
    func removeCatalog(_ id: String) throws

    // MARK: API keys

    /// Stores a new API key for an account.
    ///
    /// - Parameter key: the key (its owner by ``StoredAPIKey/user``; its creation time is the
    ///   store's now), with its selector and hash.
    /// - Returns: the key as stored.
    /// - Throws: ``StorageError`` `.userNotFound` when there is no such account, `.constraint`
    ///   when a key of that name exists ("a key named "shop-app" already exists"),
    ///   `.invalidArgument` for an invalid name or catalog id, or no catalogs or actions.
    @discardableResult
    func addKey(_ key: NewAPIKey) throws -> StoredAPIKey

    /// The key named `name` (ignoring ASCII case), or nil.
    func key(named name: String) throws -> StoredAPIKey?

    /// The keys of the account `userID`, or every key when nil, ordered by name.
    func keys(ofUser userID: Int64?) throws -> [StoredAPIKey]

    /// Removes (revokes) a key: it stops working at once.
    ///
    /// - Returns: false when there was no such key.
    func removeKey(named name: String) throws -> Bool

    /// The key whose public half is `selector`, with its account and the hash of its secret half
    /// to check the presented secret against; nil for an unknown selector. The store does not
    /// check the expiry.
    func keyCredential(selector: String) throws -> (key: StoredAPIKey, user: User, hash: [UInt8])?

    /// Records that a key was used at `time` (ISO 8601 UTC) from `address`; nothing happens for
    /// an unknown key.
    func recordKeyUse(named name: String, at time: String, from address: String?) throws
    // MARK: Audit log

    /// Stores security events (``AuditEvent``), in one transaction, numbering them in order.
    /// Storing events does not count as a change of the catalogs: readers' caches stay valid.
    ///
    /// - Throws: ``StorageError`` when the store cannot write.
    func appendAuditEvents(_ events: [AuditEvent]) throws

    /// The stored events `query` asks for, in the order they were stored (newest last).
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent]

    /// Removes the events older than `time` (ISO 8601 UTC); returns how many went.
    @discardableResult
    func pruneAuditEvents(before time: String) throws -> Int

    // MARK: Copying

    /// Every account with its credentials, sessions, favorites, roles and API keys, ordered by name (what
    /// `catalog copy --users` reads).
    func accounts() throws -> [StoredAccount]

    /// Stores an account as another database had it, in one transaction: its name, admin flag,
    /// creation time, password hash, token, sessions, favorites (in their order, with their
    /// times), roles in catalogs and API keys. An account of the same name (ignoring ASCII case) is
    /// replaced.
    ///
    /// - Returns: the account as stored here (with this database's id).
    /// - Throws: ``StorageError`` `.invalidArgument` for an invalid name or a role's invalid
    ///   catalog id, `.constraint` when another account here has the same token or a session's
    ///   selector.
    @discardableResult
    func restore(_ account: StoredAccount) throws -> User
}
