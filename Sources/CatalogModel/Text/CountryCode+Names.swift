extension CountryCode {
    /// The code that `text` names: a two-letter code as ``init(_:)`` reads it, an ISO 3166-1
    /// alpha-3 code in either case (`USA`, `deu`), or an English name of an assigned country
    /// (`Afghanistan`, `United States of America`, `Bolivia, Plurinational State of`, `Bolivia`,
    /// `Russia`, `UK`), compared by their folded words (case, accents and punctuation do not
    /// matter: `COTE D'IVOIRE` is `CI`); nil for anything else.
    ///
    /// ```swift
    /// CountryCode(resolving: "Afghanistan")?.text  // "AF"
    /// CountryCode(resolving: "usa")?.text          // "US"
    /// CountryCode(resolving: "Atlantis")           // nil
    /// ```
    public init?(resolving text: some StringProtocol) {
        if let code = CountryCode(text) {
            self = code
            return
        }
        let bytes = Array(text.utf8)
        if bytes.count == 3, let alpha2 = Self.byAlpha3[String(decoding: bytes.map { $0 & 0xDF }, as: UTF8.self)] {
            self.init(alpha2)
            return
        }
        let key = Self.nameKey(String(text))
        guard !key.isEmpty, let alpha2 = Self.byName[key] else { return nil }
        self.init(alpha2)
    }

    /// The comparison key of a name: its folded words, one space apart.
    public static func nameKey(_ name: String) -> String {
        TextFolding.words(name).joined(separator: " ")
    }

    /// English names the ISO list does not spell, as people write them.
    private static let aliases: [(String, String)] = [
        ("Russia", "RU"), ("UK", "GB"), ("Great Britain", "GB"), ("Britain", "GB"), ("Brunei", "BN"),
        ("Ivory Coast", "CI"), ("Cape Verde", "CV"), ("Macedonia", "MK"), ("Swaziland", "SZ"), ("Burma", "MM"),
        ("East Timor", "TL"), ("Turkey", "TR"), ("Vatican", "VA"), ("Vatican City", "VA"), ("Palestine", "PS"),
        ("Democratic Republic of the Congo", "CD"), ("DR Congo", "CD"), ("Republic of Korea", "KR"),
        ("Micronesia", "FM"),
    ]

    /// Alpha-3 code to alpha-2 code.
    private static let byAlpha3: [String: String] = {
        var map: [String: String] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2)
            map[String(parts[1])] = String(parts[0])
        }
        return map
    }()

    /// Folded name to alpha-2 code: every listed name, the part before the comma of an inverted name
    /// (`Bolivia` of `Bolivia, Plurinational State of`) when no other country has it, then ``aliases``.
    private static let byName: [String: String] = {
        var map: [String: String] = [:]
        var heads: [String: String?] = [:]
        for line in table.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2)
            let alpha2 = String(parts[0])
            for name in parts[2].split(separator: "|") {
                map[nameKey(String(name))] = alpha2
                if let comma = name.firstIndex(of: ",") {
                    let head = nameKey(String(name[..<comma]))
                    heads[head] = heads[head] == nil ? .some(alpha2) : .some(nil)
                }
            }
        }
        for case (let head, let alpha2?) in heads where map[head] == nil { map[head] = alpha2 }
        for (name, alpha2) in aliases where map[nameKey(name)] == nil { map[nameKey(name)] = alpha2 }
        return map
    }()
}
