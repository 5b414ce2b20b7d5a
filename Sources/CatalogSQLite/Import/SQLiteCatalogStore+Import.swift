import CatalogCollation
import CatalogModel
import CatalogStorage
import Foundation

/// The import pipeline. Everything happens in one write transaction, so a failure at any record
/// leaves the catalog exactly as it was:
///
/// 1. each record is mapped, given its section and collation key, folded for search, and put
///    into a temporary staging table (a later record with the same id replaces an earlier one);
/// 2. unless replacing, the catalog's records missing from the source are staged too;
/// 3. the catalog's rows and full-text tables are rebuilt in index order from staging, so
///    `ord` (and the full-text rowid) is the position in the index.
extension SQLiteCatalogStore {
    public func importRecords(
        definition: CatalogDefinition,
        replace: Bool,
        records: (_ add: (Record) throws -> Void) throws -> Void,
        progress: ((Int) -> Void)?
    ) throws -> ImportSummary {
        guard CatalogDefinition.isValidID(definition.id) else {
            throw StorageError(
                .invalidArgument,
                "invalid catalog id \"\(definition.id.prefix(80))\": use 1 to 64 letters, digits, '-' or '_'")
        }
        let sections: SectionIndex
        let collator: Collator
        do {
            sections = try SectionIndex(locale: definition.locale)
            collator = try Collator(locale: definition.locale)
        } catch {
            throw StorageError(.invalidArgument, "invalid locale \"\(definition.locale.prefix(40))\": \(error)")
        }
        defer { cache.removeAll() }
        return try connection.transaction {
            let existing = try state(definition.id)
            let number = try existing?.number ?? newCatalogNumber()
            var builder = try StagingBuilder(
                connection: connection, sections: sections, collator: collator, definition: definition,
                existingCategories: existing?.categoryNumbers ?? [:])
            var read = 0
            try records { record in
                try builder.stage(record)
                read += 1
                if read % 10_000 == 0 { progress?(read) }
            }
            progress?(read)
            var updated = 0
            var removed = 0
            if let existing {
                updated = try connection.cached(
                    "SELECT count(*) FROM temp.staging WHERE id IN (SELECT id FROM items WHERE catalog_number = ?)"
                ).bind(existing.number).scalarInt() ?? 0
                if replace {
                    removed = existing.itemCount - updated
                } else {
                    let statement = try connection.prepare(
                        "SELECT \(Self.recordColumns) FROM items WHERE ord >= ? AND ord < ? AND id NOT IN (SELECT id FROM temp.staging)")
                    try statement.bind(existing.ordRange.lowerBound, existing.ordRange.upperBound)
                    while try statement.step() {
                        try builder.stage(record(from: statement, labels: existing.labels))
                    }
                }
                try dropSearchTables(of: existing)
                try connection.cached("DELETE FROM items WHERE ord >= ? AND ord < ?")
                    .bind(existing.ordRange.lowerBound, existing.ordRange.upperBound).run()
            }
            let total = try builder.finish(catalogNumber: number, isNew: existing == nil)
            return ImportSummary(read: read, total: total, added: total - updated - (replace ? 0 : (existing?.itemCount ?? 0) - updated - removed), updated: updated, removed: removed)
        }
    }

    func newCatalogNumber() throws -> Int64 {
        Int64(try connection.cached("SELECT coalesce(max(number), 0) + 1 FROM catalogs").scalarInt() ?? 1)
    }

    /// The full-text token that marks category `number` in the `scope` column.
    static func scopeToken(_ number: Int) -> String { "k\(number)" }
}

/// Stages records and builds the catalog's tables from them.
struct StagingBuilder {
    let connection: Connection
    let sections: SectionIndex
    let collator: Collator
    let definition: CatalogDefinition
    var categoryNumbers: [String: Int]
    var categoryCounts: [String: Int] = [:]
    let insert: Statement

    init(
        connection: Connection, sections: SectionIndex, collator: Collator, definition: CatalogDefinition,
        existingCategories: [String: Int]
    ) throws {
        self.connection = connection
        self.sections = sections
        self.collator = collator
        self.definition = definition
        var numbers = existingCategories
        for category in definition.categories {
            numbers[category.name] = category.id
        }
        categoryNumbers = numbers
        try connection.execute(
            """
            DROP TABLE IF EXISTS temp.staging;
            CREATE TEMP TABLE staging (
                id TEXT PRIMARY KEY, title TEXT, subtitle TEXT, description TEXT, categories TEXT, price TEXT,
                currency TEXT, quantity INTEGER, country TEXT, image TEXT, featured INTEGER, fields TEXT,
                section INTEGER, sort_key BLOB, folded_title TEXT, folded_text TEXT, scope_words TEXT,
                scope_trigrams TEXT);
            """)
        connection.forgetStatements(containing: "temp.staging")
        insert = try connection.prepare(
            """
            INSERT OR REPLACE INTO temp.staging VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    mutating func stage(_ record: Record) throws {
        guard !record.id.isEmpty else { throw StorageError(.invalidArgument, "a record has an empty id") }
        var scopeWords = ""
        var scopeTrigrams = ""
        for label in record.categories {
            let number: Int
            if let known = categoryNumbers[label] {
                number = known
            } else {
                number = (categoryNumbers.values.max() ?? 0) + 1
                categoryNumbers[label] = number
            }
            scopeWords += SQLiteCatalogStore.scopeToken(number) + " "
            scopeTrigrams += "|\(number)|"
        }
        var text = record.title
        for part in [record.subtitle, record.description] {
            if let part { text += "\n" + part }
        }
        for label in record.categories { text += "\n" + label }
        for name in record.fields.keys.sorted() { text += "\n" + record.fields[name]!.joined }

        insert.reset()
        try insert.bind(record.id, at: 1)
        try insert.bind(record.title, at: 2)
        try insert.bind(record.subtitle, at: 3)
        try insert.bind(record.description, at: 4)
        try insert.bind(SQLiteCatalogStore.encodeStrings(record.categories), at: 5)
        try insert.bind(record.price.map { "\($0)" }, at: 6)
        try insert.bind(record.currency, at: 7)
        try insert.bind(record.quantity, at: 8)
        try insert.bind(record.country, at: 9)
        try insert.bind(record.image, at: 10)
        try insert.bind(record.featured, at: 11)
        try insert.bind(SQLiteCatalogStore.encodeFields(record.fields), at: 12)
        try insert.bind(sections.section(for: record.title), at: 13)
        try insert.bind(collator.sortKey(record.title), at: 14)
        try insert.bind(TextFolding.fold(record.title), at: 15)
        try insert.bind(TextFolding.fold(text), at: 16)
        try insert.bind(scopeWords, at: 17)
        try insert.bind(scopeTrigrams, at: 18)
        try insert.run()
    }

    /// Builds the catalog from staging; returns the number of records.
    mutating func finish(catalogNumber number: Int64, isNew: Bool) throws -> Int {
        let base = number << 32
        let definitionJSON = String(decoding: try JSONEncoder.sorted.encode(definition), as: UTF8.self)
        let labelsJSON = String(decoding: try JSONEncoder.sorted.encode(sections.labels), as: UTF8.self)
        if isNew {
            try connection.cached(
                "INSERT INTO catalogs (number, id, title, locale, definition, section_labels) VALUES (?, ?, ?, ?, ?, ?)"
            ).bind(number, definition.id, definition.title, definition.locale, definitionJSON, labelsJSON).run()
        }
        let titleWords = "title_words_\(number)"
        let textWords = "text_words_\(number)"
        let titleTrigrams = "title_trigrams_\(number)"
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS ordering (staging_rowid INTEGER NOT NULL);
            DELETE FROM temp.ordering;
            INSERT INTO temp.ordering (staging_rowid)
                SELECT rowid FROM temp.staging ORDER BY section, sort_key, id;
            INSERT INTO items (ord, catalog_number, id, title, subtitle, description, categories, price, currency,
                    quantity, country, image, featured, fields, section, sort_key)
                SELECT \(base) + o.rowid, \(number), s.id, s.title, s.subtitle, s.description, s.categories, s.price,
                    s.currency, s.quantity, s.country, s.image, s.featured, s.fields, s.section, s.sort_key
                FROM temp.ordering o JOIN temp.staging s ON s.rowid = o.staging_rowid ORDER BY o.rowid;
            CREATE VIRTUAL TABLE \(titleWords) USING fts5 (title, scope, content = '', columnsize = 0,
                detail = column, tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3');
            CREATE VIRTUAL TABLE \(textWords) USING fts5 (text, scope, content = '', columnsize = 0,
                detail = column, tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3');
            CREATE VIRTUAL TABLE \(titleTrigrams) USING fts5 (title, scope, content = '', columnsize = 0,
                detail = full, tokenize = 'trigram');
            INSERT INTO \(titleWords) (rowid, title, scope)
                SELECT \(base) + o.rowid, s.folded_title, s.scope_words
                FROM temp.ordering o JOIN temp.staging s ON s.rowid = o.staging_rowid ORDER BY o.rowid;
            INSERT INTO \(textWords) (rowid, text, scope)
                SELECT \(base) + o.rowid, s.folded_text, s.scope_words
                FROM temp.ordering o JOIN temp.staging s ON s.rowid = o.staging_rowid ORDER BY o.rowid;
            INSERT INTO \(titleTrigrams) (rowid, title, scope)
                SELECT \(base) + o.rowid, s.folded_title, s.scope_trigrams
                FROM temp.ordering o JOIN temp.staging s ON s.rowid = o.staging_rowid ORDER BY o.rowid;
            DELETE FROM sections WHERE catalog_number = \(number);
            DELETE FROM categories WHERE catalog_number = \(number);
            """)
        let total = try connection.cached("SELECT count(*) FROM temp.ordering").scalarInt() ?? 0

        // Sections: count per section index, with the first ord of each.
        let insertSection = try connection.cached(
            "INSERT INTO sections (catalog_number, position, label, item_count, first_ord) VALUES (?, ?, ?, ?, ?)")
        let sectionRows = try connection.prepare(
            "SELECT section, count(*), min(ord) FROM items WHERE ord >= ? AND ord < ? GROUP BY section ORDER BY section")
        try sectionRows.bind(base, base + (1 << 32))
        while try sectionRows.step() {
            let position = sectionRows.int(0)
            let label = sections.labels.indices.contains(position) ? sections.labels[position] : "#"
            insertSection.reset()
            try insertSection.bind(number, position, label, sectionRows.int(1), sectionRows.int64(2)).run()
        }

        // Categories: counts from the staged rows, ids stable across imports.
        var counts: [String: Int] = [:]
        let categoryRows = try connection.prepare("SELECT categories FROM temp.staging WHERE categories != '[]'")
        while try categoryRows.step() {
            for label in SQLiteCatalogStore.decodeStrings(categoryRows.text(0)) { counts[label, default: 0] += 1 }
        }
        let known = Dictionary(definition.categories.enumerated().map { ($0.element.name, ($0.offset, $0.element)) }) { a, _ in a }
        let insertCategory = try connection.cached(
            "INSERT INTO categories (catalog_number, number, name, image, position, item_count) VALUES (?, ?, ?, ?, ?, ?)")
        for (label, categoryNumber) in categoryNumbers where counts[label] != nil || known[label] != nil {
            let position = known[label]?.0 ?? (definition.categories.count + categoryNumber)
            insertCategory.reset()
            try insertCategory.bind(number, categoryNumber, label, known[label]?.1.image, position, counts[label] ?? 0).run()
        }

        try connection.cached(
            """
            UPDATE catalogs SET title = ?, locale = ?, definition = ?, section_labels = ?, item_count = ?,
                updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE number = ?
            """
        ).bind(definition.title, definition.locale, definitionJSON, labelsJSON, total, number).run()
        try connection.execute("DROP TABLE temp.staging; DROP TABLE temp.ordering")
        connection.forgetStatements(containing: "temp.staging")
        return total
    }
}

extension JSONEncoder {
    /// Deterministic JSON: sorted keys, slashes unescaped.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
