import CatalogModel
import CatalogStorage
import Foundation

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
    private let collation: any CatalogCollating
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
    private var scratch: [UInt8] = []
    private var termScratch: [UInt32] = []

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
        collector = RecordTermCollector(germanVariants: WordScanner.wantsGermanVariants(locale: definition.locale))
        records = try Spool(directory: temporaryDirectory)
        termLists = try Spool(directory: temporaryDirectory)
    }

    /// How many records were added.
    public var count: Int { rankLengths.count }

    /// The content hashes of the catalog's current records by id: ``add(_:)`` counts what is
    /// new, changed and unchanged against them.
    public var previousHashes: [String: UInt64] = [:]
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

    /// Whether a record with this id was added.
    public func contains(id: String) -> Bool {
        Array(id.utf8).withUnsafeBufferPointer { ids.lookup($0) } != nil
    }

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
    ///   seen before ("two records have the id …").
    public func add(_ record: Record, counted: Bool = true) throws {
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
        collector.collect(record, categoryNumbers: numbers)
        rankLengths.append(UInt16(clamping: collector.rankLength))
        let section = collation.section(for: record.title)
        sections.append(UInt16(clamping: section))
        sortKeys.append(contentsOf: collation.sortKey(record.title))
        sortKeyStarts.append(UInt32(sortKeys.count))
        prices.append(record.price.map { NSDecimalNumber(decimal: $0).doubleValue } ?? .nan)

        termScratch.removeAll(keepingCapacity: true)
        termScratch.append(contentsOf: collector.collected)
        termScratch.sort()
        termOffsets.append(termLists.size)
        try termLists.appendVarint(UInt64(termScratch.count))
        var previous: UInt32 = 0
        for term in termScratch {
            try termLists.appendVarint(UInt64(term - previous))
            previous = term
        }

        var stored = record
        let labels = collation.sectionLabels
        stored.section = labels.indices.contains(section) ? labels[section] : "#"
        var output = JSONOutput(capacity: 512)
        stored.write(to: &output)
        scratch.removeAll(keepingCapacity: true)
        let hash = RecordBlob.write(record: stored, categoryNumbers: numbers, json: output.bytes, to: &scratch)
        recordOffsets.append(try records.append(scratch))
        hashes.append(hash)
        self.counted.append(counted)
        guard counted else { return }
        switch previousHashes[record.id] {
        case nil: addedCount += 1
        case hash: unchangedCount += 1
        default: changedCount += 1
        }
    }

    /// Numbers the records, writes them and the search index to `sink`.
    ///
    /// - Parameter isCancelled: checked every few thousand records; when it returns true the
    ///   build stops with ``StorageError/Code/cancelled``.
    /// - Returns: what the catalog's own row needs.
    public func finish(into sink: any CatalogIndexSink, isCancelled: () -> Bool = { false }) throws -> IndexedCatalog {
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
        var terms: [UInt32] = []
        var blob: [UInt8] = []

        let chunkCount = (count + PostingChunk.size - 1) / PostingChunk.size
        for chunk in 0..<chunkCount {
            let documentRange = (chunk << PostingChunk.shift)..<min(count, (chunk + 1) << PostingChunk.shift)
            touched.removeAll(keepingCapacity: true)
            for document in documentRange {
                if document % 4096 == 0 && isCancelled() { throw StorageError(.cancelled, "the import was cancelled") }
                let arrival = Int(order[document])
                try readTerms(of: arrival, into: &terms)
                for term in terms {
                    let index = Int(term)
                    if documentCounts[index] <= Lexicon.inlineLimit {
                        pool[Int(poolStarts[index]) + Int(poolFill[index])] = UInt32(document)
                        poolFill[index] += 1
                    } else {
                        if chunkCounts[index] == 0 { touched.append(term) }
                        chunkCounts[index] += 1
                    }
                }
                try records.read(at: recordOffsets[arrival], count: recordLength(arrival), into: &blob)
                let item = try RecordBlob.item(
                    from: blob, document: document, id: String(decoding: ids.key(arrival), as: UTF8.self),
                    section: Int(sections[arrival]), sortKey: sortKey(arrival), position: Int(positions[arrival]))
                try sink.write(item: item)
            }
            touched.sort()
            var total: UInt32 = 0
            for term in touched {
                chunkStarts[Int(term)] = total
                total += chunkCounts[Int(term)]
            }
            offsets = [UInt16](repeating: 0, count: Int(total))
            var fill = chunkStarts
            for document in documentRange {
                try readTerms(of: Int(order[document]), into: &terms)
                for term in terms where documentCounts[Int(term)] > Lexicon.inlineLimit {
                    offsets[Int(fill[Int(term)])] = UInt16(truncatingIfNeeded: document)
                    fill[Int(term)] += 1
                }
            }
            for term in touched {
                let index = Int(term)
                let start = Int(chunkStarts[index])
                let chunkOffsets = Array(offsets[start..<(start + Int(chunkCounts[index]))])
                try sink.write(postingChunk: PostingChunk.encode(chunkOffsets), term: term, chunk: chunk)
                if firstChunk[index] < 0 { firstChunk[index] = Int32(chunk) }
                lastChunk[index] = Int32(chunk)
                chunkCounts[index] = 0
            }
        }

        // The lexicon, in byte order.
        var byBytes = Array(0..<UInt32(termCount))
        collector.terms.arena.withUnsafeBufferPointer { arena in
            let starts = collector.terms.starts
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
        let entries: [Lexicon.Entry] = byBytes.map { term in
            let index = Int(term)
            let reference: Lexicon.Entry.Reference
            if documentCounts[index] <= Lexicon.inlineLimit {
                let start = Int(poolStarts[index])
                reference = .inline(Array(pool[start..<(start + Int(documentCounts[index]))]))
            } else {
                reference = .stored(firstChunk: Int(firstChunk[index]), lastChunk: Int(lastChunk[index]))
            }
            return Lexicon.Entry(
                bytes: collector.terms.key(index), number: term, documentCount: documentCounts[index],
                reference: reference)
        }
        let lexiconBytes = Lexicon.serialize(entries)
        let lexicon = try Lexicon(serialized: lexiconBytes)
        try sink.write(blob: lexiconBytes, named: SearchBlobs.lexicon)
        try sink.write(blob: InfixIndex(titleWordsOf: lexicon).serialized(), named: SearchBlobs.infix)

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

    private func recordLength(_ arrival: Int) -> Int {
        let end = arrival + 1 < recordOffsets.count ? recordOffsets[arrival + 1] : records.size
        return Int(end - recordOffsets[arrival])
    }

    private func sortKey(_ arrival: Int) -> [UInt8] {
        Array(sortKeys[Int(sortKeyStarts[arrival])..<Int(sortKeyStarts[arrival + 1])])
    }

    private var termBytes: [UInt8] = []

    private func readTerms(of arrival: Int, into terms: inout [UInt32]) throws {
        let end = arrival + 1 < termOffsets.count ? termOffsets[arrival + 1] : termLists.size
        try termLists.read(at: termOffsets[arrival], count: Int(end - termOffsets[arrival]), into: &termBytes)
        terms.removeAll(keepingCapacity: true)
        var index = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < termBytes.count {
                let byte = termBytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        let count = Int(varint())
        var previous: UInt32 = 0
        for _ in 0..<count {
            previous += UInt32(truncatingIfNeeded: varint())
            terms.append(previous)
        }
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

    /// Every blob an index may have, for copying an index (offline snapshots).
    public static let all = [
        lexicon, infix, DocumentAttributes.ranksBlob, DocumentAttributes.browseOrderBlob,
        DocumentAttributes.pricesBlob, DocumentAttributes.priceOrderBlob,
    ]
}

/// A record in the builder's temporary file: the fields an item row needs, then its JSON.
enum RecordBlob {
    /// Appends the blob; returns the record's content hash.
    @discardableResult
    static func write(record: Record, categoryNumbers: [Int], json: [UInt8], to bytes: inout [UInt8]) -> UInt64 {
        func text(_ value: String?) {
            guard let value else { return BinaryWriter.append(UInt32.max, to: &bytes) }
            BinaryWriter.append(UInt32(value.utf8.count), to: &bytes)
            bytes.append(contentsOf: value.utf8)
        }
        text(record.title)
        text(record.subtitle)
        BinaryWriter.append(UInt32(record.categories.count), to: &bytes)
        for (label, number) in zip(record.categories, categoryNumbers) {
            text(label)
            BinaryWriter.append(UInt32(number), to: &bytes)
        }
        BinaryWriter.append(UInt64(bitPattern: Int64(record.featured ?? Int(Int64.min))), to: &bytes)
        text(record.price.map { DecimalText.format($0) })
        let hash = Self.hash(json)
        BinaryWriter.append(hash, to: &bytes)
        bytes.append(contentsOf: json)
        return hash
    }

    static func item(
        from bytes: [UInt8], document: Int, id: String, section: Int, sortKey: [UInt8], position: Int
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
        var numbers: [Int] = []
        for _ in 0..<categoryCount {
            categories.append(try text() ?? "")
            guard let number = reader.uint32() else { throw StorageError(.engine, "a temporary file is damaged") }
            numbers.append(Int(number))
        }
        guard let featuredBits = reader.uint64() else { throw StorageError(.engine, "a temporary file is damaged") }
        let featured = Int64(bitPattern: featuredBits)
        let price = try text().flatMap(DecimalText.parse)
        guard let hash = reader.uint64(), let json = reader.take(bytes.count - reader.position) else {
            throw StorageError(.engine, "a temporary file is damaged")
        }
        return IndexedItem(
            document: document, id: id, section: section, sortKey: sortKey, position: position, title: title,
            subtitle: subtitle, categories: categories, categoryNumbers: numbers,
            featured: featured == Int64.min ? nil : Int(featured),
            price: price, hash: hash, json: Array(json))
    }

    /// FNV-1a over the record's JSON: equal content, equal hash.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
