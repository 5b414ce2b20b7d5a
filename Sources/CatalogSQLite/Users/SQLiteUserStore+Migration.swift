import CatalogStorage
import SQLiteSupport

/// Moving accounts out of the catalog file, where versions before the accounts file kept them
/// (the catalog schema's version 2 tables `users`, `sessions` and `favorites`).
extension SQLiteUserStore {
    /// The catalog file's account tables, children first (the order to drop them in).
    static let legacyTables = ["favorites", "sessions", "users"]

    /// Moves the accounts, sessions and favorites the catalog file at `catalogPath` holds into
    /// this file, then drops them from the catalog file. Nothing happens when the catalog file
    /// has no such tables.
    ///
    /// The tables' pages are zeroed as they are dropped (`secure_delete`) and the catalog file's
    /// WAL is checkpointed, so the hashes do not linger in the file's free pages.
    ///
    /// The order is crash-safe: the rows are copied in one transaction of this file, committed
    /// with a full sync; only then are the tables dropped from the catalog file, in one
    /// transaction of their own. A crash before the copy commits leaves everything as it was; a
    /// crash between the two leaves the rows in both files, and the next open finds them copied
    /// already (same ids, same names) and only drops them. Accounts that clash with different
    /// ones of this file (an id or a name taken by someone else) stop the migration with an
    /// error before anything changes.
    ///
    /// - Throws: ``StorageError`` `.constraint` for clashing accounts; `.busy` when the catalog
    ///   file stays locked by a writer.
    func migrateAccounts(from catalogPath: String) throws {
        try connection.cached("ATTACH DATABASE ? AS legacy").bind(catalogPath).run()
        defer { try? connection.execute("DETACH DATABASE legacy") }
        let present =
            try connection.cached(
                "SELECT count(*) FROM legacy.sqlite_schema WHERE type = 'table' AND name IN ('users', 'sessions', 'favorites')"
            ).scalarInt() ?? 0
        guard present > 0 else { return }
        guard present == Self.legacyTables.count else {
            throw StorageError(
                .cannotOpen, "\(catalogPath) holds only some of the tables users, sessions and favorites")
        }
        let clash = try connection.cached(
            """
            SELECT l.name FROM legacy.users AS l JOIN main.users AS m
              ON m.id = l.id OR m.name = l.name COLLATE NOCASE
             WHERE NOT (m.id = l.id AND m.name = l.name) LIMIT 1
            """)
        defer { clash.finish() }
        if try clash.step() {
            throw StorageError(
                .constraint,
                "\(catalogPath) holds an account \"\(clash.text(0))\" that clashes with another in \(path); "
                    + "give this catalog its own accounts file with --users-db")
        }
        clash.finish()
        // A deferred transaction: it locks only this file for writing, and only reads the catalog
        // file, so an import running there does not stand in the way.
        try connection.execute("PRAGMA synchronous = FULL")
        defer { try? connection.execute("PRAGMA synchronous = NORMAL") }
        try connection.transaction(immediate: false) {
            try connection.execute(
                """
                INSERT OR IGNORE INTO main.users (id, name, is_admin, password_hash, token_selector, token_hash, created_at)
                    SELECT id, name, is_admin, password_hash, token_selector, token_hash, created_at FROM legacy.users;
                INSERT OR IGNORE INTO main.sessions (selector, user_id, hash, expires)
                    SELECT selector, user_id, hash, expires FROM legacy.sessions;
                INSERT OR IGNORE INTO main.favorites (user_id, catalog_id, item_id, added_at, seq)
                    SELECT user_id, catalog_id, item_id, added_at, seq FROM legacy.favorites;
                """)
            // Every account is here now, as it was there; otherwise nothing is dropped.
            let missing =
                try connection.cached(
                    """
                    SELECT count(*) FROM legacy.users AS l
                     WHERE NOT EXISTS (SELECT 1 FROM main.users AS m WHERE m.id = l.id AND m.name = l.name
                                       AND m.token_selector IS l.token_selector)
                    """
                ).scalarInt() ?? 0
            guard missing == 0 else {
                throw StorageError(
                    .constraint, "\(missing) accounts of \(catalogPath) could not be copied into \(path)")
            }
        }
        // Dropped pages are overwritten with zeros (not just put on the free list), and the
        // checkpoint moves the zeroed pages into the file and empties its WAL, so no hash stays
        // behind in the catalog file's bytes either.
        try connection.execute("PRAGMA legacy.secure_delete = ON")
        try connection.transaction(immediate: false) {
            for table in Self.legacyTables { try connection.execute("DROP TABLE legacy.\(table)") }
        }
        try? connection.execute("PRAGMA legacy.wal_checkpoint(TRUNCATE)")
    }
}
