/// The words of one language, ready for the generator's hot loop: every noun phrase and adjective
/// form is built once, so making a title or a sentence only appends finished strings.
struct Lexicon: Sendable {
    /// A thing with its modifier (`Gartenlampe`, `Garden Lamp`, `lampe de jardin`) in every form a
    /// title or sentence needs.
    struct NounPhrase: Sendable {
        /// As the first word(s) of a title.
        var titleFirst: String
        /// Inside a title.
        var titleInner: String
        /// Inside a sentence, with its article where the language's frames expect one.
        var sentence: String
        /// Characters of ``sentence``.
        var sentenceLength: Int
        /// 0 masculine / common / none, 1 feminine, 2 neuter.
        var gender: Int
        /// Words in ``titleInner``.
        var words: Int
        /// Index into the category labels.
        var category: Int
        /// A second category suggested by the modifier, or -1.
        var secondCategory: Int
    }

    /// An adjective in its title forms per gender and its predicative form.
    struct Adjective: Sendable {
        /// Title forms when the adjective opens the title, per gender.
        var first: [String]
        /// Title forms inside the title, per gender.
        var inner: [String]
        /// The form after "is" (`rot`, `rött`, `rouge`).
        var predicative: String
        /// Characters of ``predicative``.
        var predicativeLength: Int
    }

    /// A sentence with slots.
    struct Frame: Sendable {
        enum Piece: Sendable {
            case text(String)
            case adjective
            case noun
        }
        var pieces: [Piece]
        /// Characters of the literal pieces.
        var fixedLength: Int
    }

    /// The language code (`en`, `de`, …).
    var code: String
    /// Whether adjectives precede the noun in titles (`Rote Lampe`) or follow it (`Lampe rouge`).
    var adjectiveFirst: Bool
    /// All noun phrases, `head * (modifierCount + 1) + modifier + 1`; modifier slot 0 is the bare head.
    var phrases: [NounPhrase]
    /// How many modifiers each head combines with.
    var modifierCount: Int
    /// Skewed choice of head.
    var headChoice: SkewedChoice
    /// Skewed choice of modifier.
    var modifierChoice: SkewedChoice
    /// Adjectives, most common first.
    var adjectives: [Adjective]
    /// Skewed choice of adjective.
    var adjectiveChoice: SkewedChoice
    /// Sentence frames for descriptions.
    var frames: [Frame]
    /// Manufacturers of this language's market, most common first.
    var manufacturers: [String]
    /// Skewed choice of manufacturer.
    var manufacturerChoice: SkewedChoice
    /// Countries of origin of this market.
    var countries: [String]
    /// Weighted choice of country.
    var countryChoice: SkewedChoice
    /// Currency per entry of ``countries``.
    var countryCurrencies: [String]
    /// Currency for things made elsewhere.
    var homeCurrency: String

    /// A random noun phrase, skewed towards common heads and modifiers; about a third are bare.
    @inline(__always)
    func randomPhrase(_ random: inout SplitMix64) -> NounPhrase {
        let head = headChoice.pick(&random)
        let modifier = random.below(3) == 0 ? 0 : modifierChoice.pick(&random) + 1
        return phrases[head * (modifierCount + 1) + modifier]
    }

    /// A random adjective, skewed towards common ones.
    @inline(__always)
    func randomAdjective(_ random: inout SplitMix64) -> Adjective {
        adjectives[adjectiveChoice.pick(&random)]
    }

    /// Every distinct word a title can contain, most common first (roughly).
    var titleWords: [String] {
        var words: [String] = []
        for adjective in adjectives { words.append(contentsOf: adjective.inner) }
        let heads = phrases.count / (modifierCount + 1)
        for modifier in 0...modifierCount {
            for head in 0..<heads {
                words.append(contentsOf: phrases[head * (modifierCount + 1) + modifier].titleInner.split(separator: " ").map(String.init))
            }
        }
        return words
    }
}

extension Lexicon.Frame {
    /// Parses `"Looks {P} in any room."`.
    init(parsing text: String) {
        var pieces: [Piece] = []
        var fixed = 0
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let literal = String(rest[..<open])
            if !literal.isEmpty {
                pieces.append(.text(literal))
                fixed += literal.count
            }
            let slot = rest[open...].prefix(3)
            pieces.append(slot == "{P}" ? .adjective : .noun)
            rest = rest[rest.index(open, offsetBy: 3)...]
        }
        if !rest.isEmpty {
            pieces.append(.text(String(rest)))
            fixed += rest.count
        }
        self.init(pieces: pieces, fixedLength: fixed)
    }
}
