/// Everything the generator draws words from, built once per process on first use (about a
/// millisecond) and shared by every generator.
struct GeneratorVocabulary: Sendable {
    /// The shared vocabulary.
    static let shared = GeneratorVocabulary()

    /// One lexicon per language, in the order of ``Lexicon/languageCodes``.
    let lexicons: [Lexicon]
    /// Model designations (`T-200`, `K45`, `Pro`), most common first.
    let modelCodes: [String]
    /// Skewed choice of model designation.
    let modelChoice: SkewedChoice
    /// Titles in other scripts with their category index.
    let otherScriptTitles: [(title: String, category: Int)]
    /// Countries that make things for every market.
    let workshopCountries: [String]
    /// Weighted choice of workshop country.
    let workshopChoice: SkewedChoice

    private init() {
        lexicons = Lexicon.languageCodes.map(Lexicon.build)

        var codes = ["Pro", "Max", "Plus", "Lite", "Mini", "Duo", "Eco", "Flex", "Neo", "Ultra"]
        let letters = ["T", "X", "S", "K", "V", "R", "M", "Z", "A", "E", "G", "C"]
        let numbers = [200, 5, 40, 100, 12, 3, 300, 7, 20, 500, 50, 10, 120, 30, 700, 900, 60, 1]
        for (index, number) in numbers.enumerated() {
            for (letterIndex, letter) in letters.enumerated() {
                codes.append((index + letterIndex) % 2 == 0 ? "\(letter)-\(number)" : "\(letter)\(number)")
            }
        }
        modelCodes = codes
        modelChoice = SkewedChoice(count: codes.count, offset: 4)

        otherScriptTitles = LexiconData.otherScriptTitles.map { entry in
            (entry.title, LexiconData.categoryKeys.firstIndex(of: entry.category)!)
        }
        workshopCountries = LexiconData.workshopCountries.map(\.code)
        workshopChoice = SkewedChoice(weights: LexiconData.workshopCountries.map(\.weight))
    }
}
