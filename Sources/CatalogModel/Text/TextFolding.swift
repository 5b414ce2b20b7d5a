import Foundation

/// Case- and diacritic-insensitive folding, the one normal form used to index and to search.
///
/// `"Ärger"`, `"ARGER"` and `"arger"` all fold to `"arger"`; `ß` folds to `ss`, `æ` to `ae`,
/// `ø` to `o`, `ł` to `l`, full-width letters to ASCII. Folding is per Unicode scalar, so the
/// folded text can be mapped back to the original for highlighting (``FoldedText``).
///
/// ```swift
/// TextFolding.fold("Bábleves Öl") // "bableves ol"
/// ```
public enum TextFolding {
    /// Folds `text` for indexing or searching.
    public static func fold(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            appendFolded(scalar, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the folded UTF-8 bytes of `scalar` to `bytes`.
    @inline(__always)
    public static func appendFolded(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            let byte = UInt8(truncatingIfNeeded: value)
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        } else if let range = FoldTable.shared.range(of: value) {
            bytes.append(contentsOf: FoldTable.shared.bytes[range])
        } else if let special = FoldTable.extra[value] {
            bytes.append(contentsOf: special.utf8)
        } else {
            // Outside the precomputed table: CJK, symbols, supplementary planes. Lowercase only.
            let props = scalar.properties
            switch props.generalCategory {
            // Private-use characters are reserved for the index's own markers: never text.
            case .nonspacingMark, .enclosingMark, .privateUse: return
            default: break
            }
            bytes.append(contentsOf: props.lowercaseMapping.utf8)
        }
    }

    /// Whether `scalar` belongs inside a word: letters, numbers and combining marks (so a
    /// decomposed "a\u{308}" stays inside its word; folding drops the mark).
    @inline(__always)
    public static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x61 && value <= 0x7A)
        }
        if let flag = FoldTable.shared.isWord(value) { return flag }
        return isWordCategory(scalar.properties.generalCategory)
    }

    /// Letters, numbers and marks.
    static func isWordCategory(_ category: Unicode.GeneralCategory) -> Bool {
        switch category {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is a symbol searches match literally: math, currency and other symbols
    /// (emoji among them) and punctuation (`?`, `(`, `–`, `»`). Between words they only
    /// separate them; a query of symbols alone finds the records that have them, so `?` finds
    /// the titles with a question mark, never the whole catalog.
    @inline(__always)
    public static func isSymbolScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            // Every printable ASCII character but letters, digits and the space.
            return value > 0x20 && value < 0x7F && !(0x30...0x39).contains(value)
                && !(0x41...0x5A).contains(value) && !(0x61...0x7A).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .dashPunctuation, .connectorPunctuation,
            .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// The words of `text`, folded: maximal runs of word characters.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                appendFolded(scalar, to: &current)
            } else if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}

/// Folded UTF-8 for every scalar from U+0080 to U+2FFF and the half/full-width forms, built once
/// from Foundation's folding plus the letters it leaves alone (ø, ł, đ, æ, œ, þ, ı).
struct FoldTable: Sendable {
    static let shared = FoldTable()

    let offsets: [UInt32]
    let bytes: [UInt8]
    /// Per scalar of the ranges: a letter or number (what the search index's tokenizer keeps).
    let wordFlags: [Bool]
    static let lowRange: ClosedRange<UInt32> = 0x80...0x2FFF
    static let wideRange: ClosedRange<UInt32> = 0xFF00...0xFFEF

    /// Letters that Foundation's folding leaves alone because Unicode does not decompose them
    /// (strokes, hooks, ligatures, other letter forms), spelled the way people type them on a
    /// keyboard without the letter: the one table of letter variants.
    static let extra: [UInt32: String] = [
        // Strokes and bars.
        0xF8: "o", 0xD8: "o", 0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0x127: "h", 0x126: "h",
        0x167: "t", 0x166: "t", 0x180: "b", 0x243: "b", 0x1E5: "g", 0x1E4: "g", 0x268: "i", 0x197: "i",
        0x289: "u", 0x244: "u", 0x1B6: "z", 0x1B5: "z", 0x24D: "r", 0x24C: "r", 0x24F: "y", 0x24E: "y",
        0x23C: "c", 0x23B: "c", 0x247: "e", 0x246: "e", 0x249: "j", 0x248: "j", 0x140: "l", 0x13F: "l",
        // Other letter forms.
        0xF0: "d", 0xD0: "d", 0xFE: "th", 0xDE: "th", 0x131: "i", 0x138: "k", 0x17F: "s", 0x192: "f",
        0x14B: "n", 0x14A: "n", 0x149: "n", 0x1E9E: "ss", 0x256: "d", 0x257: "d", 0x189: "d", 0x18A: "d",
        0x253: "b", 0x181: "b", 0x188: "c", 0x187: "c", 0x199: "k", 0x198: "k", 0x260: "g", 0x193: "g",
        0x1A5: "p", 0x1A4: "p", 0x1AD: "t", 0x1AC: "t", 0x1B4: "y", 0x1B3: "y", 0x25B: "e", 0x190: "e",
        0x254: "o", 0x186: "o", 0x259: "e", 0x18F: "e", 0x1DD: "e", 0x18E: "e", 0x269: "i", 0x196: "i",
        0x28B: "v", 0x1B2: "v", 0x272: "n", 0x19D: "n", 0x1B7: "z", 0x292: "z", 0x1EE: "z", 0x1EF: "z",
        // Ligatures.
        0xE6: "ae", 0xC6: "ae", 0x153: "oe", 0x152: "oe", 0x133: "ij", 0x132: "ij", 0x1C4: "dz", 0x1C5: "dz",
        0x1C6: "dz", 0x1F1: "dz", 0x1F2: "dz", 0x1F3: "dz", 0x1C7: "lj", 0x1C8: "lj", 0x1C9: "lj",
        0x1CA: "nj", 0x1CB: "nj", 0x1CC: "nj", 0x1E9D: "s", 0xA733: "aa", 0xA732: "aa", 0xFB00: "ff",
        0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st", 0xFB06: "st",
    ]

    init() {
        var offsets: [UInt32] = [0]
        var bytes: [UInt8] = []
        var wordFlags: [Bool] = []
        let ranges = [Self.lowRange, Self.wideRange]
        offsets.reserveCapacity(Self.lowRange.count + Self.wideRange.count + 1)
        for range in ranges {
            for value in range {
                var isWord = false
                if let scalar = Unicode.Scalar(value) {
                    bytes.append(contentsOf: Self.fold(scalar).utf8)
                    isWord = TextFolding.isWordCategory(scalar.properties.generalCategory)
                }
                offsets.append(UInt32(bytes.count))
                wordFlags.append(isWord)
            }
        }
        self.offsets = offsets
        self.bytes = bytes
        self.wordFlags = wordFlags
    }

    private static func fold(_ scalar: Unicode.Scalar) -> String {
        if let special = extra[scalar.value] { return special }
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return "" }
        let folded = String(scalar).folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        for s in folded.unicodeScalars {
            let c = s.properties.generalCategory
            if c == .nonspacingMark || c == .enclosingMark { continue }
            if let special = extra[s.value] { result += special } else { result.unicodeScalars.append(s) }
        }
        return result
    }

    /// Whether a scalar of the table's ranges belongs inside a word (precomputed), nil outside.
    @inline(__always)
    func isWord(_ value: UInt32) -> Bool? {
        if value >= Self.lowRange.lowerBound && value <= Self.lowRange.upperBound {
            return wordFlags[Int(value - Self.lowRange.lowerBound)]
        }
        if Self.wideRange.contains(value) {
            return wordFlags[Self.lowRange.count + Int(value - Self.wideRange.lowerBound)]
        }
        return nil
    }

    @inline(__always)
    func range(of value: UInt32) -> Range<Int>? {
        let index: Int
        if value <= Self.lowRange.upperBound {
            index = Int(value - Self.lowRange.lowerBound)
        } else if Self.wideRange.contains(value) {
            index = Self.lowRange.count + Int(value - Self.wideRange.lowerBound)
        } else {
            return nil
        }
        return Int(offsets[index])..<Int(offsets[index + 1])
    }
}
