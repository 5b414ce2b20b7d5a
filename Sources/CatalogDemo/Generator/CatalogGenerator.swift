import CatalogModel
import Foundation

/// Makes synthetic catalogs of any size for `catalog generate` and the benchmarks: realistic,
/// multilingual titles, manufacturers, descriptions, categories, prices and countries, the same
/// every time for the same parameters.
///
/// Titles combine adjectives, compound nouns and model designations from invented-but-plausible
/// vocabularies in English, German, Hungarian, Swedish, French and Spanish (about 5,000 distinct
/// words), chosen with a Zipf-like skew so a few words are common and most are rare. About 1.5 % of
/// titles start with a digit and 0.5 % are written in Greek, Cyrillic or katakana.
///
/// ```swift
/// let generator = CatalogGenerator(items: 1_000_000, locale: "hu", seed: 7)
/// var definition = generator.definition
/// definition.id = "big"
/// try generator.forEachRecord { record in try batch.append(record) }
/// ```
public struct CatalogGenerator: Sendable {
    /// How many records ``forEachRecord(_:)`` produces.
    public let items: Int
    /// The catalog's locale; decides the dominant language and the category labels.
    public let locale: String
    /// The seed of the pseudo-random sequence.
    public let seed: UInt64

    private let vocabulary: GeneratorVocabulary
    private let languageChoice: SkewedChoice
    private let languageOrder: [Int]
    private let categoryLabels: [String]
    /// Category lists of one label and of two, shared by the records that carry them.
    private let singleCategories: [[String]]
    private let pairCategories: [[String]]

    /// Creates a generator.
    ///
    /// - Parameters:
    ///   - items: The number of records (0 or more).
    ///   - locale: A BCP 47 locale. `en`, `de`, `hu`, `sv`, `fr` and `es` make that language
    ///     dominant (70 % of records, 6 % each for the others) and label categories in it; any
    ///     other locale mixes all six evenly, with English labels.
    ///   - seed: Different seeds give different catalogs of the same shape.
    public init(items: Int, locale: String = "en", seed: UInt64 = 1) {
        precondition(items >= 0, "items must not be negative")
        self.items = items
        self.locale = locale
        self.seed = seed
        vocabulary = .shared
        let language = locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        let codes = Lexicon.languageCodes
        let labels: [String]
        if let language, let dominant = codes.firstIndex(of: language) {
            languageChoice = SkewedChoice(weights: codes.indices.map { $0 == dominant ? 70 : 6 })
            languageOrder = [dominant] + codes.indices.filter { $0 != dominant }
            labels = LexiconData.categoryLabels[language]!
        } else {
            languageChoice = SkewedChoice(weights: codes.map { _ in 1 })
            languageOrder = Array(codes.indices)
            labels = LexiconData.categoryLabels["en"]!
        }
        categoryLabels = labels
        singleCategories = labels.map { [$0] }
        pairCategories = labels.flatMap { first in labels.map { [first, $0] } }
    }

    /// The catalog's definition: a placeholder id and title for the caller to replace, the locale,
    /// and the category labels in display order. No mapping (records come ready) and no scopes.
    public var definition: CatalogDefinition {
        var definition = CatalogDefinition(id: "generated", title: "Generated catalog", locale: locale)
        definition.categories = categoryLabels.enumerated().map { CategoryInfo(id: $0.offset + 1, name: $0.element) }
        return definition
    }

    /// The distinct words titles are made of (adjectives and nouns, without model designations),
    /// the dominant language first, common words before rare ones; for benchmarks that type
    /// prefixes of real words.
    public var titleWords: [String] {
        var seen = Set<String>()
        var words: [String] = []
        for language in languageOrder {
            for word in vocabulary.lexicons[language].titleWords where seen.insert(word).inserted {
                words.append(word)
            }
        }
        return words
    }

    /// Calls `body` once per record, in id order (`g0000001`, `g0000002`, …). The same items,
    /// locale and seed always give identical records.
    ///
    /// - Parameter body: Receives each record; an error it throws stops the generation.
    /// - Throws: Whatever `body` throws.
    public func forEachRecord(_ body: (Record) throws -> Void) rethrows {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        try vocabulary.arena.withUnsafeBufferPointer { arena in
            var state = State(
                random: SplitMix64(seed: seed),
                writer: TextWriter(arena: arena, buffer: buffer),
                idBytes: Self.firstID(items: items)
            )
            for _ in 0..<items {
                try body(makeRecord(&state))
            }
        }
    }

    /// What carries over from one record to the next.
    private struct State {
        var random: SplitMix64
        var writer: TextWriter
        var idBytes: [UInt8]
        var featuredRank = 0
    }

    /// `g0000000` (one before the first id), with more digits for ten million items or more.
    private static func firstID(items: Int) -> [UInt8] {
        var digits = 7
        var limit = 10_000_000
        while items >= limit && digits < 18 {
            digits += 1
            limit *= 10
        }
        return [UInt8(ascii: "g")] + [UInt8](repeating: UInt8(ascii: "0"), count: digits)
    }

    @inline(__always)
    private func makeRecord(_ state: inout State) -> Record {
        var position = state.idBytes.count - 1
        while state.idBytes[position] == UInt8(ascii: "9") {
            state.idBytes[position] = UInt8(ascii: "0")
            position -= 1
        }
        state.idBytes[position] += 1
        let id = String(decoding: state.idBytes, as: UTF8.self)

        var lexicon = vocabulary.lexicons[languageChoice.pick(&state.random)]
        var first: Int
        var second = -1
        state.writer.reset()
        if state.random.chance(perTenThousand: 50) {
            // Greek, Cyrillic or katakana, described in English.
            lexicon = vocabulary.lexicons[0]
            let entry = state.random.below(vocabulary.otherScriptTitles.count)
            state.writer.append(vocabulary.otherScriptTitles[entry])
            if vocabulary.otherScriptWords[entry] < 2 || state.random.below(2) == 0 {
                state.writer.space()
                state.writer.append(vocabulary.modelCodes[vocabulary.modelChoice.pick(&state.random)])
            }
            first = vocabulary.otherScriptCategories[entry]
        } else {
            let phrase = lexicon.randomPhrase(&state.random)
            writeTitle(phrase: phrase, lexicon: lexicon, state: &state)
            first = phrase.category
            if phrase.secondCategory >= 0 && state.random.below(100) < 60 { second = phrase.secondCategory }
        }
        let title = state.writer.string()

        var categories = second < 0 ? singleCategories[first] : pairCategories[first * categoryLabels.count + second]
        if state.random.below(100) < 8 {
            let extra = state.random.below(categoryLabels.count)
            if extra != first && extra != second {
                categories =
                    second < 0
                    ? pairCategories[first * categoryLabels.count + extra]
                    : categories + [categoryLabels[extra]]
            }
        }

        let subtitle: String
        if state.random.below(100) < 85 {
            subtitle = lexicon.manufacturers[lexicon.manufacturerChoice.pick(&state.random)]
        } else {
            let other = vocabulary.lexicons[state.random.below(vocabulary.lexicons.count)]
            subtitle = other.manufacturers[state.random.below(other.manufacturers.count)]
        }

        writeDescription(lexicon: lexicon, state: &state)
        let description = state.writer.string()

        let country: String
        let currency: String
        if state.random.below(100) < 70 {
            let index = lexicon.countryChoice.pick(&state.random)
            country = lexicon.countries[index]
            currency = lexicon.countryCurrencies[index]
        } else {
            country = vocabulary.workshopCountries[vocabulary.workshopChoice.pick(&state.random)]
            currency = lexicon.homeCurrency
        }

        var featured: Int?
        if state.random.chance(perTenThousand: 10) {
            state.featuredRank += 1
            featured = state.featuredRank
        }

        return Record(
            id: id,
            title: title,
            subtitle: subtitle,
            description: description,
            categories: categories,
            price: Self.makePrice(&state.random),
            currency: currency,
            quantity: Self.makeQuantity(&state.random),
            country: country,
            image: nil,
            featured: featured
        )
    }

    /// Writes 2–5 words: [digits] adjective(s) + noun phrase + [model], or the noun before its
    /// adjectives in French and Spanish.
    @inline(__always)
    private func writeTitle(phrase: Lexicon.NounPhrase, lexicon: Lexicon, state: inout State) {
        var adjectives = state.random.below(100) < 70 ? 1 : 0
        if adjectives == 1 && state.random.below(100) < 12 { adjectives = 2 }
        var model = state.random.below(100) < 25
        let digits = state.random.chance(perTenThousand: 150)
        if phrase.words + adjectives + (model ? 1 : 0) + (digits ? 1 : 0) < 2 { adjectives = 1 }
        while phrase.words + adjectives + (model ? 1 : 0) + (digits ? 1 : 0) > 5 {
            if model { model = false } else { adjectives -= 1 }
        }
        var firstAdjective = 0
        var secondAdjective = 0
        if adjectives > 0 { firstAdjective = lexicon.adjectiveChoice.pick(&state.random) }
        if adjectives > 1 {
            // A quality, never a second colour: "Faltbare rote Lampe", "Table noire pliable".
            secondAdjective = lexicon.predicativeStart + lexicon.predicativeChoice.pick(&state.random)
            if secondAdjective == firstAdjective { secondAdjective = (firstAdjective + 1) % lexicon.adjectiveCount }
        }

        var atStart = true
        if digits {
            state.writer.append(vocabulary.digitPrefixes[state.random.below(vocabulary.digitPrefixes.count)])
            atStart = false
        }
        if lexicon.adjectiveFirst {
            for slot in 0..<adjectives {
                if !atStart { state.writer.space() }
                let index = slot == adjectives - 1 ? firstAdjective : secondAdjective
                state.writer.append(lexicon.adjective(index, gender: phrase.gender, atStart: atStart))
                atStart = false
            }
            if !atStart { state.writer.space() }
            state.writer.append(atStart ? phrase.titleFirst : phrase.titleInner)
        } else {
            if !atStart { state.writer.space() }
            state.writer.append(atStart ? phrase.titleFirst : phrase.titleInner)
            for slot in 0..<adjectives {
                state.writer.space()
                let index = slot == 0 ? firstAdjective : secondAdjective
                state.writer.append(lexicon.adjective(index, gender: phrase.gender, atStart: false))
            }
        }
        if model {
            state.writer.space()
            state.writer.append(vocabulary.modelCodes[vocabulary.modelChoice.pick(&state.random)])
        }
    }

    /// Writes one to three different sentences from the lexicon's frames, 60–250 characters.
    @inline(__always)
    private func writeDescription(lexicon: Lexicon, state: inout State) {
        state.writer.reset()
        var used: UInt32 = 0
        let wanted = 1 + state.random.below(3)
        var sentences = 0
        let frameCount = lexicon.frames.count
        while sentences < wanted || state.writer.characters < 60 {
            var index = state.random.below(frameCount)
            while used & (1 << UInt32(index)) != 0 { index = (index + 1) % frameCount }
            let frame = lexicon.frames[index]
            var adjective: TextArena.Ref?
            var phrase: TextArena.Ref?
            var length = 0
            for piece in lexicon.framePieces[frame.start..<(frame.start + frame.count)] {
                switch piece {
                case .text(let literal):
                    length += Int(literal.characters)
                case .adjective:
                    let chosen = adjective ?? lexicon.randomPredicative(&state.random)
                    adjective = chosen
                    length += Int(chosen.characters)
                case .noun:
                    let chosen = phrase ?? lexicon.randomPhrase(&state.random).sentence
                    phrase = chosen
                    length += Int(chosen.characters)
                }
            }
            let separator = state.writer.count == 0 ? 0 : 1
            if state.writer.characters + separator + length > 250 { break }
            if separator == 1 { state.writer.space() }
            for piece in lexicon.framePieces[frame.start..<(frame.start + frame.count)] {
                switch piece {
                case .text(let literal): state.writer.append(literal)
                case .adjective: state.writer.append(adjective!)
                case .noun: state.writer.append(phrase!)
                }
            }
            used |= 1 << UInt32(index)
            sentences += 1
            if used.nonzeroBitCount == frameCount { break }
        }
    }

    /// 0.99–4999.00, mostly ending in .99, .90 or .00, skewed towards cheap things.
    @inline(__always)
    private static func makePrice(_ random: inout SplitMix64) -> Decimal {
        var cents: Int
        switch random.below(100) {
        case 0..<30: cents = random.inRange(99...1_999)
        case 30..<70: cents = random.inRange(2_000...19_999)
        case 70..<92: cents = random.inRange(20_000...99_999)
        default: cents = random.inRange(100_000...499_900)
        }
        switch random.below(10) {
        case 0..<6: cents = cents / 100 * 100 + 99
        case 6..<8: cents = cents / 100 * 100 + 90
        case 8: cents = cents / 100 * 100
        default: break
        }
        cents = min(max(cents, 99), 499_900)
        return Decimal(sign: .plus, exponent: -2, significand: Decimal(cents))
    }

    /// 0 for one record in ten, otherwise mostly small.
    @inline(__always)
    private static func makeQuantity(_ random: inout SplitMix64) -> Int {
        switch random.below(100) {
        case 0..<10: 0
        case 10..<60: random.inRange(1...20)
        case 60..<95: random.inRange(21...200)
        default: random.inRange(201...2_000)
        }
    }
}
