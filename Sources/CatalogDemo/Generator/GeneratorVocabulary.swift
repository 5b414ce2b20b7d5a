/// Everything the generator draws words from, built once per process on first use (a few
/// milliseconds) and shared by every generator.
struct GeneratorVocabulary: Sendable {
    /// The shared vocabulary.
    static let shared = GeneratorVocabulary()

    /// The UTF-8 text every ``TextArena/Ref`` points into.
    let arena: [UInt8]
    /// One lexicon per language, in the order of ``Lexicon/languageCodes``.
    let lexicons: [Lexicon]
    /// Model designations (`T-200`, `K45`, `Pro`), most common first.
    let modelCodes: [TextArena.Ref]
    /// Skewed choice of model designation.
    let modelChoice: SkewedChoice
    /// Titles in other scripts.
    let otherScriptTitles: [TextArena.Ref]
    /// Words in each of ``otherScriptTitles``.
    let otherScriptWords: [Int]
    /// The category index of each of ``otherScriptTitles``.
    let otherScriptCategories: [Int]
    /// Tokens that put a title under `#`.
    let digitPrefixes: [TextArena.Ref]
    /// Countries that make things for every market.
    let workshopCountries: [String]
    /// Weighted choice of workshop country.
    let workshopChoice: SkewedChoice

    private init() {
        var arena = TextArena()
        lexicons = Lexicon.languageCodes.map { Lexicon.build($0, arena: &arena) }

        var codes = ["Pro", "Max", "Plus", "Lite", "Mini", "Duo", "Eco", "Flex", "Neo", "Ultra"]
        let letters = ["T", "X", "S", "K", "V", "R", "M", "Z", "A", "E", "G", "C"]
        let numbers = [200, 5, 40, 100, 12, 3, 300, 7, 20, 500, 50, 10, 120, 30, 700, 900, 60, 1]
        for (index, number) in numbers.enumerated() {
            for (letterIndex, letter) in letters.enumerated() {
                codes.append((index + letterIndex) % 2 == 0 ? "\(letter)-\(number)" : "\(letter)\(number)")
            }
        }
        modelCodes = codes.map { arena.add($0) }
        modelChoice = SkewedChoice(count: codes.count, offset: 4)

        otherScriptTitles = LexiconData.otherScriptTitles.map { arena.add($0.title) }
        otherScriptWords = LexiconData.otherScriptTitles.map { $0.title.split(separator: " ").count }
        otherScriptCategories = LexiconData.otherScriptTitles.map {
            LexiconData.categoryKeys.firstIndex(of: $0.category)!
        }
        digitPrefixes = LexiconData.digitPrefixes.map { arena.add($0) }
        workshopCountries = LexiconData.workshopCountries.map(\.code)
        workshopChoice = SkewedChoice(weights: LexiconData.workshopCountries.map(\.weight))
        self.arena = arena.bytes
    }
}
