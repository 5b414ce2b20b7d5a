import CatalogHTTP
import CatalogImport
import CatalogModel
import CatalogCore
import CatalogStorage

/// A catalog as XML in its own record shape, produced page by page while it is sent, so a
/// million-record feed never sits in memory. The catalog's definition rides along as a
/// `<?catalog-definition …?>` processing instruction (which XML readers that do not know it skip),
/// so an importer or the client library reads the records back exactly.
final class FeedStream: ResponseBodyStream {
    private let database: any CatalogDatabase
    private let id: String
    private let mapper: RecordMapper
    private var writer: XMLRecordWriter
    private var cursor: String?
    private var state = State.start

    private enum State {
        case start
        case records
        case end
        case done
    }

    /// Records written per chunk: one browse page of the most records a page holds.
    static let pageSize = CatalogLimits.maxPageSize

    /// A feed that reads through `database` one page per chunk; the cursor names a place in
    /// index order, so a re-import while the feed is sent neither repeats nor skips records.
    init(database: any CatalogDatabase, definition: CatalogDefinition) {
        self.database = database
        id = definition.id
        mapper = RecordMapper(definition: definition)
        writer = XMLRecordWriter(
            rootElement: definition.rootElement ?? "catalog", recordElement: definition.recordElement ?? "record",
            recordAttributes: Set(definition.recordAttributes), rootAttributes: definition.rootAttributes,
            definition: definition)
    }

    func nextChunk() throws -> [UInt8]? {
        var sink = BufferSink()
        switch state {
        case .start:
            try writer.writeStart(to: &sink)
            state = .records
        case .records:
            try database.read { reader in
                let page = try reader.items(of: try reader.requireCatalog(id), after: cursor, limit: Self.pageSize)
                for record in try page.records() {
                    try writer.write(mapper.sourceRecord(from: record), to: &sink)
                }
                cursor = page.next
                if cursor == nil { state = .end }
            }
        case .end:
            try writer.writeEnd(to: &sink)
            state = .done
        case .done:
            return nil
        }
        return sink.bytes
    }
}

/// Collects written bytes in memory.
struct BufferSink: ByteSink {
    var bytes: [UInt8] = []

    mutating func write(_ buffer: UnsafeRawBufferPointer) throws(ImportError) {
        bytes.append(contentsOf: buffer)
    }

    mutating func flush() throws(ImportError) {}
}
