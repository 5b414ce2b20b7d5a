import CatalogStorage

/// The database schema, as numbered migrations applied in order inside one transaction each.
/// `PRAGMA user_version` records the last one applied.
///
/// Tables are plain and named for what they hold, so `sqlite3` and Datasette read the file:
/// `catalogs`, `items`, `sections`, `categories`, plus per-catalog full-text tables
/// `title_words_N`, `title_suffixes_N` and `text_words_N` (N = `catalogs.number`), whose
/// vocabularies `search_terms` lists.
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
        """
    ]

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
        for index in version..<currentVersion {
            try connection.transaction {
                try connection.execute(migrations[index])
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
