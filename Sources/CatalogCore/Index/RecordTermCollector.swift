import CatalogModel

/// Turns records into the numbers of their index terms (see ``IndexTermKind``), one record at a
/// time, each term once per record.
///
/// Words repeat across records far more than records do, so the terms of a word (its whole form,
/// prefixes and inner runs) are worked out once and remembered; a record then costs a lookup
/// per word.
struct RecordTermCollector {
    /// Every term seen, numbered in order of first appearance.
    private(set) var terms = TermTable(capacity: 1 << 18)
    /// How many records carry each term.
    private(set) var documentCounts: [UInt32] = []
    /// The terms of the last record collected, each once.
    private(set) var collected: [UInt32] = []
    /// The last record's rank length: the characters of its folded title, words one space apart.
    private(set) var rankLength = 0

    private var scanner: WordScanner
    /// Words already turned into terms: (class byte + folded word) to a range of `cachedTerms`.
    private var words = TermTable(capacity: 1 << 16)
    private var cachedStarts: [UInt32] = [0]
    private var cachedTerms: [UInt32] = []
    /// For each term, the number of the last record that carried it, plus one.
    private var stamps: [UInt32] = []
    private var recordNumber: UInt32 = 0
    private var scratch: [UInt8] = []
    private var scalarStarts: [Int] = []

    /// The most distinct words remembered; words beyond (record ids, serial numbers) are turned
    /// into terms each time, so memory stays bounded.
    static let wordCacheLimit = 300_000

    private enum WordClass: UInt8 {
        case title = 0x74, first = 0x66, field = 0x64, exactField = 0x65
        /// Words of a field with a weight (``SearchSettings/weight(of:)``): its field terms and
        /// its weighted terms.
        case weightedField = 0x77, weightedExactField = 0x78
    }

    /// The fields whose words are collected (``SearchSettings/searchableFields``).
    private let searchable: SearchSettings

    init(germanVariants: Bool, searchable: SearchSettings = SearchSettings()) {
        scanner = WordScanner(germanVariants: germanVariants)
        self.searchable = searchable
        scratch.reserveCapacity(128)
    }

    /// Collects the terms of `record`.
    ///
    /// - Parameter categoryNumbers: the numbers of the record's categories.
    mutating func collect(_ record: Record, categoryNumbers: [Int]) {
        recordNumber += 1
        collected.removeAll(keepingCapacity: true)
        var length = 0
        var wordIndex = 0
        var scanner = self.scanner
        // The title's length ranks the record whether or not its words are searched.
        let titleSearched = searchable.isSearchable("title")
        scanner.scan(record.title) { token, bytes in
            switch token {
            case .word:
                length += (wordIndex > 0 ? 1 : 0) + Self.scalarCount(bytes)
                if titleSearched {
                    if wordIndex == 0 { addWord(bytes, as: .first) }
                    addWord(bytes, as: .title)
                }
                wordIndex += 1
            case .variant:
                guard titleSearched else { break }
                if wordIndex == 1 { addWord(bytes, as: .first) }
                addWord(bytes, as: .title)
            case .symbol:
                if titleSearched { addTerm(.titleSymbol, bytes) }
            }
        }
        rankLength = length
        let searchable = searchable
        func scanField(_ text: String, of field: String, remember: Bool = true) {
            // Typos never reach an exempt field's words, nor a URL's.
            let exact =
                searchable.typos.exemptFields.contains(field) || text.hasPrefix("http://")
                || text.hasPrefix("https://")
            let weight = searchable.weight(of: field)
            let wordClass: WordClass =
                weight == nil ? (exact ? .exactField : .field) : (exact ? .weightedExactField : .weightedField)
            scanner.scan(text) { token, bytes in
                switch token {
                case .word, .variant: addWord(bytes, as: wordClass, weight: UInt8(weight ?? 0), remember: remember)
                case .symbol: addTerm(.fieldSymbol, bytes)
                }
            }
        }
        // Ids are unique: remembering their words would only fill the cache.
        if searchable.isSearchable("id") { scanField(record.id, of: "id", remember: false) }
        if let subtitle = record.subtitle, searchable.isSearchable("subtitle") { scanField(subtitle, of: "subtitle") }
        if let description = record.description, searchable.isSearchable("description") {
            scanField(description, of: "description")
        }
        if searchable.isSearchable("categories") {
            for label in record.categories { scanField(label, of: "categories") }
        }
        // In name order, so the same records always number their terms the same way.
        for name in record.fields.keys.sorted() where searchable.isSearchable(name) {
            for text in record.fields[name]!.values { scanField(text, of: name) }
        }
        self.scanner = scanner
        for number in categoryNumbers {
            let term = IndexTerms.category(number)
            term.withUnsafeBufferPointer { addRawTerm($0) }
        }
        if let country = record.country {
            IndexTerms.country(country).withUnsafeBufferPointer { addRawTerm($0) }
        }
        if record.price != nil, let currency = record.currency, !currency.isEmpty, !currency.utf8.contains(0) {
            IndexTerms.currency(currency).withUnsafeBufferPointer { addRawTerm($0) }
        }
        // Every field's values, searched or not, for filters, facets and sorting.
        for name in record.fields.keys.sorted() {
            for term in IndexTerms.fieldTerms(name, record.fields[name]!) {
                term.withUnsafeBufferPointer { addRawTerm($0) }
            }
        }
    }

    /// Lets go of what only collecting needs (the word cache, the term lookup), keeping the
    /// terms and their counts, before the index is written.
    mutating func finishCollecting() {
        words = TermTable(capacity: 0)
        cachedStarts = []
        cachedTerms = []
        stamps = []
        collected = []
        terms.dropLookup()
    }

    /// The number of characters (Unicode scalars) in folded UTF-8.
    @inline(__always)
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Adds the terms of one word of `wordClass` (`weight`: of a weighted class).
    private mutating func addWord(
        _ word: UnsafeBufferPointer<UInt8>, as wordClass: WordClass, weight: UInt8 = 0, remember: Bool = true
    ) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(wordClass.rawValue)
        if weight > 0 { scratch.append(weight) }
        scratch.append(contentsOf: word)
        let known: Int? = scratch.withUnsafeBufferPointer { words.lookup($0) }
        if let known {
            for index in Int(cachedStarts[known])..<Int(cachedStarts[known + 1]) { mark(cachedTerms[index]) }
            return
        }
        let first = cachedTerms.count
        termsOfWord(word, as: wordClass, weight: weight)
        if remember && words.count < Self.wordCacheLimit {
            _ = scratch.withUnsafeBufferPointer { words.number(of: $0) }
            cachedStarts.append(UInt32(cachedTerms.count))
        } else {
            cachedTerms.removeSubrange(first...)
        }
    }

    /// Adds the terms of one word to the record and to the cache's pool.
    private mutating func termsOfWord(_ word: UnsafeBufferPointer<UInt8>, as wordClass: WordClass, weight: UInt8) {
        scalarStarts.removeAll(keepingCapacity: true)
        for (index, byte) in word.enumerated() where byte & 0xC0 != 0x80 { scalarStarts.append(index) }
        let scalars = scalarStarts.count
        func end(_ scalar: Int) -> Int { scalar < scalars ? scalarStarts[scalar] : word.count }
        func add(_ kind: IndexTermKind, _ range: Range<Int>, weight: UInt8? = nil) {
            let number = termNumber(kind, UnsafeBufferPointer(rebasing: word[range]), weight: weight)
            cachedTerms.append(number)
            mark(number)
        }
        switch wordClass {
        case .title:
            add(.titleWord, 0..<word.count)
            for length in 1...min(IndexTerms.prefixLength, scalars) { add(.titlePrefix, 0..<end(length)) }
            for length in 1...min(IndexTerms.gramLength, scalars) {
                for start in 0...(scalars - length) {
                    add(.titleGram, scalarStarts[start]..<end(start + length))
                }
            }
        case .first:
            add(.firstWord, 0..<word.count)
            for length in 1...min(IndexTerms.prefixLength, scalars) { add(.firstPrefix, 0..<end(length)) }
        case .field, .exactField, .weightedField, .weightedExactField:
            let exact = wordClass == .exactField || wordClass == .weightedExactField
            add(exact ? .exactFieldWord : .fieldWord, 0..<word.count)
            for length in 1...min(IndexTerms.fieldPrefixLength, scalars) { add(.fieldPrefix, 0..<end(length)) }
            guard wordClass == .weightedField || wordClass == .weightedExactField else { break }
            add(.weightedFieldWord, 0..<word.count, weight: weight)
            for length in 1...min(IndexTerms.fieldPrefixLength, scalars) {
                add(.weightedFieldPrefix, 0..<end(length), weight: weight)
            }
        }
    }

    private mutating func addTerm(_ kind: IndexTermKind, _ text: UnsafeBufferPointer<UInt8>) {
        mark(termNumber(kind, text))
    }

    private mutating func addRawTerm(_ term: UnsafeBufferPointer<UInt8>) {
        let (number, isNew) = terms.number(of: term)
        if isNew { grow() }
        mark(UInt32(number))
    }

    /// The number of the term of `text` of `kind` (after a weight byte when `weight` is given).
    private mutating func termNumber(_ kind: IndexTermKind, _ text: UnsafeBufferPointer<UInt8>, weight: UInt8? = nil)
        -> UInt32
    {
        var term = [kind.rawValue]
        if let weight { term.append(weight) }
        term.append(contentsOf: text)
        let (number, isNew) = term.withUnsafeBufferPointer { terms.number(of: $0) }
        if isNew { grow() }
        return UInt32(number)
    }

    private mutating func grow() {
        documentCounts.append(0)
        stamps.append(0)
    }

    @inline(__always)
    private mutating func mark(_ term: UInt32) {
        let index = Int(term)
        guard stamps[index] != recordNumber else { return }
        stamps[index] = recordNumber
        documentCounts[index] += 1
        collected.append(term)
    }
}
