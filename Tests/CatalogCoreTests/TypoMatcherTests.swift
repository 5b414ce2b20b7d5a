import CatalogCore
import CatalogModel
import CatalogStorage
import Testing

@Suite struct TypoMatcherTests {
    /// Edit distance with swaps of neighbours (optimal string alignment), the plain way.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], edit: Int) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i * edit }
        for j in 0...b.count { d[0][j] = j * edit }
        if !a.isEmpty && !b.isEmpty {
            for i in 1...a.count {
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : edit
                    d[i][j] = min(d[i - 1][j] + edit, d[i][j - 1] + edit, d[i - 1][j - 1] + cost)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                    }
                }
            }
        }
        return d[a.count][b.count]
    }

    @Test func agreesWithThePlainDistanceOnRandomWords() throws {
        var random = RandomWords(seed: 11)
        let (lexicon, range) = try random.lexicon(longest: 10)
        let terms = range.map {
            Array(String(decoding: lexicon.term(at: $0).dropFirst(), as: UTF8.self).unicodeScalars)
        }
        for _ in 0..<150 {
            let query = random.word(length: 4 + random.next(7))
            guard let allowance = TypoMatcher.allowance(forLength: query.count) else { continue }
            for prefix in [false, true] {
                let found = Set(
                    TypoMatcher.matches(query, allowance: allowance, prefix: prefix, in: range, of: lexicon))
                var expected = Set<Int>()
                for (offset, term) in terms.enumerated() {
                    let candidates = prefix ? (0...term.count).map { Array(term.prefix($0)) } : [term]
                    if candidates.contains(where: {
                        Self.distance(query, $0, edit: allowance.editCost) <= allowance.maxDistance
                    }) {
                        expected.insert(range.lowerBound + offset)
                    }
                }
                #expect(found == expected, "\(String(String.UnicodeScalarView(query))) prefix: \(prefix)")
            }
        }
    }

    /// The next keystroke's walk visits only the terms the word before it matched, and finds what a
    /// walk of the whole lexicon finds; with edits dearer than a swap it may not (and is not asked to).
    @Test func aKeystrokesWalkAmongTheMatchesOfTheOneBefore() throws {
        var random = RandomWords(seed: 7)
        let (lexicon, range) = try random.lexicon(longest: 11)
        var compared = 0
        for _ in 0..<200 {
            let typed = random.word(length: 5 + random.next(7))
            let shorter = Array(typed.dropLast())
            // One typo, two typos (every edit costing one).
            for allowance in [TypoMatcher.allowance(forLength: 5)!, TypoMatcher.allowance(forLength: 9)!] {
                #expect(TypoMatcher.narrows(shorter, to: typed, allowance: allowance))
                let before = TypoMatcher.matches(shorter, allowance: allowance, prefix: true, in: range, of: lexicon)
                let whole = TypoMatcher.matches(typed, allowance: allowance, prefix: true, in: range, of: lexicon)
                let among = TypoMatcher.matches(
                    typed, allowance: allowance, prefix: true, in: range, among: before, of: lexicon)
                #expect(among == whole, "\(String(String.UnicodeScalarView(typed)))")
                compared += whole.count
                // The word once the next one is typed: whole, among its beginnings' matches.
                let beginnings = TypoMatcher.matches(typed, allowance: allowance, prefix: true, in: range, of: lexicon)
                #expect(
                    TypoMatcher.matches(
                        typed, allowance: allowance, prefix: false, in: range, among: beginnings, of: lexicon)
                        == TypoMatcher.matches(typed, allowance: allowance, prefix: false, in: range, of: lexicon))
            }
        }
        #expect(compared > 1_000)
        let swapsOnly = try #require(TypoMatcher.allowance(forLength: 4))
        #expect(
            !TypoMatcher.narrows(Array("abcx".unicodeScalars), to: Array("abcxy".unicodeScalars), allowance: swapsOnly))
        #expect(
            !TypoMatcher.narrows(
                Array("abcx".unicodeScalars), to: Array("abcyx".unicodeScalars),
                allowance: TypoMatcher.allowance(forLength: 5)!))
    }
}

/// Words of a few letters, some accented, from a seeded generator: the same words every run.
struct RandomWords {
    private var state: UInt64
    private static let alphabet = Array("abcdeé".unicodeScalars)

    init(seed: UInt64) {
        state = seed
    }

    /// A number below `n`.
    mutating func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }

    /// A word of `length` letters.
    mutating func word(length: Int) -> [Unicode.Scalar] {
        (0..<length).map { _ in Self.alphabet[next(Self.alphabet.count)] }
    }

    /// A catalog of 1,500 distinct titles of one word, 3 to `longest` letters: its lexicon and
    /// the lexicon's range of title words.
    mutating func lexicon(longest: Int) throws -> (Lexicon, Range<Int>) {
        var words = Set<String>()
        while words.count < 1_500 {
            words.insert(String(String.UnicodeScalarView(word(length: 3 + next(longest - 2)))))
        }
        let records = words.sorted().enumerated().map { Record(id: "r\($0.offset)", title: $0.element) }
        let lexicon = try TestCatalog(records).index.lexicon
        return (lexicon, lexicon.range(prefix: [IndexTermKind.titleWord.rawValue]))
    }
}
