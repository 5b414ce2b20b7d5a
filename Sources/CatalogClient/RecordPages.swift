import CatalogCore

/// Every record of a catalog (or a category) in index order, as an `AsyncSequence` that fetches a
/// page at a time while it is iterated: a million records never sit in memory at once.
///
/// ```swift
/// for try await record in client.allItems(of: "products") {
///     print(record.title)
/// }
/// ```
///
/// Iterating throws ``CatalogClientError``; cancelling the iterating task stops it.
public struct RecordPages: AsyncSequence, Sendable {
    public typealias Element = Record

    /// Records per page, 1 to the server's most (`CatalogLimits.maxPageSize`, 500).
    public let pageSize: Int
    let load: @Sendable (_ after: String?, _ limit: Int) async throws(CatalogClientError) -> ItemsPage

    init(
        pageSize: Int, load: @escaping @Sendable (String?, Int) async throws(CatalogClientError) -> ItemsPage
    ) {
        self.pageSize = Swift.min(CatalogLimits.maxPageSize, Swift.max(1, pageSize))
        self.load = load
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// Walks the pages.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: RecordPages
        var buffer: [Record] = []
        var index = 0
        var cursor: String?
        var finished = false

        init(pages: RecordPages) {
            self.pages = pages
        }

        public mutating func next() async throws -> Record? {
            while index == buffer.count {
                guard !finished else { return nil }
                let page = try await pages.load(cursor, pages.pageSize)
                buffer = page.items
                index = 0
                cursor = page.next
                finished = page.next == nil
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}
