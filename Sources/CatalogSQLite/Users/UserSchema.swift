/// The schema of the accounts file (`catalog-users.sqlite`), as numbered migrations like the
/// catalog file's ``Schema``. `PRAGMA user_version` records the last one applied and
/// `PRAGMA application_id` is "CTLU".
///
/// Version 1's tables are those the catalog file held from its version 2 until accounts moved
/// out of it, with the same columns, so rows are copied across unchanged; version 2 adds the
/// roles in catalogs (`grants`), version 3 the API keys (`api_keys`), version 4 the audit log
/// (`audit_events`). Older files are brought up to date when opened for writing.
enum UserSchema {
    /// `PRAGMA application_id` of accounts files ("CTLU").
    static let applicationID = 0x4354_4C55

    /// Migrations; index 0 brings an empty file to version 1.
    static let migrations: [String] = [
        """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE, -- sign-in name, unique ignoring ASCII case
            is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
            password_hash TEXT,                  -- argon2id in PHC string form; NULL: no web sign-in
            token_selector TEXT UNIQUE,          -- public half of the API token
            token_hash BLOB,                     -- BLAKE2b-256 of the token's secret half
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE sessions (
            selector TEXT PRIMARY KEY,           -- public half of the session cookie
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            hash BLOB NOT NULL,                  -- BLAKE2b-256 of the cookie's secret half
            expires TEXT NOT NULL                -- ISO 8601 UTC
        ) WITHOUT ROWID;
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE INDEX sessions_expires ON sessions (expires);
        CREATE TABLE favorites (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            catalog_id TEXT NOT NULL,            -- a catalog's public id: survives re-imports
            item_id TEXT NOT NULL,               -- a record's id in that catalog
            added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            seq INTEGER NOT NULL,                -- order of adding per user (newest first, even within a second)
            PRIMARY KEY (user_id, catalog_id, item_id)
        ) WITHOUT ROWID;
        """,
        // 2: roles in catalogs. Keyed by the catalog's public id, as favorites are, so they
        // survive re-imports; a deleted catalog's roles and favorites go by that id too.
        """
        CREATE TABLE grants (
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            catalog_id TEXT NOT NULL,            -- a catalog's public id
            role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
            PRIMARY KEY (user_id, catalog_id)
        ) WITHOUT ROWID;
        CREATE INDEX grants_catalog ON grants (catalog_id);
        CREATE INDEX favorites_catalog ON favorites (catalog_id);
        """,
        // 3: API keys. A key belongs to an account (and goes with it); only a hash of its
        // secret is kept. Catalogs and actions are comma-separated lists (ids hold no commas).
        """
        CREATE TABLE api_keys (
            name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE, -- unique ignoring ASCII case
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            selector TEXT NOT NULL UNIQUE,       -- public half of the key
            hash BLOB NOT NULL,                  -- BLAKE2b-256 of the key's secret half
            catalogs TEXT NOT NULL,              -- catalog ids, comma-separated; '*': every catalog
            actions TEXT NOT NULL,               -- read,search,write,import,admin (a subset)
            filter TEXT,                         -- record filter, canonical text; NULL: none
            expires TEXT,                        -- ISO 8601 UTC; NULL: never
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            last_used_at TEXT,                   -- ISO 8601 UTC, recorded at most about once a minute
            last_used_from TEXT                  -- client address of that use
        ) WITHOUT ROWID;
        CREATE INDEX api_keys_user ON api_keys (user_id);
        """,
        // 4: the audit log: security events, kept for `catalog serve --audit-keep`. Names are
        // kept as text, not as references, so an event outlives the account it names.
        """
        CREATE TABLE audit_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT, -- in the order stored; never reused, so cursors hold
            at TEXT NOT NULL,                    -- ISO 8601 UTC with milliseconds
            kind TEXT NOT NULL,                  -- sign-in, sign-in-failed, permission-refused, …
            actor TEXT,                          -- the user who acted
            address TEXT,                        -- the client's address
            request_id TEXT,
            catalog TEXT,
            target TEXT,                         -- the user, role or key acted on
            detail TEXT
        );
        CREATE INDEX audit_events_at ON audit_events (at);
        """,
    ]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }
}
