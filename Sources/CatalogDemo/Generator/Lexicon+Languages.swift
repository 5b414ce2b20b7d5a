extension Lexicon {
    /// The languages the generator writes, in the order of the columns of ``LexiconData``'s tables.
    static let languageCodes = ["en", "de", "hu", "sv", "fr", "es"]

    /// Where the adjectives that read well after "is" begin (after the colours and sizes).
    private static let predicativeStarts = ["en": 10, "de": 10, "hu": 10, "sv": 10, "fr": 7, "es": 10]

    /// Builds the lexicon of `code` (one of ``languageCodes``) from ``LexiconData``, storing its
    /// text in `arena`.
    static func build(_ code: String, arena: inout TextArena) -> Lexicon {
        let column = languageCodes.firstIndex(of: code)! + 1
        let heads = rows(LexiconData.heads).map { row in
            (category: categoryIndex(row[0]), word: row[column].split(separator: ":").map(String.init))
        }
        let modifiers = rows(LexiconData.modifiers).map { row in
            (category: row[0] == "-" ? -1 : categoryIndex(row[0]), word: row[column])
        }

        var phraseTexts: [(first: String, inner: String, sentence: String, gender: Int)] = []
        var phrases: [NounPhrase] = []
        phrases.reserveCapacity(heads.count * (modifiers.count + 1))
        for head in heads {
            let bare = phrase(code, head: head.word, modifier: nil)
            for slot in 0...modifiers.count {
                var texts = bare
                var second = -1
                if slot > 0 {
                    let modifier = modifiers[slot - 1]
                    // "Schreibtisch" + "Tisch" would repeat itself: keep the bare head instead.
                    if !modifier.word.lowercased().hasSuffix(head.word[0].lowercased()) {
                        texts = phrase(code, head: head.word, modifier: modifier.word)
                        second = modifier.category == head.category ? -1 : modifier.category
                    }
                }
                phraseTexts.append(texts)
                phrases.append(
                    NounPhrase(
                        titleFirst: arena.add(texts.first),
                        titleInner: arena.add(texts.inner),
                        sentence: arena.add(texts.sentence),
                        gender: texts.gender,
                        words: texts.inner.split(separator: " ").count,
                        category: head.category,
                        secondCategory: second
                    ))
            }
        }

        let adjectiveEntries = LexiconData.adjectives[code]!.split(separator: "|").map(String.init)
        var adjectiveForms: [TextArena.Ref] = []
        var adjectiveWords: [String] = []
        for entry in adjectiveEntries {
            let forms = adjective(code, entry)
            for form in forms.first + forms.inner + [forms.predicative] {
                adjectiveForms.append(arena.add(form))
            }
            adjectiveWords.append(contentsOf: forms.inner)
        }

        var framePieces: [FramePiece] = []
        var frames: [Frame] = []
        for text in LexiconData.frames[code]! {
            let start = framePieces.count
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{") {
                if open > rest.startIndex { framePieces.append(.text(arena.add(String(rest[..<open])))) }
                framePieces.append(rest[open...].hasPrefix("{P}") ? .adjective : .noun)
                rest = rest[rest.index(open, offsetBy: 3)...]
            }
            if !rest.isEmpty { framePieces.append(.text(arena.add(String(rest)))) }
            frames.append(Frame(start: start, count: framePieces.count - start))
        }

        // Title words: adjectives, then bare heads, then each modifier's phrases, without repeats.
        var seen = Set<String>()
        var titleWords: [String] = []
        for word in adjectiveWords where seen.insert(word).inserted { titleWords.append(word) }
        for slot in 0...modifiers.count {
            for head in heads.indices {
                for word in phraseTexts[head * (modifiers.count + 1) + slot].inner.split(separator: " ") {
                    if seen.insert(String(word)).inserted { titleWords.append(String(word)) }
                }
            }
        }

        return Lexicon(
            code: code,
            adjectiveFirst: code != "fr" && code != "es",
            phrases: phrases,
            modifierCount: modifiers.count,
            headCount: heads.count,
            adjectiveForms: adjectiveForms,
            predicativeStart: predicativeStarts[code] ?? 0,
            framePieces: framePieces,
            frames: frames,
            manufacturers: makeManufacturers(code),
            countries: LexiconData.countries[code]!,
            currencies: LexiconData.currencies,
            homeCurrency: LexiconData.homeCurrency[code] ?? "EUR",
            titleWords: titleWords
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

    /// One noun phrase in the forms of `code`. `head` is `[word, gender?, definite?]`.
    private static func phrase(
        _ code: String, head: [String], modifier: String?
    ) -> (first: String, inner: String, sentence: String, gender: Int) {
        let word = head[0]
        let mark = head.count > 1 ? head[1] : ""
        switch code {
        case "en":
            let inner = modifier.map { "\($0) \(word)" } ?? word
            return (inner, inner, "the " + inner.lowercased(), 0)
        case "de":
            let genderIndex = gender(mark)
            let inner = modifier.map { $0 + word.lowercased() } ?? word
            return (inner, inner, (genderIndex == 1 ? "der " : "dem ") + inner, genderIndex)
        case "hu":
            var inner = word
            if let modifier {
                inner = modifier.hasPrefix("~") ? "\(modifier.dropFirst()) \(word)" : modifier + word
            }
            let vowel = "aáeéiíoóöőuúüű".contains(inner.first!)
            return (capitalized(inner), inner, (vowel ? "az " : "a ") + inner, 0)
        case "sv":
            let definite = head.count > 2 ? head[2] : word
            let inner = (modifier ?? "") + word
            return (capitalized(inner), inner, (modifier ?? "") + definite, mark == "n" ? 2 : 0)
        case "fr":
            let genderIndex = gender(mark)
            let inner = modifier.map { "\(word) \($0)" } ?? word
            let elided = "aâeéèêiîoôuh".contains(word.first!)
            return (capitalized(inner), inner, (elided ? "l'" : genderIndex == 1 ? "la " : "le ") + inner, genderIndex)
        default:  // es
            let genderIndex = gender(mark)
            let inner = modifier.map { "\(word) \($0)" } ?? word
            return (capitalized(inner), inner, (genderIndex == 1 ? "la " : "el ") + inner, genderIndex)
        }
    }

    /// One adjective entry (`rot`, `edel:edl`, `röd:rött`, `bleu:bleue`) in the forms of `code`:
    /// title forms per gender (masculine or common, feminine, neuter) and the predicative form.
    private static func adjective(_ code: String, _ entry: String) -> (
        first: [String], inner: [String], predicative: String
    ) {
        let parts = entry.split(separator: ":").map(String.init)
        let base = parts[0]
        let other = parts.count > 1 ? parts[1] : nil
        let forms: [String]
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
            // Predicative after a neuter subject ("Materialet är rött").
            forms = [base, base, other ?? base]
            predicative = other ?? base
        case "fr", "es":
            // Predicative after a masculine subject ("Le matériau est vert").
            forms = [base, other ?? base, base]
            predicative = base
        default:  // hu
            forms = [base, base, base]
            predicative = base
        }
        return (forms.map(capitalized), forms, predicative)
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
