extension Lexicon {
    /// The languages the generator writes, in a fixed order.
    static let languageCodes = ["en", "de", "hu", "fr", "sv", "es"]

    /// Builds the lexicon of `code` (one of ``languageCodes``) from ``LexiconData``.
    static func build(_ code: String) -> Lexicon {
        let column = languageCodes.firstIndex(of: code)! + 1
        let heads = rows(LexiconData.heads).map { row in
            (category: categoryIndex(row[0]), word: row[column].split(separator: ":").map(String.init))
        }
        let modifiers = rows(LexiconData.modifiers).map { row in
            (category: row[0] == "-" ? -1 : categoryIndex(row[0]), word: row[column])
        }

        var phrases: [NounPhrase] = []
        phrases.reserveCapacity(heads.count * (modifiers.count + 1))
        for head in heads {
            let bare = phrase(code, head: head.word, modifier: nil, category: head.category, secondCategory: -1)
            phrases.append(bare)
            for modifier in modifiers {
                let second = modifier.category == head.category ? -1 : modifier.category
                if modifier.word.lowercased().hasSuffix(head.word[0].lowercased()) {
                    phrases.append(bare)  // "Schreibtisch" + "Tisch": keep the bare head instead
                } else {
                    phrases.append(
                        phrase(code, head: head.word, modifier: modifier.word, category: head.category,
                               secondCategory: second))
                }
            }
        }

        let adjectives = LexiconData.adjectives[code]!.split(separator: "|").map { adjective(code, String($0)) }
        let frames = LexiconData.frames[code]!.map(Frame.init(parsing:))
        let manufacturers = makeManufacturers(code)
        let countries = LexiconData.countries[code]!

        return Lexicon(
            code: code,
            adjectiveFirst: code != "fr" && code != "es",
            phrases: phrases,
            modifierCount: modifiers.count,
            headChoice: SkewedChoice(count: heads.count, offset: 3),
            modifierChoice: SkewedChoice(count: modifiers.count, offset: 3),
            adjectives: adjectives,
            adjectiveChoice: SkewedChoice(count: adjectives.count, offset: 2),
            frames: frames,
            manufacturers: manufacturers,
            manufacturerChoice: SkewedChoice(count: manufacturers.count, offset: 2),
            countries: countries.map(\.code),
            countryChoice: SkewedChoice(weights: countries.map(\.weight)),
            countryCurrencies: countries.map { LexiconData.currencies[$0.code] ?? "EUR" },
            homeCurrency: LexiconData.homeCurrency[code] ?? "EUR"
        )
    }

    /// The non-empty lines of a table, split at `|`.
    private static func rows(_ table: String) -> [[String]] {
        table.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    private static func categoryIndex(_ key: String) -> Int {
        guard let index = LexiconData.categoryKeys.firstIndex(of: key) else {
            preconditionFailure("unknown category key \(key)")
        }
        return index
    }

    /// `lámpa` → `Lámpa`.
    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static func gender(_ mark: String) -> Int {
        switch mark {
        case "f": 1
        case "n": 2
        default: 0
        }
    }

    /// One noun phrase in the forms of `code`.
    private static func phrase(
        _ code: String, head: [String], modifier: String?, category: Int, secondCategory: Int
    ) -> NounPhrase {
        let word = head[0]
        let mark = head.count > 1 ? head[1] : ""
        var first: String
        var inner: String
        var sentence: String
        var genderIndex = 0
        switch code {
        case "en":
            inner = modifier.map { "\($0) \(word)" } ?? word
            first = inner
            sentence = "the " + inner.lowercased()
        case "de":
            genderIndex = gender(mark)
            inner = modifier.map { $0 + word.lowercased() } ?? word
            first = inner
            sentence = (genderIndex == 1 ? "der " : "dem ") + inner
        case "hu":
            if let modifier {
                inner = modifier.hasPrefix("~") ? "\(modifier.dropFirst()) \(word)" : modifier + word
            } else {
                inner = word
            }
            first = capitalized(inner)
            let vowel = "aáeéiíoóöőuúüű".contains(inner.first!)
            sentence = (vowel ? "az " : "a ") + inner
        case "sv":
            genderIndex = mark == "n" ? 2 : 0
            let definite = head.count > 2 ? head[2] : word
            inner = (modifier ?? "") + word
            first = capitalized(inner)
            sentence = (modifier ?? "") + definite
        case "fr":
            genderIndex = gender(mark)
            inner = modifier.map { "\(word) \($0)" } ?? word
            first = capitalized(inner)
            let elided = "aâeéèêiîoôuh".contains(word.first!)
            sentence = (elided ? "l'" : genderIndex == 1 ? "la " : "le ") + inner
        default:  // es
            genderIndex = gender(mark)
            inner = modifier.map { "\(word) \($0)" } ?? word
            first = capitalized(inner)
            sentence = (genderIndex == 1 ? "la " : "el ") + inner
        }
        return NounPhrase(
            titleFirst: first,
            titleInner: inner,
            sentence: sentence,
            sentenceLength: sentence.count,
            gender: genderIndex,
            words: inner.split(separator: " ").count,
            category: category,
            secondCategory: secondCategory
        )
    }

    /// One adjective entry (`rot`, `edel:edl`, `röd:rött`, `bleu:bleue`) in the forms of `code`.
    private static func adjective(_ code: String, _ entry: String) -> Adjective {
        let parts = entry.split(separator: ":").map(String.init)
        let base = parts[0]
        let other = parts.count > 1 ? parts[1] : nil
        let forms: [String]  // per gender: 0 masculine/common, 1 feminine, 2 neuter
        let predicative: String
        switch code {
        case "en":
            forms = [base, base, base]
            predicative = base.lowercased()
        case "de":
            let stem = other ?? (base.hasSuffix("e") ? String(base.dropLast()) : base)
            forms = [stem + "er", stem + "e", stem + "es"]
            predicative = base
        case "sv":
            forms = [base, base, other ?? base]
            predicative = other ?? base
        case "fr", "es":
            forms = [base, other ?? base, base]
            predicative = base
        default:  // hu
            forms = [base, base, base]
            predicative = base
        }
        return Adjective(
            first: forms.map(capitalized),
            inner: forms,
            predicative: predicative,
            predicativeLength: predicative.count
        )
    }

    /// Fifty invented manufacturer names of the language's market, in a fixed shuffled order.
    private static func makeManufacturers(_ code: String) -> [String] {
        let parts = LexiconData.manufacturerParts[code]!
        var names: [String] = []
        for first in parts.first {
            for second in parts.second where !first.lowercased().hasSuffix(second) {
                names.append(first + second)
            }
        }
        var random = SplitMix64(seed: 0x4D61_6B65_7273 &+ UInt64(names.count))
        for index in stride(from: names.count - 1, to: 0, by: -1) {
            names.swapAt(index, random.below(index + 1))
        }
        return names.prefix(50).map { "\($0) \(parts.legal[random.below(parts.legal.count)])" }
    }
}
