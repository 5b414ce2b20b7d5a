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

    /// Whether `scalar` belongs inside a word: letters and numbers, the classes SQLite's unicode61
    /// tokenizer treats as token characters (it also counts private-use characters, which folding
    /// removes from text because the index uses them for its own markers).
    @inline(__always)
    public static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x61 && value <= 0x7A)
        }
        if let flag = FoldTable.shared.isWord(value) { return flag }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
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

    private static let extra: [UInt32: String] = [
        0xF8: "o", 0xD8: "o", 0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0xE6: "ae", 0xC6: "ae",
        0x153: "oe", 0x152: "oe", 0xFE: "th", 0xDE: "th", 0x131: "i", 0x1C4: "dz", 0x1C5: "dz", 0x1C6: "dz",
        0x1C7: "lj", 0x1C8: "lj", 0x1C9: "lj", 0x1CA: "nj", 0x1CB: "nj", 0x1CC: "nj", 0x1E9E: "ss", 0x149: "n",
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
                    switch scalar.properties.generalCategory {
                    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                        .decimalNumber, .letterNumber, .otherNumber:
                        isWord = true
                    default:
                        isWord = false
                    }
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
