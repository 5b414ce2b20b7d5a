import CatalogModel
import CatalogStorage

extension SQLiteCatalogStore {
    /// The most records one page returns.
    public static let maxPageSize = 500

    public func sections(of id: String) throws -> [SectionCount] {
        let state = try requireState(id)
        let statement = try connection.cached(
            "SELECT label, item_count FROM sections WHERE catalog_number = ? ORDER BY position")
        try statement.bind(state.number)
        var sections: [SectionCount] = []
        try statement.forEachRow { sections.append(SectionCount(label: $0.text(0), count: $0.int(1))) }
        return sections
    }

    public func items(of id: String, section: String?, after cursor: String?, limit: Int) throws -> ItemsPage {
        let state = try requireState(id)
        let limit = try Self.checkedLimit(limit)
        var lower = state.ordRange.lowerBound
        var upper = state.ordRange.upperBound
        if let section {
            let statement = try connection.cached(
                "SELECT first_ord, item_count FROM sections WHERE catalog_number = ? AND label = ?")
            try statement.bind(state.number, section)
            defer { statement.finish() }
            guard try statement.step() else {
                if state.labels.contains(section) { return ItemsPage(items: [], next: nil) }
                throw StorageError(.nameNotFound, "catalog \"\(id)\" has no section \"\(section)\"")
            }
            lower = statement.int64(0)
            upper = lower + statement.int64(1)
        }
        if let cursor {
            let after = try Self.decodeCursor(cursor, in: state)
            lower = max(lower, after + 1)
        }
        let statement = try connection.cached(
            "SELECT \(Self.recordColumns) FROM items WHERE ord >= ? AND ord < ? ORDER BY ord LIMIT ?")
        try statement.bind(lower, upper, limit + 1)
        defer { statement.finish() }
        var items: [Record] = []
        var lastOrd: Int64 = 0
        var more = false
        while try statement.step() {
            if items.count == limit {
                more = true
                break
            }
            items.append(record(from: statement, labels: state.labels))
            lastOrd = statement.int64(0)
        }
        return ItemsPage(items: items, next: more ? Self.encodeCursor(lastOrd) : nil)
    }

    public func item(of id: String, itemID: String) throws -> Record? {
        let state = try requireState(id)
        let statement = try connection.cached(
            "SELECT \(Self.recordColumns) FROM items WHERE catalog_number = ? AND id = ?")
        try statement.bind(state.number, itemID)
        defer { statement.finish() }
        guard try statement.step() else { return nil }
        return record(from: statement, labels: state.labels)
    }

    public func categories(of id: String) throws -> [CategoryCount] {
        let state = try requireState(id)
        let statement = try connection.cached(
            "SELECT number, name, image, item_count FROM categories WHERE catalog_number = ? ORDER BY position, name")
        try statement.bind(state.number)
        var result: [CategoryCount] = []
        try statement.forEachRow {
            result.append(CategoryCount(id: $0.int(0), name: $0.text(1), image: $0.optionalText(2), count: $0.int(3)))
        }
        return result
    }

    public func featured(of id: String, limit: Int) throws -> [Record] {
        let state = try requireState(id)
        let statement = try connection.cached(
            "SELECT \(Self.recordColumns) FROM items WHERE catalog_number = ? AND featured IS NOT NULL ORDER BY featured, ord LIMIT ?"
        )
        try statement.bind(state.number, try Self.checkedLimit(limit))
        var result: [Record] = []
        try statement.forEachRow { result.append(record(from: $0, labels: state.labels)) }
        return result
    }

    public func items(of id: String, category: String, after cursor: String?, limit: Int) throws -> ItemsPage {
        let state = try requireState(id)
        guard let number = state.categoryNumbers[category] else {
            throw StorageError(.nameNotFound, "catalog \"\(id)\" has no category \"\(category)\"")
        }
        let after = try cursor.map { try Self.decodeCursor($0, in: state) } ?? (state.ordRange.lowerBound - 1)
        let limit = try Self.checkedLimit(limit)
        let ords = try matchingOrds(
            table: state.titleWords, match: SearchPlan.quoted(Self.scopeToken(number)), after: after, limit: limit + 1)
        let page = Array(ords.prefix(limit))
        return ItemsPage(
            items: try records(ords: page, state: state),
            next: ords.count > limit ? page.last.map(Self.encodeCursor) : nil)
    }

    /// Records by `ord`, in the order given.
    func records(ords: [Int64], state: CatalogState) throws -> [Record] {
        let statement = try connection.cached("SELECT \(Self.recordColumns) FROM items WHERE ord = ?")
        defer { statement.finish() }
        var result: [Record] = []
        result.reserveCapacity(ords.count)
        for ord in ords {
            statement.reset()
            try statement.bind(ord)
            if try statement.step() { result.append(record(from: statement, labels: state.labels)) }
        }
        return result
    }

    /// Calls `body` with every record of the catalog in index order (exports).
    public func forEachRecord(of id: String, _ body: (Record) throws -> Void) throws {
        let state = try requireState(id)
        let statement = try connection.prepare(
            "SELECT \(Self.recordColumns) FROM items WHERE ord >= ? AND ord < ? ORDER BY ord")
        try statement.bind(state.ordRange.lowerBound, state.ordRange.upperBound)
        while try statement.step() {
            try body(record(from: statement, labels: state.labels))
        }
    }

    static func checkedLimit(_ limit: Int) throws(StorageError) -> Int {
        guard limit >= 1 && limit <= maxPageSize else {
            throw StorageError(.invalidArgument, "limit must be between 1 and \(maxPageSize)")
        }
        return limit
    }

    /// Cursors are the last record's `ord` in base 36: opaque to clients, cheap to check.
    static func encodeCursor(_ ord: Int64) -> String { String(ord, radix: 36) }

    /// A cursor is the last record's `ord` in base 36 (1 to 12 digits and lowercase letters).
    /// A well-formed cursor outside the catalog (from another catalog, or made up) means "after
    /// that position": before the catalog starts from its first record, past its end gives an
    /// empty page.
    static func decodeCursor(_ cursor: String, in state: CatalogState) throws(StorageError) -> Int64 {
        guard (1...12).contains(cursor.utf8.count),
            cursor.utf8.allSatisfy({ (48...57).contains($0) || (97...122).contains($0) }),
            let ord = Int64(cursor, radix: 36)
        else {
            throw StorageError(.invalidArgument, "invalid cursor \"\(cursor.prefix(32))\"")
        }
        return min(max(ord, state.ordRange.lowerBound - 1), state.ordRange.upperBound - 1)
    }
}
