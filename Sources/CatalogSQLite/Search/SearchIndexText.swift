import CatalogModel

/// The text the full-text tables index, derived from folded record text.
enum SearchIndexText {
    /// Substrings shorter than this are not searched inside words (too many matches to mean much).
    static let minimumSubstring = 3
    /// Suffixes start only in a word's first characters, which bounds the index for long words.
    static let maximumSuffixStarts = 24

    /// Every suffix of three characters or more of every word: "reason" gives "reason eason ason
    /// son". A substring query then is a prefix query on suffixes, answered from the index with
    /// no false candidates.
    static func suffixes(ofFolded folded: String) -> String {
        var result: [UInt8] = []
        var word: [Unicode.Scalar] = []
        word.reserveCapacity(32)
        result.reserveCapacity(folded.utf8.count * 4)
        func flush() {
            if word.count >= minimumSubstring {
                for start in 0...min(word.count - minimumSubstring, maximumSuffixStarts - 1) {
                    if !result.isEmpty { result.append(0x20) }
                    for scalar in word[start...] {
                        if scalar.isASCII {
                            result.append(UInt8(truncatingIfNeeded: scalar.value))
                        } else {
                            result.append(contentsOf: String(scalar).utf8)
                        }
                    }
                }
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in folded.unicodeScalars {
            if TextFolding.isWordScalar(scalar) { word.append(scalar) } else { flush() }
        }
        flush()
        return String(decoding: result, as: UTF8.self)
    }

    /// Every field of a record, folded, one after another: what "any field" searches.
    static func allText(of record: Record, foldedTitle: String) -> String {
        var bytes = Array(foldedTitle.utf8)
        func add(_ text: String) {
            bytes.append(0x0A)
            for scalar in text.unicodeScalars { TextFolding.appendFolded(scalar, to: &bytes) }
        }
        if let subtitle = record.subtitle { add(subtitle) }
        if let description = record.description { add(description) }
        for label in record.categories { add(label) }
        for name in record.fields.keys.sorted() {
            for value in record.fields[name]!.values { add(value) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
