import CatalogStorage

/// Which title words contain a given run of letters: a suffix array over the lexicon's title
/// words, for runs longer than ``IndexTerms/gramLength`` (shorter runs have posting lists of
/// their own).
///
/// Every suffix of every title word that is long enough to matter (more than ``IndexTerms/gramLength``
/// characters) is listed once, as the word's lexicon index and the byte offset where the suffix
/// starts, sorted by the suffix's bytes; the words containing "burg" are then one binary search
/// away. Built at import and stored beside the lexicon.
public struct InfixIndex: Sendable {
    private let terms: [UInt32]
    private let offsets: [UInt8]
    private static let magic: [UInt8] = Array("CIX1".utf8)

    /// An empty index.
    public init() {
        terms = []
        offsets = []
    }

    /// Builds the index over the title words of `lexicon`.
    public init(titleWordsOf lexicon: Lexicon) {
        var entries: [(term: UInt32, offset: UInt8)] = []
        let range = lexicon.range(prefix: [IndexTermKind.titleWord.rawValue])
        lexicon.withTerms(in: range) { index, term in
            // term[0] is the kind byte; suffixes start at scalar boundaries after it.
            var scalarsLeft = 0
            for byte in term.dropFirst() where byte & 0xC0 != 0x80 { scalarsLeft += 1 }
            for offset in 1..<term.count where term[offset] & 0xC0 != 0x80 {
                if scalarsLeft <= IndexTerms.gramLength || offset > 255 { break }
                entries.append((UInt32(index), UInt8(offset)))
                scalarsLeft -= 1
            }
        }
        var order = Array(entries.indices)
        order.sort { a, b in
            Self.compareSuffixes(lexicon, entries[a], entries[b]) < 0
        }
        terms = order.map { entries[$0].term }
        offsets = order.map { entries[$0].offset }
    }

    private static func compareSuffixes(
        _ lexicon: Lexicon, _ a: (term: UInt32, offset: UInt8), _ b: (term: UInt32, offset: UInt8)
    ) -> Int {
        let left = lexicon.term(at: Int(a.term)).dropFirst(Int(a.offset))
        let right = lexicon.term(at: Int(b.term)).dropFirst(Int(b.offset))
        for (x, y) in zip(left, right) where x != y { return Int(x) - Int(y) }
        if left.count != right.count { return left.count - right.count }
        return a.term != b.term ? Int(a.term) - Int(b.term) : Int(a.offset) - Int(b.offset)
    }

    /// The lexicon indexes of the title words containing `run` (folded, without a kind byte)
    /// at a position past their first character, ascending and distinct.
    public func words(containing run: [UInt8], in lexicon: Lexicon) -> [Int] {
        func comparePrefix(_ position: Int) -> Int {
            let suffix = lexicon.term(at: Int(terms[position])).dropFirst(Int(offsets[position]))
            for (x, y) in zip(suffix, run) where x != y { return Int(x) - Int(y) }
            return suffix.count >= run.count ? 0 : -1
        }
        var low = 0
        var high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if comparePrefix(middle) < 0 { low = middle + 1 } else { high = middle }
        }
        var result: [Int] = []
        var position = low
        while position < terms.count && comparePrefix(position) == 0 {
            result.append(Int(terms[position]))
            position += 1
        }
        result.sort()
        var distinct: [Int] = []
        for index in result where distinct.last != index { distinct.append(index) }
        return distinct
    }

    /// The stored form.
    public func serialized() -> [UInt8] {
        var bytes = Self.magic
        BinaryWriter.append(UInt32(terms.count), to: &bytes)
        BinaryWriter.append(terms, to: &bytes)
        bytes.append(contentsOf: offsets)
        return bytes
    }

    /// Reads the stored form, checked against `lexicon` so no entry points outside it.
    public init(serialized bytes: [UInt8], lexicon: Lexicon) throws(StorageError) {
        var reader = BinaryReader(bytes)
        guard reader.take(4) == Self.magic[...], let count = reader.uint32(), let terms = reader.uint32s(Int(count)),
            let offsets = reader.take(Int(count)), reader.isAtEnd
        else { throw StorageError(.engine, "the search index is damaged") }
        for (term, offset) in zip(terms, offsets)
        where Int(term) >= lexicon.count || Int(offset) >= lexicon.term(at: Int(term)).count {
            throw StorageError(.engine, "the search index is damaged")
        }
        self.terms = terms
        self.offsets = Array(offsets)
    }
}
