import CatalogCollation
import CatalogModel
import CatalogStorage
import Foundation

/// The import pipeline. Everything happens in one write transaction, so a failure at any record
/// leaves the catalog exactly as it was:
///
/// 1. each record gets its section, collation key and scope, and is appended to a temporary
///    staging table (sequential writes, no index);
/// 2. unless replacing, the catalog's records missing from the source are staged too;
/// 3. one sort of the keys alone puts staging in index order (SQLite's sorter: bounded memory);
/// 4. one pass in that order writes `items`, the three full-text tables and the scope masks, so
///    `ord` (and every full-text rowid) is the position in the index.
///
/// Two records with the same id in one source are an error (the `items` uniqueness check finds
/// them at no extra cost), so a typo never silently drops a record.
extension SQLiteCatalogStore {
    public func importRecords(
        definition: CatalogDefinition,
        replace: Bool,
        records: (_ add: (Record) throws -> Void) throws -> CatalogDefinition?,
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
        defer {
            cache.removeAll()
            try? connection.execute("DROP TABLE IF EXISTS temp.staging; DROP TABLE IF EXISTS temp.search_input")
            connection.forgetStatements(containing: "temp.")
        }
        // No memory map while importing: mapped pages of a growing file would count as resident.
        try connection.execute("PRAGMA mmap_size = 0")
        defer { try? connection.execute("PRAGMA mmap_size = \(Self.mmapSize)") }
        return try connection.transaction {
            let existing = try state(definition.id)
            let number = try existing?.number ?? newCatalogNumber()
            var builder = try StagingBuilder(
                connection: connection, sections: sections, collator: collator, definition: definition,
                existingCategories: existing?.categoryNumbers ?? [:])
            var read = 0
            let learned = try records { record in
                try builder.stage(record)
                read += 1
                if read % 10_000 == 0 { progress?(read) }
            }
            progress?(read)
            if let learned {
                guard learned.id == definition.id, learned.locale == definition.locale else {
                    throw StorageError(
                        .invalidArgument, "an import cannot change a catalog's id or locale while reading")
                }
                builder.definition = learned
            }
            var updated = 0
            var removed = 0
            if let existing {
                try connection.timed("staging index") {
                    try connection.execute("CREATE INDEX temp.staging_id ON staging (id)")
                }
                updated =
                    try connection.cached(
                        "SELECT count(*) FROM items WHERE ord >= ? AND ord < ? AND id IN (SELECT id FROM temp.staging)"
                    ).bind(existing.ordRange.lowerBound, existing.ordRange.upperBound).scalarInt() ?? 0
                if replace {
                    removed = existing.itemCount - updated
                } else {
                    let statement = try connection.prepare(
                        """
                        SELECT \(Self.recordColumns) FROM items WHERE ord >= ? AND ord < ?
                            AND id NOT IN (SELECT id FROM temp.staging)
                        """)
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
            return ImportSummary(read: read, total: total, added: read - updated, updated: updated, removed: removed)
        }
    }

    /// Rebuilds a catalog from its own records: new sections, sort keys and search tables. Run
    /// after the ICU version changed (sort keys are only comparable within one version).
    @discardableResult
    public func reindex(_ id: String) throws -> ImportSummary {
        let state = try requireState(id)
        let labels = state.labels
        let range = state.ordRange
        return try importRecords(
            definition: state.definition, replace: true,
            records: { add in
                let statement = try connection.prepare(
                    "SELECT \(Self.recordColumns) FROM items WHERE ord >= ? AND ord < ? ORDER BY ord")
                try statement.bind(range.lowerBound, range.upperBound)
                while try statement.step() { try add(record(from: statement, labels: labels)) }
                return nil
            }, progress: nil)
    }

    /// Catalogs whose sort keys came from another ICU collator version than this build's.
    public func catalogsNeedingReindex() throws -> [String] {
        var stale: [String] = []
        let statement = try connection.cached("SELECT id, locale, collation_version FROM catalogs ORDER BY id")
        try statement.forEachRow { row in
            if let collator = try? Collator(locale: row.text(1)), collator.version != row.text(2) {
                stale.append(row.text(0))
            }
        }
        return stale
    }

    func newCatalogNumber() throws -> Int64 {
        Int64(try connection.cached("SELECT coalesce(max(number), 0) + 1 FROM catalogs").scalarInt() ?? 1)
    }

    /// The full-text token that marks category `number`. It starts with a private-use character,
    /// which folding removes from every text, so no user input can produce it.
    static func scopeToken(_ number: Int) -> String { "\u{E000}\(number)" }
}

/// Stages records and builds the catalog's tables from them.
struct StagingBuilder {
    let connection: Connection
    let sections: SectionIndex
    let collator: Collator
    var definition: CatalogDefinition
    var categoryNumbers: [String: Int]
    var categoryBits: [String: Int] = [:]
    var categoryCounts: [String: Int] = [:]
    let insert: Statement
    var stagingClock = Stopwatch()

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
        for category in definition.categories where categoryBits.count < 64 && categoryBits[category.name] == nil {
            categoryBits[category.name] = categoryBits.count
        }
        try connection.execute(
            """
            DROP TABLE IF EXISTS temp.staging;
            CREATE TEMP TABLE staging (
                id TEXT, title TEXT, subtitle TEXT, description TEXT, categories TEXT, price TEXT, currency TEXT,
                quantity INTEGER, country TEXT, image TEXT, featured INTEGER, fields TEXT, section INTEGER,
                sort_key BLOB, scope_tokens TEXT, scope_mask INTEGER);
            """)
        connection.forgetStatements(containing: "temp.")
        insert = try connection.prepare(
            "INSERT INTO temp.staging VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    }

    /// Appends one record to staging with its section, collation key and scope.
    mutating func stage(_ record: Record) throws {
        stagingClock.start()
        defer { stagingClock.stop() }
        guard !record.id.isEmpty else { throw StorageError(.invalidArgument, "a record has an empty id") }
        var scopeTokens = ""
        var mask: UInt64 = 0
        for label in record.categories {
            let number: Int
            if let known = categoryNumbers[label] {
                number = known
            } else {
                number = (categoryNumbers.values.max() ?? 0) + 1
                categoryNumbers[label] = number
            }
            categoryCounts[label, default: 0] += 1
            scopeTokens += " " + SQLiteCatalogStore.scopeToken(number)
            if let bit = bit(for: label) { mask |= 1 << UInt64(bit) }
        }
        insert.reset()
        try insert.bind(record.id, at: 1)
        try insert.bind(record.title, at: 2)
        try insert.bind(record.subtitle, at: 3)
        try insert.bind(record.description, at: 4)
        try insert.bind(StoredJSON.encode(strings: record.categories), at: 5)
        try insert.bind(record.price.map { "\($0)" }, at: 6)
        try insert.bind(record.currency, at: 7)
        try insert.bind(record.quantity, at: 8)
        try insert.bind(record.country, at: 9)
        try insert.bind(record.image, at: 10)
        try insert.bind(record.featured, at: 11)
        try insert.bind(StoredJSON.encode(fields: record.fields), at: 12)
        try insert.bind(sections.section(for: record.title), at: 13)
        try insert.bind(collator.sortKey(record.title), at: 14)
        try insert.bind(scopeTokens, at: 15)
        try insert.bind(Int64(bitPattern: mask), at: 16)
        try insert.run()
    }

    /// The bit of `label` in the scope masks: the first 64 categories get one, in order of
    /// appearance (the definition's categories first).
    private mutating func bit(for label: String) -> Int? {
        if let bit = categoryBits[label] { return bit }
        guard categoryBits.count < 64 else { return nil }
        let bit = categoryBits.count
        categoryBits[label] = bit
        return bit
    }

    /// Builds the catalog from staging; returns the number of records.
    ///
    /// One sort of the keys alone (section, collation key, id: small records, so SQLite's sorter
    /// mostly stays in memory), then one pass in that order that writes each record to `items`
    /// and to the three full-text tables, and collects sections and scope masks.
    mutating func finish(catalogNumber number: Int64, isNew: Bool) throws -> Int {
        connection.report("staging", seconds: stagingClock.total)
        let base = number << 32
        let definitionJSON = String(decoding: try JSONEncoder.sorted.encode(definition), as: UTF8.self)
        let labelsJSON = String(decoding: try JSONEncoder.sorted.encode(sections.labels), as: UTF8.self)
        if isNew {
            try connection.cached(
                "INSERT INTO catalogs (number, id, title, locale, definition, section_labels) VALUES (?, ?, ?, ?, ?, ?)"
            ).bind(number, definition.id, definition.title, definition.locale, definitionJSON, labelsJSON).run()
        }
        let titleWords = "title_words_\(number)"
        let titleSuffixes = "title_suffixes_\(number)"
        let textWords = "text_words_\(number)"
        let fullText = "content = '', columnsize = 0, detail = none, tokenize = 'unicode61 remove_diacritics 0'"
        try connection.execute(
            """
            CREATE VIRTUAL TABLE \(titleWords) USING fts5 (words, \(fullText), prefix = '1 2 3 4 5 6 7 8');
            CREATE VIRTUAL TABLE \(titleSuffixes) USING fts5 (suffixes, \(fullText), prefix = '3 4 5 6 7 8');
            CREATE VIRTUAL TABLE \(textWords) USING fts5 (words, \(fullText), prefix = '3 4 5 6 7 8');
            """)

        var sortClock = Stopwatch()
        sortClock.start()
        var order: [Int64] = []
        let sortStatement = try connection.prepare("SELECT rowid FROM temp.staging ORDER BY section, sort_key, id")
        while try sortStatement.step() { order.append(sortStatement.int64(0)) }
        sortClock.stop()
        connection.report("sort", seconds: sortClock.total)

        // A large import rebuilds the id index once, sorted, instead of inserting a million
        // random keys into it.
        let rebuildIndex = order.count >= Self.indexRebuildThreshold
        if rebuildIndex { try connection.execute("DROP INDEX items_id") }

        let read = try connection.prepare(
            """
            SELECT id, title, subtitle, description, categories, price, currency, quantity, country, image,
                featured, fields, section, sort_key, scope_tokens, scope_mask FROM temp.staging WHERE rowid = ?
            """)
        let writeItem = try connection.prepare(
            """
            INSERT INTO items (ord, catalog_number, id, title, subtitle, description, categories, price, currency,
                quantity, country, image, featured, fields, section, sort_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // Full-text input goes to a temporary table first: FTS5 builds far faster from one
        // INSERT … SELECT per table than from a million single-row inserts interleaved.
        try connection.execute(
            """
            DROP TABLE IF EXISTS temp.search_input;
            CREATE TEMP TABLE search_input (title_words TEXT, title_suffixes TEXT, text_words TEXT);
            """)
        connection.forgetStatements(containing: "temp.search_input")
        let writeSearchInput = try connection.prepare(
            "INSERT INTO temp.search_input (rowid, title_words, title_suffixes, text_words) VALUES (?, ?, ?, ?)")
        var masks = [UInt8]()
        masks.reserveCapacity(order.count * 8)
        var sectionCounts: [(section: Int, count: Int, first: Int64)] = []
        var clocks = (items: Stopwatch(), search: Stopwatch())

        for (index, rowid) in order.enumerated() {
            let ord = base + Int64(index) + 1
            read.reset()
            try read.bind(rowid)
            guard try read.step() else { continue }
            clocks.items.start()
            writeItem.reset()
            try writeItem.bind(ord, at: 1)
            try writeItem.bind(number, at: 2)
            for column in 0..<14 {
                try writeItem.bind(binding: read.value(Int32(column)), at: Int32(column + 3))
            }
            try Self.insertItem(writeItem, id: read.text(0))
            clocks.items.stop()

            clocks.search.start()
            let title = read.text(1)
            let scope = read.text(14)
            let foldedTitle = TextFolding.fold(title)
            let titleText: String = foldedTitle + scope
            let suffixText: String = SearchIndexText.suffixes(ofFolded: foldedTitle) + scope
            var record = Record(id: "", title: title)
            record.subtitle = read.optionalText(2)
            record.description = read.optionalText(3)
            record.categories = StoredJSON.decodeStrings(read.text(4))
            record.fields = StoredJSON.decodeFields(read.text(11))
            let allText: String = SearchIndexText.allText(of: record, foldedTitle: foldedTitle) + scope
            writeSearchInput.reset()
            try writeSearchInput.bind(ord, titleText, suffixText, allText).run()
            clocks.search.stop()

            let mask = UInt64(bitPattern: read.int64(15))
            for shift in stride(from: 0, to: 64, by: 8) {
                masks.append(UInt8(truncatingIfNeeded: mask >> UInt64(shift)))
            }
            let section = read.int(12)
            if sectionCounts.last?.section == section {
                sectionCounts[sectionCounts.count - 1].count += 1
            } else {
                sectionCounts.append((section, 1, ord))
            }
        }
        read.finish()
        if rebuildIndex {
            try connection.timed("id index") { try Self.rebuildIDIndex(connection, catalogNumber: number) }
        }
        connection.report("items", seconds: clocks.items.total)
        connection.report("search input", seconds: clocks.search.total)
        for (table, column, source) in [
            (titleWords, "words", "title_words"), (titleSuffixes, "suffixes", "title_suffixes"),
            (textWords, "words", "text_words"),
        ] {
            try connection.timed(table) {
                try connection.execute(
                    "INSERT INTO \(table) (rowid, \(column)) SELECT rowid, \(source) FROM temp.search_input ORDER BY rowid"
                )
            }
        }
        try connection.execute("DROP TABLE temp.search_input")
        try connection.timed("search terms") { try writeSearchTerms(number: number) }
        let total = order.count

        try connection.timed("sections, masks, categories") {
            try writeSections(sectionCounts, number: number)
            try connection.cached("INSERT OR REPLACE INTO scope_masks (catalog_number, masks) VALUES (?, ?)")
                .bind(number, masks).run()
            try writeCategories(number: number)
        }
        try connection.cached(
            """
            UPDATE catalogs SET title = ?, locale = ?, definition = ?, section_labels = ?, item_count = ?,
                collation_version = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE number = ?
            """
        ).bind(definition.title, definition.locale, definitionJSON, labelsJSON, total, collator.version, number).run()
        return total
    }

    /// From this many records on, the id index is dropped and rebuilt around the bulk insert.
    static let indexRebuildThreshold = 50_000

    /// Creates the id index again, naming a duplicate id when there is one.
    private static func rebuildIDIndex(_ connection: Connection, catalogNumber: Int64) throws(StorageError) {
        do {
            try connection.execute("CREATE UNIQUE INDEX items_id ON items (catalog_number, id)")
        } catch {
            guard error.code == .constraint else { throw error }
            let duplicate = try connection.prepare(
                "SELECT id FROM items WHERE catalog_number = ? GROUP BY id HAVING count(*) > 1 LIMIT 1")
            try duplicate.bind(catalogNumber)
            let id = try duplicate.step() ? duplicate.text(0) : "?"
            duplicate.finish()
            throw StorageError(.constraint, "two records have the id \"" + String(id.prefix(200)) + "\"")
        }
    }

    /// Runs the prepared item insert, naming the id when it is a duplicate.
    private static func insertItem(_ statement: Statement, id: String) throws(StorageError) {
        do {
            try statement.run()
        } catch {
            guard error.code == .constraint else { throw error }
            let message = "two records have the id \"" + String(id.prefix(200)) + "\""
            throw StorageError(.constraint, message)
        }
    }

    /// The vocabulary of each full-text table, so a prefix expands to its words with an index
    /// range scan (FTS5's own `fts5vocab` counts documents by reading whole doclists: fine once
    /// per import, far too slow per keystroke).
    private func writeSearchTerms(number: Int64) throws {
        try connection.cached("DELETE FROM search_terms WHERE catalog_number = ?").bind(number).run()
        for name in ["title_words", "title_suffixes", "text_words"] {
            let table = "\(name)_\(number)"
            try connection.execute(
                """
                CREATE VIRTUAL TABLE temp.import_vocabulary USING fts5vocab(main, \(table), 'row');
                INSERT INTO search_terms (catalog_number, index_name, term, documents)
                    SELECT \(number), '\(name)', term, doc FROM temp.import_vocabulary
                    WHERE term NOT GLOB '\u{E000}*';
                DROP TABLE temp.import_vocabulary;
                """)
        }
    }

    /// Sections: the count and first ord of each non-empty section.
    private func writeSections(_ counts: [(section: Int, count: Int, first: Int64)], number: Int64) throws {
        try connection.cached("DELETE FROM sections WHERE catalog_number = ?").bind(number).run()
        let insertSection = try connection.cached(
            "INSERT INTO sections (catalog_number, position, label, item_count, first_ord) VALUES (?, ?, ?, ?, ?)")
        for entry in counts {
            let label = sections.labels.indices.contains(entry.section) ? sections.labels[entry.section] : "#"
            insertSection.reset()
            try insertSection.bind(number, entry.section, label, entry.count, entry.first).run()
        }
    }

    /// Categories: counts from the staged records, ids stable across imports.
    private func writeCategories(number: Int64) throws {
        try connection.cached("DELETE FROM categories WHERE catalog_number = ?").bind(number).run()
        let known = Dictionary(definition.categories.enumerated().map { ($0.element.name, ($0.offset, $0.element)) }) {
            first, _ in first
        }
        let insertCategory = try connection.cached(
            """
            INSERT INTO categories (catalog_number, number, name, image, position, item_count, mask_bit)
                VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (label, categoryNumber) in categoryNumbers where categoryCounts[label] != nil || known[label] != nil {
            let position = known[label]?.0 ?? (definition.categories.count + categoryNumber)
            insertCategory.reset()
            try insertCategory.bind(
                number, categoryNumber, label, known[label]?.1.image, position, categoryCounts[label] ?? 0,
                categoryBits[label]
            ).run()
        }
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
