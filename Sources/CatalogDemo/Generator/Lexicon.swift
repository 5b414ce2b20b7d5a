/// The words of one language, ready for the generator's hot loop: every noun phrase and adjective
/// form is built once into the shared ``TextArena``, so making a title or a sentence only copies
/// bytes.
final class Lexicon: Sendable {
    /// A thing with its modifier (`Gartenlampe`, `Garden Lamp`, `lampe de jardin`) in every form a
    /// title or sentence needs.
    struct NounPhrase: Sendable {
        /// As the first word(s) of a title.
        var titleFirst: TextArena.Ref
        /// Inside a title.
        var titleInner: TextArena.Ref
        /// Inside a sentence, with its article where the language's frames expect one.
        var sentence: TextArena.Ref
        /// 0 masculine / common / none, 1 feminine, 2 neuter.
        var gender: Int
        /// Words in ``titleInner``.
        var words: Int
        /// Index into the category labels.
        var category: Int
        /// A second category suggested by the modifier, or -1.
        var secondCategory: Int
    }

    /// One piece of a sentence frame.
    enum FramePiece: Sendable {
        case text(TextArena.Ref)
        case adjective
        case noun
    }

    /// A sentence frame: a run of ``framePieces``.
    struct Frame: Sendable {
        var start: Int
        var count: Int
    }

    /// The language code (`en`, `de`, …).
    let code: String
    /// Whether adjectives precede the noun in titles (`Rote Lampe`) or follow it (`Lampe rouge`).
    let adjectiveFirst: Bool
    /// All noun phrases, `head * (modifierCount + 1) + modifier + 1`; modifier slot 0 is the bare head.
    let phrases: [NounPhrase]
    /// How many modifiers each head combines with.
    let modifierCount: Int
    /// Skewed choice of head.
    let headChoice: SkewedChoice
    /// Skewed choice of modifier.
    let modifierChoice: SkewedChoice
    /// Seven forms per adjective: title forms at the start per gender (3), inside a title per
    /// gender (3), predicative (1).
    let adjectiveForms: [TextArena.Ref]
    /// Skewed choice of adjective for titles (all of them, colours first).
    let adjectiveChoice: SkewedChoice
    /// The first adjective that reads well after "is" (after the colours and sizes).
    let predicativeStart: Int
    /// Skewed choice among the predicative adjectives.
    let predicativeChoice: SkewedChoice
    /// The pieces of all sentence frames.
    let framePieces: [FramePiece]
    /// Sentence frames for descriptions.
    let frames: [Frame]
    /// Manufacturers of this language's market, most common first.
    let manufacturers: [String]
    /// Skewed choice of manufacturer.
    let manufacturerChoice: SkewedChoice
    /// Countries of origin of this market.
    let countries: [String]
    /// Weighted choice of country.
    let countryChoice: SkewedChoice
    /// Currency per entry of ``countries``.
    let countryCurrencies: [String]
    /// Currency for things made elsewhere.
    let homeCurrency: String
    /// Every distinct word a title can contain, adjectives first, common before rare.
    let titleWords: [String]

    init(
        code: String, adjectiveFirst: Bool, phrases: [NounPhrase], modifierCount: Int, headCount: Int,
        adjectiveForms: [TextArena.Ref], predicativeStart: Int, framePieces: [FramePiece], frames: [Frame],
        manufacturers: [String], countries: [(code: String, weight: Int)], currencies: [String: String],
        homeCurrency: String, titleWords: [String]
    ) {
        self.code = code
        self.adjectiveFirst = adjectiveFirst
        self.phrases = phrases
        self.modifierCount = modifierCount
        headChoice = SkewedChoice(count: headCount, offset: 3)
        modifierChoice = SkewedChoice(count: modifierCount, offset: 3)
        self.adjectiveForms = adjectiveForms
        let adjectives = adjectiveForms.count / 7
        adjectiveChoice = SkewedChoice(count: adjectives, offset: 2)
        self.predicativeStart = predicativeStart
        predicativeChoice = SkewedChoice(count: adjectives - predicativeStart, offset: 2)
        self.framePieces = framePieces
        self.frames = frames
        self.manufacturers = manufacturers
        manufacturerChoice = SkewedChoice(count: manufacturers.count, offset: 2)
        self.countries = countries.map(\.code)
        countryChoice = SkewedChoice(weights: countries.map(\.weight))
        countryCurrencies = countries.map { currencies[$0.code] ?? homeCurrency }
        self.homeCurrency = homeCurrency
        self.titleWords = titleWords
    }

    /// The number of adjectives.
    var adjectiveCount: Int { adjectiveForms.count / 7 }

    /// A random noun phrase, skewed towards common heads and modifiers; a third are bare heads.
    @inline(__always)
    func randomPhrase(_ random: inout SplitMix64) -> NounPhrase {
        let head = headChoice.pick(&random)
        let modifier = random.below(3) == 0 ? 0 : modifierChoice.pick(&random) + 1
        return phrases[head * (modifierCount + 1) + modifier]
    }

    /// The title form of adjective `index` agreeing with `gender`.
    @inline(__always)
    func adjective(_ index: Int, gender: Int, atStart: Bool) -> TextArena.Ref {
        adjectiveForms[index * 7 + (atStart ? 0 : 3) + gender]
    }

    /// A random predicative adjective (`leicht`, `practical`, `rostfritt`).
    @inline(__always)
    func randomPredicative(_ random: inout SplitMix64) -> TextArena.Ref {
        adjectiveForms[(predicativeStart + predicativeChoice.pick(&random)) * 7 + 6]
    }
}
