import CatalogStorage

/// The database schema, as numbered migrations applied in order, each recorded in
/// `catalog_schema` in the transaction that applied it. Opening a database migrates it under an
/// advisory lock, so two processes starting at once do not both migrate.
///
/// Tables are plain and named like the SQLite engine's, so `psql` reads them: `catalogs`,
/// `items` (every record, with its JSON), `item_categories`, `sections`, the search index
/// CatalogCore builds (`search_blobs`, `search_postings`) in `segments` with their
/// `deleted_documents`, the change log `changes`, and `users`, `sessions`, `favorites`,
/// `grants` (roles in catalogs), `api_keys`, `audit_events` (the audit log).
/// Sort keys are `bytea` and ids and names `COLLATE "C"`, so every order is byte for byte
/// SQLite's. `catalog_state` holds the data version every write bumps, which readers of other
/// processes compare to see that something changed.
enum PostgresSchema {
    /// Migrations; index 0 brings an empty database to version 1.
    static let migrations: [String] = [
        // 1: catalogs in versions, and the engine-neutral search index.
        """
        CREATE TABLE catalog_state (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            database_id text NOT NULL DEFAULT gen_random_uuid()::text, -- names this database in caches
            data_version bigint NOT NULL DEFAULT 0 -- bumped by every write transaction
        );
        INSERT INTO catalog_state DEFAULT VALUES;
        CREATE SEQUENCE catalog_versions; -- numbers of catalog data versions (and segments since 3), never reused
        CREATE TABLE catalogs (
            id text COLLATE "C" PRIMARY KEY,  -- public identifier
            title text NOT NULL,
            locale text NOT NULL,
            definition text NOT NULL,          -- CatalogDefinition as JSON
            item_count integer NOT NULL,
            section_labels text NOT NULL,      -- every label of the locale's index, JSON
            categories text NOT NULL,          -- [{"id","name","image","count"}] in display order, JSON
            collation_version text NOT NULL,   -- ICU collator version the sort keys were made with
            version bigint NOT NULL UNIQUE,    -- the current version of its data (items, index)
            updated_at text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        );
        CREATE TABLE items (
            version bigint NOT NULL,
            document integer NOT NULL,         -- number in search order: posting lists refer to it
            id text COLLATE "C" NOT NULL,
            section integer NOT NULL,          -- index into catalogs.section_labels
            sort_key bytea NOT NULL,           -- ICU collation key of the title
            title text NOT NULL,
            subtitle text,
            categories text NOT NULL,          -- JSON array of labels
            featured integer,
            price double precision,
            hash bigint NOT NULL,              -- content hash, to see what a re-import changes
            record text NOT NULL,              -- the record as the API serves it, JSON
            PRIMARY KEY (version, document)
        );
        CREATE UNIQUE INDEX items_id ON items (version, id);
        CREATE INDEX items_order ON items (version, section, sort_key, id);
        CREATE INDEX items_featured ON items (version, featured) WHERE featured IS NOT NULL;
        CREATE TABLE item_categories (
            version bigint NOT NULL,
            category integer NOT NULL,         -- the category's number
            section integer NOT NULL,
            sort_key bytea NOT NULL,
            id text COLLATE "C" NOT NULL,
            document integer NOT NULL,
            PRIMARY KEY (version, category, section, sort_key, id)
        );
        CREATE TABLE sections (
            version bigint NOT NULL,
            position integer NOT NULL,         -- index into catalogs.section_labels
            label text NOT NULL,
            item_count integer NOT NULL,
            PRIMARY KEY (version, position)
        );
        CREATE TABLE search_blobs (
            version bigint NOT NULL,
            name text COLLATE "C" NOT NULL,    -- lexicon, title_infix, ranks, browse_order, prices, price_order
            data bytea NOT NULL,
            PRIMARY KEY (version, name)
        );
        -- Keyed by term before chunk: one range read brings several chunks of a term.
        CREATE TABLE search_postings (
            version bigint NOT NULL,
            term integer NOT NULL,
            chunk integer NOT NULL,
            data bytea NOT NULL,               -- one chunk of a term's documents (CatalogCore.PostingChunk)
            PRIMARY KEY (version, term, chunk)
        );
        -- Index data is already compact: stored uncompressed, and posting chunks inside their
        -- row up to a page (only full bitmaps, 8 KB, go to TOAST), so reading one is one fetch.
        ALTER TABLE search_postings ALTER COLUMN data SET STORAGE EXTERNAL;
        ALTER TABLE search_postings SET (toast_tuple_target = 8160);
        ALTER TABLE search_blobs ALTER COLUMN data SET STORAGE EXTERNAL;
        """,
        // 2: accounts, web sessions and favorites. Secrets are stored only as hashes.
        """
        CREATE TABLE users (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            name text COLLATE "C" NOT NULL,    -- sign-in name
            -- the name with ASCII letters lowered: unique, and the order of listings (SQLite's NOCASE)
            name_key text COLLATE "C" NOT NULL UNIQUE
                GENERATED ALWAYS AS (translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')) STORED,
            is_admin boolean NOT NULL DEFAULT false,
            password_hash text,                -- argon2id in PHC string form; NULL: no web sign-in
            token_selector text COLLATE "C" UNIQUE, -- public half of the API token
            token_hash bytea,                  -- BLAKE2b-256 of the token's secret half
            created_at text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        );
        CREATE TABLE sessions (
            selector text COLLATE "C" PRIMARY KEY, -- public half of the session cookie
            user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            hash bytea NOT NULL,               -- BLAKE2b-256 of the cookie's secret half
            expires text COLLATE "C" NOT NULL  -- ISO 8601 UTC
        );
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE INDEX sessions_expires ON sessions (expires);
        CREATE TABLE favorites (
            user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            catalog_id text COLLATE "C" NOT NULL, -- catalogs.id: survives re-imports
            item_id text COLLATE "C" NOT NULL, -- items.id
            added_at text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
            seq bigint NOT NULL,               -- order of adding per user (newest first, even within a second)
            PRIMARY KEY (user_id, catalog_id, item_id)
        );
        """,
        // 3: roles in catalogs. Keyed by the catalog's public id, as favorites are, so they
        // survive re-imports; a deleted catalog's roles and favorites go by that id too.
        """
        CREATE TABLE grants (
            user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            catalog_id text COLLATE "C" NOT NULL, -- catalogs.id
            role text COLLATE "C" NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
            PRIMARY KEY (user_id, catalog_id)
        );
        CREATE INDEX grants_catalog ON grants (catalog_id);
        CREATE INDEX favorites_catalog ON favorites (catalog_id);
        """,
        // 4: live catalogs. A catalog's index is kept in segments (the base an import writes,
        // then one per change): `items`, `search_blobs` and `search_postings` are keyed by the
        // segment's number (`version`; the base's is the catalog's data version), records change
        // in place, and every change has a number and an entry in the change log. A segment's
        // items stay until the segment is dropped (searches read the hits of its deleted
        // documents while they walk its orders); `items.live` names the ones that are live.
        // Every existing catalog becomes one base segment with all its records live.
        """
        ALTER TABLE catalogs ADD COLUMN change integer NOT NULL DEFAULT 0; -- the catalog's change number
        DROP INDEX items_id;
        DROP INDEX items_order;
        DROP INDEX items_featured;
        -- the catalog data version (catalogs.version) while the record is live, NULL once replaced or deleted
        ALTER TABLE items ADD COLUMN live bigint;
        UPDATE items SET live = version;
        CREATE UNIQUE INDEX items_live_id ON items (live, id) WHERE live IS NOT NULL;
        CREATE INDEX items_live_order ON items (live, section, sort_key, id) WHERE live IS NOT NULL;
        CREATE INDEX items_live_featured ON items (live, featured) WHERE live IS NOT NULL AND featured IS NOT NULL;
        -- item_categories holds live records only, keyed by the catalog data version
        ALTER TABLE item_categories ADD COLUMN segment bigint; -- the record's segment; NULL: the base
        CREATE TABLE segments (
            segment bigint PRIMARY KEY,        -- items.version, search_blobs.version, search_postings.version
            version bigint NOT NULL,           -- the catalog data version it belongs to (catalogs.version)
            documents integer NOT NULL,        -- documents written in it
            deleted integer NOT NULL DEFAULT 0 -- documents deleted since
        );
        CREATE INDEX segments_version ON segments (version);
        INSERT INTO segments (segment, version, documents) SELECT version, version, item_count FROM catalogs;
        CREATE TABLE deleted_documents (
            segment bigint NOT NULL,
            change integer NOT NULL,           -- the change that deleted it
            document integer NOT NULL,
            PRIMARY KEY (segment, change, document)
        );
        CREATE TABLE changes (
            catalog text COLLATE "C" NOT NULL, -- catalogs.id
            number integer NOT NULL,           -- the change number: per catalog, gap-free, in commit order
            kind text NOT NULL,                -- upsert, delete, definition, reload
            item text COLLATE "C",             -- the record's id
            record text,                       -- the record after the change, JSON
            previous text,                     -- the record before it, JSON
            actor text,                        -- who made it
            at text COLLATE "C" NOT NULL,      -- when, ISO 8601 UTC with milliseconds
            PRIMARY KEY (catalog, number)
        );
        CREATE INDEX changes_item ON changes (catalog, item, number) WHERE item IS NOT NULL;
        CREATE INDEX changes_at ON changes (at);
        """,
        // 5: images stored for records (`PUT …/items/{item}/image`), in the database so that every
        // server on it serves them. Keyed by catalog id and record id, like the change log.
        """
        CREATE TABLE stored_images (
            catalog text COLLATE "C" NOT NULL, -- catalogs.id
            item text COLLATE "C" NOT NULL,    -- the record's id
            data bytea NOT NULL,               -- the image as re-encoded on arrival
            content_type text NOT NULL,        -- image/jpeg, image/png or image/webp
            width integer NOT NULL,
            height integer NOT NULL,
            hash text NOT NULL,                -- content hash of data (hex): names it in URLs
            stored_at text NOT NULL,           -- ISO 8601 UTC
            PRIMARY KEY (catalog, item)
        );
        """,
        // 6: API keys. A key belongs to an account (and goes with it); only a hash of its secret
        // is kept. Catalogs and actions are comma-separated lists, as in the SQLite engine.
        """
        CREATE TABLE api_keys (
            name text COLLATE "C" NOT NULL,
            -- the name with ASCII letters lowered: unique, and the order of listings (SQLite's NOCASE)
            name_key text COLLATE "C" PRIMARY KEY
                GENERATED ALWAYS AS (translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')) STORED,
            user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            selector text COLLATE "C" NOT NULL UNIQUE, -- public half of the key
            hash bytea NOT NULL,               -- BLAKE2b-256 of the key's secret half
            catalogs text NOT NULL,            -- catalog ids, comma-separated; '*': every catalog
            actions text NOT NULL,             -- read,search,write,import,admin (a subset)
            filter text,                       -- record filter, canonical text; NULL: none
            expires text COLLATE "C",          -- ISO 8601 UTC; NULL: never
            created_at text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
            last_used_at text,                 -- ISO 8601 UTC, recorded at most about once a minute
            last_used_from text                -- client address of that use
        );
        CREATE INDEX api_keys_user ON api_keys (user_id);
        """,
        // 7: the audit log: security events, kept for `catalog serve --audit-keep`. Names are
        // kept as text, not as references, so an event outlives the account it names.
        """
        CREATE TABLE audit_events (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, -- in the order stored
            at text COLLATE "C" NOT NULL,      -- ISO 8601 UTC with milliseconds
            kind text COLLATE "C" NOT NULL,    -- sign-in, sign-in-failed, permission-refused, …
            actor text COLLATE "C",            -- the user who acted
            address text COLLATE "C",          -- the client's address
            request_id text COLLATE "C",
            catalog text COLLATE "C",
            target text COLLATE "C",           -- the user, role or key acted on
            detail text
        );
        CREATE INDEX audit_events_at ON audit_events (at);
        """,
    ]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// The tables of the schema: a database holding any of them without `catalog_schema` is not
    /// a catalog database.
    static let tables = [
        "catalog_state", "catalogs", "items", "item_categories", "sections", "search_blobs", "search_postings", "users",
        "sessions", "favorites", "grants", "segments", "deleted_documents", "changes", "stored_images", "api_keys",
        "audit_events",
    ]

    /// The advisory lock key migrations hold ("CTLM").
    static let migrationLock: Int64 = 0x4354_4C4D

    /// Brings the database up to `target` (``currentVersion`` unless a test wants an older one).
    ///
    /// - Throws: `.cannotOpen` for a database of a newer program, one that is not a catalog
    ///   database, or one not in UTF-8.
    static func migrate(_ connection: PostgresConnection, to target: Int = currentVersion, lockTimeout: Duration)
        throws
    {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT set_config('lock_timeout', $1, true)", [.text(lockTimeout.millisecondsText)])
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int8(migrationLock)])
            let encoding = try connection.query("SELECT current_setting('server_encoding')").text(0, 0)
            guard encoding == "UTF8" else {
                throw StorageError(
                    .cannotOpen, "\(connection.location) uses the encoding \(encoding); catalogs need a UTF8 database")
            }
            let existing = try connection.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
                    + "AND table_name = ANY (string_to_array($1, ','))",
                [.text((tables + ["catalog_schema"]).joined(separator: ","))])
            let names = Set((0..<existing.count).map { existing.text($0, 0) })
            if !names.contains("catalog_schema") && !names.isEmpty {
                throw StorageError(
                    .cannotOpen,
                    "\(connection.location) is not a catalog database (it has a table named \(names.sorted()[0]))")
            }
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS catalog_schema (
                    version integer PRIMARY KEY,
                    applied_at text NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                )
                """)
            let version = try connection.query("SELECT coalesce(max(version), 0) FROM catalog_schema").int(0, 0)
            if version > currentVersion {
                throw StorageError(
                    .cannotOpen,
                    "\(connection.location) has schema version \(version), newer than this program's \(currentVersion); upgrade catalog"
                )
            }
            for index in version..<max(version, target) {
                try connection.execute(migrations[index])
                try connection.query("INSERT INTO catalog_schema (version) VALUES ($1)", [.int(index + 1)])
            }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The schema version of the database `connection` is on.
    static func version(_ connection: PostgresConnection) throws -> Int {
        try connection.query("SELECT coalesce(max(version), 0) FROM catalog_schema").int(0, 0)
    }
}

extension Duration {
    /// "300000ms", for PostgreSQL's time settings.
    var millisecondsText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return "\(max(1, milliseconds))ms"
    }

    /// "300 s", for messages.
    var secondsText: String { "\(components.seconds) s" }
}
