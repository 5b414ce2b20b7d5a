import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation
import Synchronization

/// Builds a catalog's stored form from its records, engine-neutral: every engine stores what
/// this produces, and every search reads it back through the same code, so results agree by
/// construction.
///
/// Records arrive in any order (``add(_:)``): each is given its section and sort key, its index
/// terms are collected, and it is written to a temporary file. ``finish(into:)`` then numbers the
/// records in search order (shorter titles first, then collation order, then id), writes them,
/// and writes each term's documents as posting chunks, 65,536 documents at a time, so memory
/// stays bounded by one chunk's postings however large the catalog.
public final class CatalogIndexBuilder {
    let collation: any CatalogCollating
    private var definition: CatalogDefinition
    private var categoryNumbers: [String: Int]
    private var categoryCounts: [String: Int] = [:]
    private var collector: RecordTermCollector
    private let records: Spool
    private let termLists: Spool

    private var ids = TermTable(capacity: 1 << 16)
    private var rankLengths: [UInt16] = []
    private var sections: [UInt16] = []
    private var sortKeys: [UInt8] = []
    private var sortKeyStarts: [UInt32] = [0]
    private var recordOffsets: [UInt64] = []
    private var termOffsets: [UInt64] = []
    private var prices: [Double] = []
    /// Each arrival's category numbers: `categoryNumbersByArrival[categoryStarts[a]..<categoryStarts[a + 1]]`.
    private var categoryNumbersByArrival: [UInt32] = []
    private var categoryStarts: [UInt32] = [0]
    private var scratch: [UInt8] = []

    /// Creates a builder.
    ///
    /// - Parameters:
    ///   - definition: the catalog's definition; its categories fix their numbers.
    ///   - collation: sort keys and sections for the catalog's locale.
    ///   - existingCategories: category numbers already in use by the catalog, kept stable.
    ///   - temporaryDirectory: where the temporary files go (the system's when nil).
    public init(
        definition: CatalogDefinition, collation: any CatalogCollating, existingCategories: [String: Int] = [:],
        temporaryDirectory: String? = nil
    ) throws {
        self.definition = definition
        self.collation = collation
        var numbers = existingCategories
        for category in definition.categories { numbers[category.name] = category.id }
        categoryNumbers = numbers
        collector = RecordTermCollector(
            germanVariants: WordScanner.wantsGermanVariants(locale: definition.locale),
            searchable: definition.searchSettings)
        records = try Spool(directory: temporaryDirectory)
        termLists = try Spool(directory: temporaryDirectory)
    }

    /// How many records were added.
    public var count: Int { rankLengths.count }

    /// The content hashes of the catalog's current records by id: ``add(_:)`` counts what is
    /// new, changed and unchanged against them.
    public var previousHashes: [String: UInt64] = [:]

    /// Whether records' index terms are collected only when the index is written (from the
    /// temporary file), not as records arrive: for a re-import, which usually changes little
    /// or nothing, so an unchanged one costs little more than reading the file.
    public var collectsTermsLater = false
    /// Records added whose id was not in ``previousHashes``.
    public private(set) var addedCount = 0
    /// Records added whose id was there with other content.
    public private(set) var changedCount = 0
    /// Records added whose id was there with the same content.
    public private(set) var unchangedCount = 0

    /// The content hash of each record added, by arrival.
    private var hashes: [UInt64] = []

    /// Counts again what is new, changed and unchanged, against `hashes` (the catalog's records
    /// as another writer left them while this import was being read).
    public func recount(against hashes: [String: UInt64]) {
        previousHashes = hashes
        addedCount = 0
        changedCount = 0
        unchangedCount = 0
        for arrival in 0..<self.hashes.count where counted[arrival] {
            let id = String(decoding: ids.key(arrival), as: UTF8.self)
            switch hashes[id] {
            case nil: addedCount += 1
            case self.hashes[arrival]: unchangedCount += 1
            default: changedCount += 1
            }
        }
    }

    /// Whether each record added counts (false: kept from the catalog's current version).
    private var counted: [Bool] = []

    /// The records added that are new or changed against ``previousHashes`` (what a re-import
    /// changes), read back from the temporary file, in the order they came.
    public func changedRecords() throws -> [Record] {
        try records.flush()
        var result: [Record] = []
        var blob: [UInt8] = []
        for arrival in 0..<hashes.count where counted[arrival] {
            let id = String(decoding: ids.key(arrival), as: UTF8.self)
            guard previousHashes[id] != hashes[arrival] else { continue }
            blob.removeAll(keepingCapacity: true)
            try records.read(at: recordOffsets[arrival], count: recordLength(arrival), appendingTo: &blob)
            result.append(try StoredRecord.decode(RecordBlob.json(in: blob)))
        }
        return result
    }

    /// The ids of ``previousHashes`` that no record added has (what a replacing re-import removes).
    public func missingIDs() -> [String] {
        previousHashes.keys.filter { !contains(id: $0) }.sorted()
    }

    /// Whether a record with this id was added.
    public func contains(id: String) -> Bool { arrival(ofID: id) != nil }

    /// The definition that will be stored; set it when reading taught something (field order).
    public var storedDefinition: CatalogDefinition {
        get { definition }
        set { definition = newValue }
    }

    /// Adds a record.
    ///
    /// - Parameter counted: false for a record kept from the catalog's current version, which
    ///   counts as neither added nor changed.
    /// - Throws: ``StorageError`` `.invalidArgument` for an empty id, `.constraint` for an id
    ///   seen before ("two records have the id …"; ``arrival(ofID:)`` tells which record had it).
    public func add(_ record: Record, counted: Bool = true) throws {
        try add(PreparedRecord(record, collation: collation), counted: counted)
    }

    /// Adds a record prepared on another thread (``PreparedRecord``) with this builder's collation.
    ///
    /// - Parameter counted: false for a record kept from the catalog's current version, which
    ///   counts as neither added nor changed.
    /// - Throws: as ``add(_:counted:)-(Record,_)``.
    public func add(_ prepared: PreparedRecord, counted: Bool = true) throws {
        let record = prepared.record
        guard !record.id.isEmpty else { throw StorageError(.invalidArgument, "a record has an empty id") }
        let (_, isNew) =
            record.id.utf8.withContiguousStorageIfAvailable { ids.number(of: $0) }
            ?? Array(record.id.utf8).withUnsafeBufferPointer { ids.number(of: $0) }
        guard isNew else {
            throw StorageError(.constraint, "two records have the id \"" + String(record.id.prefix(200)) + "\"")
        }
        var numbers: [Int] = []
        numbers.reserveCapacity(record.categories.count)
        for label in record.categories {
            let number: Int
            if let known = categoryNumbers[label] {
                number = known
            } else {
                number = (categoryNumbers.values.max() ?? 0) + 1
                categoryNumbers[label] = number
            }
            categoryCounts[label, default: 0] += 1
            numbers.append(number)
        }
        for number in numbers { categoryNumbersByArrival.append(UInt32(truncatingIfNeeded: number)) }
        categoryStarts.append(UInt32(categoryNumbersByArrival.count))
        if collectsTermsLater {
            rankLengths.append(0)
        } else {
            try collectTerms(of: record, categoryNumbers: numbers)
        }
        sections.append(UInt16(clamping: prepared.section))
        sortKeys.append(contentsOf: prepared.sortKey)
        sortKeyStarts.append(UInt32(sortKeys.count))
        prices.append(prepared.price)
        recordOffsets.append(try records.append(prepared.blob))
        hashes.append(prepared.hash)
        self.counted.append(counted)
        guard counted else { return }
        switch previousHashes[record.id] {
        case nil: addedCount += 1
        case prepared.hash: unchangedCount += 1
        default: changedCount += 1
        }
    }

    /// The arrival number (0 for the first record added) of the record added with `id`, until
    /// ``finish(into:isCancelled:)``.
    public func arrival(ofID id: String) -> Int? {
        Array(id.utf8).withUnsafeBufferPointer { ids.lookup($0) }
    }

    /// A record as it is stored (its section label filled in) and its JSON as the API serves it.
    public static func stored(_ record: Record, collation: any CatalogCollating) -> (Record, [UInt8]) {
        stored(record, section: collation.section(for: record.title), collation: collation)
    }

    static func stored(_ record: Record, section: Int, collation: any CatalogCollating) -> (Record, [UInt8]) {
        var stored = record
        let labels = collation.sectionLabels
        stored.section = labels.indices.contains(section) ? labels[section] : "#"
        var output = JSONOutput(capacity: 512)
        stored.write(to: &output)
        return (stored, output.bytes)
    }

    /// The numbers of the categories in use, by label (after ``add(_:)``, new ones included).
    public var categoryNumbersInUse: [String: Int] { categoryNumbers }

    /// Numbers the records, writes them and the search index to `sink`.
    ///
    /// - Parameter isCancelled: checked every few thousand records; when it returns true the
    ///   build stops with ``StorageError/Code/cancelled``.
    /// - Returns: what the catalog's own row needs.
    public func finish(into sink: any CatalogIndexSink, isCancelled: () -> Bool = { false }) throws -> IndexedCatalog {
        // The build runs on a thread of its own while this one hands what it writes to the
        // engine, so reading the temporary files and building posting chunks overlap with the
        // engine's inserts. The builder is touched by that thread only until it finishes.
        let handoff = SinkHandoff(wantsOrderEntries: sink.wantsOrderEntries)
        let builder = UncheckedTransfer(self)
        let outcome = Mutex<Result<IndexedCatalog, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Result { try builder.value.build(into: handoff) }
            outcome.withLock { $0 = result }
            handoff.finish(error: result.failure)
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            try handoff.apply(to: sink, isCancelled: isCancelled)
        } catch {
            handoff.cancelAndDrain()
            done.wait()
            throw error
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Collects a record's index terms into the term list file; its rank length too.
    private func collectTerms(of record: Record, categoryNumbers: [Int]) throws {
        collector.collect(record, categoryNumbers: categoryNumbers)
        rankLengths.append(UInt16(clamping: collector.rankLength))
        termOffsets.append(termLists.size)
        scratch.removeAll(keepingCapacity: true)
        TermList.append(collector.collected, to: &scratch)
        try termLists.append(scratch)
    }

    /// Collects the terms of every record from the temporary file, for ``collectsTermsLater``.
    private func collectDeferredTerms() throws {
        try records.flush()
        let count = self.count
        rankLengths.removeAll(keepingCapacity: true)
        var blob: [UInt8] = []
        for arrival in 0..<count {
            blob.removeAll(keepingCapacity: true)
            try records.read(at: recordOffsets[arrival], count: recordLength(arrival), appendingTo: &blob)
            let record = try StoredRecord.decode(RecordBlob.json(in: blob))
            try collectTerms(of: record, categoryNumbers: categoryNumbers(of: arrival))
        }
    }

    private func build(into sink: any CatalogIndexSink) throws -> IndexedCatalog {
        if collectsTermsLater {
            try ImportProfile.step("index terms of \(count) records") { try collectDeferredTerms() }
        }
        collector.finishCollecting()
        ids.dropLookup()
        try records.flush()
        try termLists.flush()
        let count = self.count
        let order = searchOrder()
        var documents = [UInt32](repeating: 0, count: count)
        for (document, arrival) in order.enumerated() { documents[Int(arrival)] = UInt32(document) }
        let browse = browseOrder()
        var positions = [UInt32](repeating: 0, count: count)
        for (position, arrival) in browse.enumerated() { positions[Int(arrival)] = UInt32(position) }

        let documentCounts = collector.documentCounts
        let termCount = documentCounts.count
        // Inline terms keep their documents in the lexicon's pool.
        var poolStarts = [UInt32](repeating: 0, count: termCount)
        var poolSize = 0
        for term in 0..<termCount where documentCounts[term] <= Lexicon.inlineLimit {
            poolStarts[term] = UInt32(poolSize)
            poolSize += Int(documentCounts[term])
        }
        var pool = [UInt32](repeating: 0, count: poolSize)
        var poolFill = [UInt8](repeating: 0, count: termCount)
        var firstChunk = [Int32](repeating: -1, count: termCount)
        var lastChunk = [Int32](repeating: -1, count: termCount)
        var chunkCounts = [UInt32](repeating: 0, count: termCount)
        var chunkStarts = [UInt32](repeating: 0, count: termCount)
        var touched: [UInt32] = []
        var offsets: [UInt16] = []
        var blob: [UInt8] = []
        // The term lists of one chunk's records, read once and walked twice.
        var chunkTerms: [UInt8] = []
        var chunkTermEnds: [Int] = []
        ImportProfile.step("orders and posting counts") {}

        let chunkCount = (count + PostingChunk.size - 1) / PostingChunk.size
        try ImportProfile.step("write \(count) records and their posting chunks") {
            for chunk in 0..<chunkCount {
                let documentRange = (chunk << PostingChunk.shift)..<min(count, (chunk + 1) << PostingChunk.shift)
                touched.removeAll(keepingCapacity: true)
                chunkTerms.removeAll(keepingCapacity: true)
                chunkTermEnds.removeAll(keepingCapacity: true)
                for document in documentRange {
                    let arrival = Int(order[document])
                    let start = chunkTerms.count
                    try termLists.read(
                        at: termOffsets[arrival], count: termListLength(arrival), appendingTo: &chunkTerms)
                    chunkTermEnds.append(chunkTerms.count)
                    chunkTerms.withUnsafeBufferPointer { bytes in
                        TermList.forEach(in: UnsafeBufferPointer(rebasing: bytes[start...])) { term in
                            let index = Int(term)
                            if documentCounts[index] <= Lexicon.inlineLimit {
                                pool[Int(poolStarts[index]) + Int(poolFill[index])] = UInt32(document)
                                poolFill[index] += 1
                            } else {
                                if chunkCounts[index] == 0 { touched.append(term) }
                                chunkCounts[index] += 1
                            }
                        }
                    }
                    blob.removeAll(keepingCapacity: true)
                    try records.read(at: recordOffsets[arrival], count: recordLength(arrival), appendingTo: &blob)
                    let item = try RecordBlob.item(
                        from: blob, document: document, id: String(decoding: ids.key(arrival), as: UTF8.self),
                        section: Int(sections[arrival]), sortKey: sortKey(arrival), position: Int(positions[arrival]),
                        categoryNumbers: categoryNumbers(of: arrival))
                    try sink.write(item: item)
                }
                touched.sort()
                var total: UInt32 = 0
                for term in touched {
                    chunkStarts[Int(term)] = total
                    total += chunkCounts[Int(term)]
                }
                offsets = [UInt16](repeating: 0, count: Int(total))
                chunkTerms.withUnsafeBufferPointer { bytes in
                    var start = 0
                    for (index, document) in documentRange.enumerated() {
                        let end = chunkTermEnds[index]
                        TermList.forEach(in: UnsafeBufferPointer(rebasing: bytes[start..<end])) { term in
                            let term = Int(term)
                            guard documentCounts[term] > Lexicon.inlineLimit else { return }
                            offsets[Int(chunkStarts[term])] = UInt16(truncatingIfNeeded: document)
                            chunkStarts[term] += 1
                        }
                        start = end
                    }
                }
                for term in touched {
                    let index = Int(term)
                    let end = Int(chunkStarts[index])
                    let chunkOffsets = Array(offsets[(end - Int(chunkCounts[index]))..<end])
                    try sink.write(postingChunk: PostingChunk.encode(chunkOffsets), term: term, chunk: chunk)
                    if firstChunk[index] < 0 { firstChunk[index] = Int32(chunk) }
                    lastChunk[index] = Int32(chunk)
                    chunkCounts[index] = 0
                }
            }
        }

        if sink.wantsOrderEntries {
            try ImportProfile.step("index order, categories and ids") {
                try writeOrderEntries(into: sink, browse: browse, documents: documents)
            }
        }

        let lexicon = ImportProfile.step("lexicon of \(termCount) terms") {
            lexiconInByteOrder(
                documentCounts: documentCounts, pool: pool, poolStarts: poolStarts, firstChunk: firstChunk,
                lastChunk: lastChunk)
        }
        try sink.write(blob: lexicon.serialized(), named: SearchBlobs.lexicon)
        try sink.write(blob: [1], named: SearchBlobs.fieldTerms)
        try ImportProfile.step("infix index") {
            try sink.write(blob: InfixIndex(titleWordsOf: lexicon).serialized(), named: SearchBlobs.infix)
        }

        let attributes = DocumentAttributes(
            rankLengths: order.map { rankLengths[Int($0)] },
            browseOrder: browse.map { documents[Int($0)] },
            prices: order.map { prices[Int($0)] })
        for (name, bytes) in attributes.serialized() { try sink.write(blob: bytes, named: name) }

        var sectionCounts: [Int: Int] = [:]
        for section in sections { sectionCounts[Int(section), default: 0] += 1 }
        return IndexedCatalog(
            definition: definition, count: count, sectionLabels: collation.sectionLabels,
            sections: sectionCounts.keys.sorted().map { ($0, sectionCounts[$0]!) },
            categories: categoryRows().map(\.row), categoryPositions: categoryRows().map(\.position),
            collationVersion: collation.version)
    }

    /// Writes every record's place in index order, in each of its categories and by id, each in
    /// its own key order.
    private func writeOrderEntries(into sink: any CatalogIndexSink, browse: [UInt32], documents: [UInt32]) throws {
        func entry(_ arrival: Int) -> OrderEntry {
            OrderEntry(
                key: BrowseKey(
                    section: Int(sections[arrival]), sortKey: sortKey(arrival),
                    id: String(decoding: ids.key(arrival), as: UTF8.self)),
                document: Int(documents[arrival]))
        }
        var byCategory: [UInt32: [UInt32]] = [:]
        for arrival in browse {
            try sink.write(orderEntry: entry(Int(arrival)))
            for index in Int(categoryStarts[Int(arrival)])..<Int(categoryStarts[Int(arrival) + 1]) {
                byCategory[categoryNumbersByArrival[index], default: []].append(arrival)
            }
        }
        for category in byCategory.keys.sorted() {
            for arrival in byCategory[category]! {
                try sink.write(categoryEntry: entry(Int(arrival)), category: Int(category))
            }
        }
        byCategory = [:]
        var byID = Array(0..<UInt32(count))
        withKeys { _, id in byID.sort { id(Int($0), Int($1)) < 0 } }
        for arrival in byID {
            try sink.write(
                idEntry: String(decoding: ids.key(Int(arrival)), as: UTF8.self), document: Int(documents[Int(arrival)]),
                hash: hashes[Int(arrival)])
        }
    }

    /// The lexicon: every term in byte order, with its inline documents or its chunk range.
    private func lexiconInByteOrder(
        documentCounts: [UInt32], pool: [UInt32], poolStarts: [UInt32], firstChunk: [Int32], lastChunk: [Int32]
    ) -> Lexicon {
        let terms = collector.terms
        let termCount = terms.count
        var byBytes = Array(0..<UInt32(termCount))
        terms.arena.withUnsafeBufferPointer { arena in
            let starts = terms.starts
            byBytes.sort { a, b in
                let a0 = Int(starts[Int(a)])
                let a1 = Int(starts[Int(a) + 1])
                let b0 = Int(starts[Int(b)])
                let b1 = Int(starts[Int(b) + 1])
                let length = min(a1 - a0, b1 - b0)
                let order = memcmp(arena.baseAddress! + a0, arena.baseAddress! + b0, length)
                return order != 0 ? order < 0 : (a1 - a0) < (b1 - b0)
            }
        }
        var arena: [UInt8] = []
        arena.reserveCapacity(terms.arena.count)
        var starts: [UInt32] = [0]
        starts.reserveCapacity(termCount + 1)
        var counts: [UInt32] = []
        counts.reserveCapacity(termCount)
        var references: [UInt32] = []
        references.reserveCapacity(termCount)
        var inline: [UInt32] = []
        inline.reserveCapacity(pool.count)
        for term in byBytes {
            let index = Int(term)
            arena.append(contentsOf: terms.key(index))
            starts.append(UInt32(arena.count))
            let documents = documentCounts[index]
            counts.append(documents)
            if documents <= Lexicon.inlineLimit {
                references.append(Lexicon.inlineReference(at: inline.count))
                let start = Int(poolStarts[index])
                inline.append(contentsOf: pool[start..<(start + Int(documents))])
            } else {
                references.append(
                    Lexicon.storedReference(firstChunk: Int(firstChunk[index]), lastChunk: Int(lastChunk[index])))
            }
        }
        return Lexicon(
            arena: arena, starts: starts, numbers: byBytes, documentCounts: counts, references: references, pool: inline
        )
    }

    /// Categories with their numbers and counts, in display order: the definition's first.
    private func categoryRows() -> [(row: CategoryCount, position: Int)] {
        let known = Dictionary(definition.categories.enumerated().map { ($0.element.name, ($0.offset, $0.element)) }) {
            first, _ in first
        }
        var rows: [(row: CategoryCount, position: Int)] = []
        for (label, number) in categoryNumbers where categoryCounts[label] != nil || known[label] != nil {
            let position = known[label]?.0 ?? (definition.categories.count + number)
            rows.append(
                (
                    CategoryCount(
                        id: number, name: label, image: known[label]?.1.image, count: categoryCounts[label] ?? 0),
                    position
                ))
        }
        return rows.sorted { $0.position != $1.position ? $0.position < $1.position : $0.row.name < $1.row.name }
    }

    /// The category numbers of the record that arrived `arrival`th.
    private func categoryNumbers(of arrival: Int) -> [Int] {
        categoryNumbersByArrival[Int(categoryStarts[arrival])..<Int(categoryStarts[arrival + 1])].map { Int($0) }
    }

    private func recordLength(_ arrival: Int) -> Int {
        let end = arrival + 1 < recordOffsets.count ? recordOffsets[arrival + 1] : records.size
        return Int(end - recordOffsets[arrival])
    }

    private func sortKey(_ arrival: Int) -> [UInt8] {
        Array(sortKeys[Int(sortKeyStarts[arrival])..<Int(sortKeyStarts[arrival + 1])])
    }

    private func termListLength(_ arrival: Int) -> Int {
        let end = arrival + 1 < termOffsets.count ? termOffsets[arrival + 1] : termLists.size
        return Int(end - termOffsets[arrival])
    }

    /// Arrival numbers in search order: rank length, collation key, id.
    private func searchOrder() -> [UInt32] {
        var order = Array(0..<UInt32(count))
        withKeys { key, id in
            order.sort { a, b in
                let la = rankLengths[Int(a)]
                let lb = rankLengths[Int(b)]
                if la != lb { return la < lb }
                let byKey = key(Int(a), Int(b))
                return byKey != 0 ? byKey < 0 : id(Int(a), Int(b)) < 0
            }
        }
        return order
    }

    /// Arrival numbers in index order: section, collation key, id.
    private func browseOrder() -> [UInt32] {
        var order = Array(0..<UInt32(count))
        withKeys { key, id in
            order.sort { a, b in
                let sa = sections[Int(a)]
                let sb = sections[Int(b)]
                if sa != sb { return sa < sb }
                let byKey = key(Int(a), Int(b))
                return byKey != 0 ? byKey < 0 : id(Int(a), Int(b)) < 0
            }
        }
        return order
    }

    /// Calls `body` with comparators of two arrivals' sort keys and ids.
    private func withKeys(
        _ body: (_ key: (Int, Int) -> Int32, _ id: (Int, Int) -> Int32) -> Void
    ) {
        sortKeys.withUnsafeBufferPointer { keys in
            ids.arena.withUnsafeBufferPointer { idBytes in
                let keyStarts = sortKeyStarts
                let idStarts = ids.starts
                func compare(_ base: UnsafeBufferPointer<UInt8>, _ starts: [UInt32], _ a: Int, _ b: Int) -> Int32 {
                    let a0 = Int(starts[a])
                    let a1 = Int(starts[a + 1])
                    let b0 = Int(starts[b])
                    let b1 = Int(starts[b + 1])
                    let length = min(a1 - a0, b1 - b0)
                    if length > 0, let pointer = base.baseAddress {
                        let order = memcmp(pointer + a0, pointer + b0, length)
                        if order != 0 { return order }
                    }
                    return Int32(a1 - a0) - Int32(b1 - b0)
                }
                body({ compare(keys, keyStarts, $0, $1) }, { compare(idBytes, idStarts, $0, $1) })
            }
        }
    }
}

/// Names of the blobs a catalog's search index consists of besides its posting chunks.
public enum SearchBlobs {
    /// The ``Lexicon``.
    public static let lexicon = "lexicon"
    /// The ``InfixIndex``.
    public static let infix = "title_infix"
    /// A marker: the index has the terms of every record field's values (``IndexTerms/fieldTerms(_:_:)``),
    /// which indexes built before them lack (``CatalogMaintenance`` builds those again). Version 2
    /// added the items of texts that are lists (``IndexTermKind/listItem``).
    public static let fieldTerms = "field_terms_v2"

    /// Every blob an index may have, for copying an index (offline snapshots).
    public static let all = [
        lexicon, infix, fieldTerms, DocumentAttributes.ranksBlob, DocumentAttributes.browseOrderBlob,
        DocumentAttributes.pricesBlob, DocumentAttributes.priceOrderBlob,
    ]
}

/// A record's term numbers in the builder's temporary file, as LEB128 numbers in the order
/// they were collected (the postings are filled per document, so order within a record does
/// not matter, and not sorting saves more time than delta coding would save space).
enum TermList {
    /// Appends the stored form of `terms` to `bytes`.
    static func append(_ terms: [UInt32], to bytes: inout [UInt8]) {
        for term in terms {
            var value = term
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
    }

    /// Calls `body` with each term number of a stored list.
    @inline(__always)
    static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        var index = 0
        while index < bytes.count {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                value |= UInt32(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            body(value)
        }
    }
}

/// A record in the builder's temporary file: the fields an item row needs, then its JSON.
enum RecordBlob {
    /// Appends the blob; returns the record's content hash.
    @discardableResult
    static func write(record: Record, json: [UInt8], to bytes: inout [UInt8]) -> UInt64 {
        func text(_ value: String?) {
            guard let value else { return BinaryWriter.append(UInt32.max, to: &bytes) }
            BinaryWriter.append(UInt32(value.utf8.count), to: &bytes)
            bytes.append(contentsOf: value.utf8)
        }
        text(record.title)
        text(record.subtitle)
        BinaryWriter.append(UInt32(record.categories.count), to: &bytes)
        for label in record.categories { text(label) }
        BinaryWriter.append(UInt64(bitPattern: Int64(record.featured ?? Int(Int64.min))), to: &bytes)
        BinaryWriter.append((IndexedItem.price(record.price) ?? .nan).bitPattern, to: &bytes)
        let hash = Self.hash(json)
        BinaryWriter.append(hash, to: &bytes)
        bytes.append(contentsOf: json)
        return hash
    }

    /// The record's JSON in a blob.
    static func json(in bytes: [UInt8]) throws -> [UInt8] {
        try item(from: bytes, document: 0, id: "", section: 0, sortKey: [], position: 0, categoryNumbers: []).json
    }

    /// The item row of a blob; `categoryNumbers` are its categories' numbers, in order.
    static func item(
        from bytes: [UInt8], document: Int, id: String, section: Int, sortKey: [UInt8], position: Int,
        categoryNumbers: [Int]
    ) throws -> IndexedItem {
        var reader = BinaryReader(bytes)
        func text() throws -> String? {
            guard let length = reader.uint32() else { throw StorageError(.engine, "a temporary file is damaged") }
            if length == UInt32.max { return nil }
            guard let slice = reader.take(Int(length)) else {
                throw StorageError(.engine, "a temporary file is damaged")
            }
            return String(decoding: slice, as: UTF8.self)
        }
        let title = try text() ?? ""
        let subtitle = try text()
        guard let categoryCount = reader.uint32() else { throw StorageError(.engine, "a temporary file is damaged") }
        var categories: [String] = []
        for _ in 0..<categoryCount { categories.append(try text() ?? "") }
        guard let featuredBits = reader.uint64() else { throw StorageError(.engine, "a temporary file is damaged") }
        let featured = Int64(bitPattern: featuredBits)
        guard let priceBits = reader.uint64() else { throw StorageError(.engine, "a temporary file is damaged") }
        let price = Double(bitPattern: priceBits)
        guard let hash = reader.uint64(), let json = reader.take(bytes.count - reader.position) else {
            throw StorageError(.engine, "a temporary file is damaged")
        }
        return IndexedItem(
            document: document, id: id, section: section, sortKey: sortKey, position: position, title: title,
            subtitle: subtitle, categories: categories, categoryNumbers: categoryNumbers,
            featured: featured == Int64.min ? nil : Int(featured),
            price: price.isNaN ? nil : price, hash: hash, json: Array(json))
    }

    /// FNV-1a over the record's JSON: equal content, equal hash.
    ///
    /// Its own hash, not ``ContentDigest``: the value is stored in every item row (SQLite and
    /// PostgreSQL) and a re-import compares against it, so another algorithm would make the next
    /// import of every catalog rewrite all its records once; 64 bits per record also keep the
    /// import's per-record work small.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
