import Foundation
import CatalogStorage
import SQLiteSupport

/// The database schema, as numbered migrations applied in order inside one transaction each.
/// `PRAGMA user_version` records the last one applied.
///
/// Tables are plain and named for what they hold, so `sqlite3` and Datasette read the file:
/// `catalogs`, `items` (every record, with its JSON), `item_categories`, `sections`, and the
/// search index CatalogCore builds (`search_blobs`, `search_postings`); `users`, `sessions` and
/// `favorites` since version 2.
enum Schema {
    /// Migrations; index 0 brings an empty file to version 1.
    static let migrations: [String] = [
        """
        CREATE TABLE catalogs (
            number INTEGER PRIMARY KEY,         -- internal; items of catalog N have ord in [N<<32, (N+1)<<32)
            id TEXT NOT NULL UNIQUE,            -- public identifier
            title TEXT NOT NULL,
            locale TEXT NOT NULL,
            definition TEXT NOT NULL,           -- CatalogDefinition as JSON
            item_count INTEGER NOT NULL DEFAULT 0,
            section_labels TEXT NOT NULL DEFAULT '[]', -- every label of the locale's index, JSON
            collation_version TEXT NOT NULL DEFAULT '', -- ICU collator version the sort keys were made with
            updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE items (
            ord INTEGER PRIMARY KEY,            -- (catalog number << 32) + position in index order
            catalog_number INTEGER NOT NULL REFERENCES catalogs(number) ON DELETE CASCADE,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            subtitle TEXT,
            description TEXT,
            categories TEXT NOT NULL DEFAULT '[]', -- JSON array of labels
            price TEXT,                          -- exact decimal
            currency TEXT,
            quantity INTEGER,
            country TEXT,
            image TEXT,
            featured INTEGER,
            fields TEXT NOT NULL DEFAULT '{}',   -- extra fields, JSON object
            section INTEGER NOT NULL,            -- index into catalogs.section_labels
            sort_key BLOB NOT NULL               -- ICU collation key of the title
        );
        CREATE UNIQUE INDEX items_id ON items (catalog_number, id);
        CREATE INDEX items_featured ON items (catalog_number, featured) WHERE featured IS NOT NULL;
        CREATE TABLE sections (
            catalog_number INTEGER NOT NULL REFERENCES catalogs(number) ON DELETE CASCADE,
            position INTEGER NOT NULL,           -- index into catalogs.section_labels
            label TEXT NOT NULL,
            item_count INTEGER NOT NULL,
            first_ord INTEGER NOT NULL,
            PRIMARY KEY (catalog_number, position)
        ) WITHOUT ROWID;
        CREATE TABLE categories (
            catalog_number INTEGER NOT NULL REFERENCES catalogs(number) ON DELETE CASCADE,
            number INTEGER NOT NULL,             -- the category's id (catid)
            name TEXT NOT NULL,
            image TEXT,
            position INTEGER NOT NULL,           -- display order
            item_count INTEGER NOT NULL DEFAULT 0,
            mask_bit INTEGER,                    -- bit in scope_masks, for the first 64 categories
            PRIMARY KEY (catalog_number, number),
            UNIQUE (catalog_number, name)
        ) WITHOUT ROWID;
        CREATE TABLE search_terms (
            catalog_number INTEGER NOT NULL REFERENCES catalogs(number) ON DELETE CASCADE,
            index_name TEXT NOT NULL,            -- 'title_words', 'title_suffixes' or 'text_words'
            term TEXT NOT NULL,                  -- a word as indexed (folded)
            documents INTEGER NOT NULL,          -- how many records contain it
            PRIMARY KEY (catalog_number, index_name, term)
        ) WITHOUT ROWID;
        CREATE TABLE scope_masks (
            catalog_number INTEGER PRIMARY KEY REFERENCES catalogs(number) ON DELETE CASCADE,
            masks BLOB NOT NULL                  -- 8 bytes per record in index order: its category bits
        );
        """,
        // 2: accounts, web sessions and favorites. Secrets are stored only as hashes.
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
            catalog_id TEXT NOT NULL,            -- catalogs.id, not its number: survives re-imports
            item_id TEXT NOT NULL,               -- items.id
            added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
            seq INTEGER NOT NULL,                -- order of adding per user (newest first, even within a second)
            PRIMARY KEY (user_id, catalog_id, item_id)
        ) WITHOUT ROWID;
        """,
        // 3: the engine-neutral search index. Catalogs are stored in versions: an import writes
        // a new version beside the current one and switches to it. The old layout's catalogs are
        // kept as legacy tables until they are rebuilt in the new one (see
        // SQLiteDatabase.convertLegacyCatalogs), which needs the collator.
        """
        ALTER TABLE catalogs RENAME TO legacy_catalogs;
        ALTER TABLE items RENAME TO legacy_items;
        DROP TABLE sections;
        DROP TABLE categories;
        DROP TABLE search_terms;
        DROP TABLE scope_masks;
        """ + catalogTablesVersion3,
        // 4: index order and ids in tables of their own, written in key order by imports (a
        // million ordered inserts instead of a million random ones into two indexes of items).
        itemOrderTables + """
            INSERT INTO item_order
                SELECT version, section, sort_key, id, key & 4294967295 FROM items ORDER BY version, section, sort_key, id;
            INSERT INTO item_ids SELECT version, id, key & 4294967295, hash FROM items ORDER BY version, id;
            DROP INDEX items_order;
            DROP INDEX items_id;
            """,
        // 5: live catalogs. A catalog's index is kept in segments (the base an import writes,
        // then one per change), its records change in place, and every change has a number
        // and an entry in the change log.
        liveTables + """
            INSERT INTO segments (segment, version, documents) SELECT version, version, item_count FROM catalogs;
            """,
        // 6: images stored for records (`PUT …/items/{item}/image`), kept in the file.
        storedImageTables,
    ]

    /// The catalog tables of the current layout (version 6).
    static let catalogTables = catalogsAndItems + otherCatalogTables + itemOrderTables + liveTables + storedImageTables

    /// The catalog tables of version 3, as its migration created them.
    static let catalogTablesVersion3 =
        catalogsAndItems + """
            CREATE UNIQUE INDEX items_id ON items (version, id);
            CREATE INDEX items_order ON items (version, section, sort_key, id);
            """ + otherCatalogTables

    /// Catalogs and their records (since version 3).
    private static let catalogsAndItems = """
        CREATE TABLE catalogs (
            number INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,            -- public identifier
            title TEXT NOT NULL,
            locale TEXT NOT NULL,
            definition TEXT NOT NULL,           -- CatalogDefinition as JSON
            item_count INTEGER NOT NULL,
            section_labels TEXT NOT NULL,       -- every label of the locale's index, JSON
            categories TEXT NOT NULL,           -- [{"id","name","image","count"}] in display order, JSON
            collation_version TEXT NOT NULL,    -- ICU collator version the sort keys were made with
            version INTEGER NOT NULL UNIQUE,    -- the current version of its data (items, index)
            updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE items (
            key INTEGER PRIMARY KEY,            -- (version << 32) | document number (search order)
            version INTEGER NOT NULL,
            id TEXT NOT NULL,
            section INTEGER NOT NULL,           -- index into catalogs.section_labels
            sort_key BLOB NOT NULL,             -- ICU collation key of the title
            title TEXT NOT NULL,
            subtitle TEXT,
            categories TEXT NOT NULL,           -- JSON array of labels
            featured INTEGER,
            price REAL,
            hash INTEGER NOT NULL,              -- content hash, to see what a re-import changes
            record TEXT NOT NULL                -- the record as the API serves it, JSON
        );
        """

    /// The rest of version 3: categories, sections, the search index.
    private static let otherCatalogTables = """
        CREATE INDEX items_featured ON items (version, featured) WHERE featured IS NOT NULL;
        CREATE TABLE item_categories (
            version INTEGER NOT NULL,
            category INTEGER NOT NULL,          -- the category's number
            section INTEGER NOT NULL,
            sort_key BLOB NOT NULL,
            id TEXT NOT NULL,
            document INTEGER NOT NULL,
            PRIMARY KEY (version, category, section, sort_key, id)
        ) WITHOUT ROWID;
        CREATE TABLE sections (
            version INTEGER NOT NULL,
            position INTEGER NOT NULL,          -- index into catalogs.section_labels
            label TEXT NOT NULL,
            item_count INTEGER NOT NULL,
            PRIMARY KEY (version, position)
        ) WITHOUT ROWID;
        CREATE TABLE search_blobs (
            version INTEGER NOT NULL,
            name TEXT NOT NULL,                 -- lexicon, title_infix, ranks, browse_order, prices, price_order
            data BLOB NOT NULL,
            PRIMARY KEY (version, name)
        );
        CREATE TABLE search_postings (
            key INTEGER PRIMARY KEY,            -- (version << 40) | (chunk << 32) | term
            data BLOB NOT NULL                  -- one chunk of a term's documents (CatalogCore.PostingChunk)
        );
        """

    /// Index order and ids (since version 4): each written in its key's order by imports.
    private static let itemOrderTables = """
        CREATE TABLE item_order (
            version INTEGER NOT NULL,
            section INTEGER NOT NULL,
            sort_key BLOB NOT NULL,
            id TEXT NOT NULL,
            document INTEGER NOT NULL,          -- the record's number in search order (items.key)
            PRIMARY KEY (version, section, sort_key, id)
        ) WITHOUT ROWID;
        CREATE TABLE item_ids (
            version INTEGER NOT NULL,
            id TEXT NOT NULL,
            document INTEGER NOT NULL,
            hash INTEGER NOT NULL,              -- items.hash: a re-import compares without reading records
            PRIMARY KEY (version, id)
        ) WITHOUT ROWID;
        """

    /// Segments, deletions and the change log (since version 5). The live tables of a catalog
    /// (`item_order`, `item_categories`, `item_ids`) are keyed by its data version and name each
    /// record's segment (NULL: the base, whose number is the version).
    private static let liveTables = """
        ALTER TABLE catalogs ADD COLUMN change INTEGER NOT NULL DEFAULT 0; -- the catalog's change number
        ALTER TABLE item_order ADD COLUMN segment INTEGER;
        ALTER TABLE item_categories ADD COLUMN segment INTEGER;
        ALTER TABLE item_ids ADD COLUMN segment INTEGER;
        CREATE TABLE segments (
            -- items.key >> 32, search_blobs.version, search_postings.key >> 40; AUTOINCREMENT: the
            -- largest number ever used is kept (sqlite_sequence), so none is used twice
            segment INTEGER PRIMARY KEY AUTOINCREMENT,
            version INTEGER NOT NULL,           -- the catalog data version it belongs to (catalogs.version)
            documents INTEGER NOT NULL,         -- documents written in it
            deleted INTEGER NOT NULL DEFAULT 0  -- documents deleted since
        );
        CREATE INDEX segments_version ON segments (version);
        CREATE TABLE deleted_documents (
            segment INTEGER NOT NULL,
            change INTEGER NOT NULL,            -- the change that deleted it
            document INTEGER NOT NULL,
            PRIMARY KEY (segment, change, document)
        ) WITHOUT ROWID;
        CREATE TABLE changes (
            catalog TEXT NOT NULL,              -- catalogs.id
            number INTEGER NOT NULL,            -- the change number
            kind TEXT NOT NULL,                 -- upsert, delete, definition, reload
            item TEXT,                          -- the record's id
            record TEXT,                        -- the record after the change, JSON
            previous TEXT,                      -- the record before it, JSON
            actor TEXT,                         -- who made it
            at TEXT NOT NULL,                   -- when, ISO 8601 UTC
            UNIQUE (catalog, number)
        );
        CREATE INDEX changes_item ON changes (catalog, item, number) WHERE item IS NOT NULL;
        CREATE INDEX changes_at ON changes (at);
        """

    /// Images stored for records (since version 6), keyed by catalog id and record id like the
    /// change log, so they outlive the catalog's data versions.
    private static let storedImageTables = """
        CREATE TABLE stored_images (
            catalog TEXT NOT NULL,              -- catalogs.id
            item TEXT NOT NULL,                 -- the record's id
            data BLOB NOT NULL,                 -- the image as re-encoded on arrival
            content_type TEXT NOT NULL,         -- image/jpeg, image/png or image/webp
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            hash TEXT NOT NULL,                 -- content hash of data (hex): names it in URLs
            stored_at TEXT NOT NULL,            -- ISO 8601 UTC
            PRIMARY KEY (catalog, item)
        );
        """

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// Brings the database up to ``currentVersion``.
    ///
    /// - Throws: `.cannotOpen` when the file was written by a newer version.
    static func migrate(_ connection: Connection) throws {
        let version = try connection.cached("PRAGMA user_version").scalarInt() ?? 0
        if version > currentVersion {
            throw StorageError(
                .cannotOpen,
                "\(connection.path) has schema version \(version), newer than this program's \(currentVersion); upgrade catalog"
            )
        }
        if version == 0 {
            // A new file gets the current layout at once; accounts live in a file of their own.
            try connection.transaction {
                try connection.execute(catalogTables)
                try connection.execute("PRAGMA user_version = \(currentVersion)")
            }
            return
        }
        for index in version..<currentVersion {
            try connection.transaction {
                if index == 2 {
                    // The old layout's full-text tables, one set per catalog.
                    let tables = try connection.prepare(
                        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
                    var names: [String] = []
                    while try tables.step() { names.append(tables.text(0)) }
                    tables.finish()
                    for name in names where name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                        try connection.execute("DROP TABLE \(name)")
                    }
                }
                try connection.execute(migrations[index])
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
