/// Splits text into folded words and symbols: the one tokenizer that the search index and
/// search queries share, so what is indexed is exactly what a query can find.
///
/// A word is a maximal run of letters, digits and combining marks, folded with ``TextFolding``
/// (`"Ötzi Drums"` → `otzi`, `drums`). Scripts written without spaces (Chinese, Japanese, Thai)
/// give one word per run; the index finds any run of characters inside it. A symbol is one
/// currency sign, math or other symbol (emoji among them) or punctuation mark
/// (``TextFolding/isSymbolScalar(_:)``).
///
/// With ``germanVariants`` a word holding ä, ö or ü (composed or not) also gives its spelling
/// with ae, oe, ue (`"München"` → `munchen` and `muenchen`), the way German users type without
/// those keys.
///
/// ```swift
/// var scanner = WordScanner(germanVariants: true)
/// scanner.scan("Ötzi – München 5 €") { token, bytes in print(token, String(decoding: bytes, as: UTF8.self)) }
/// // word otzi, variant oetzi, symbol –, word munchen, variant muenchen, word 5, symbol €
/// ```
public struct WordScanner: Sendable {
    /// What a scanned piece is.
    public enum Token: Sendable, Equatable {
        /// A folded word.
        case word
        /// The German ae/oe/ue spelling of the word just before it.
        case variant
        /// One folded symbol.
        case symbol
    }

    /// Whether words with umlauts also give their ae/oe/ue spelling.
    public var germanVariants: Bool

    private var word: [UInt8] = []
    private var variant: [UInt8] = []
    private var variantDiffers = false

    /// Creates a scanner.
    public init(germanVariants: Bool = false) {
        self.germanVariants = germanVariants
        word.reserveCapacity(64)
        variant.reserveCapacity(64)
    }

    /// Whether a catalog locale wants German variants (`de`, `de-AT`, …).
    public static func wantsGermanVariants(locale: String) -> Bool {
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
        return language == "de" || language == "gsw"
    }

    /// Calls `body` with each token of `text` in order. The buffer is valid during the call only.
    public mutating func scan(_ text: String, _ body: (Token, UnsafeBufferPointer<UInt8>) -> Void) {
        word.removeAll(keepingCapacity: true)
        variant.removeAll(keepingCapacity: true)
        variantDiffers = false
        var previousBase: UInt8 = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(truncatingIfNeeded: value)
                let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                    word.append(lower)
                    if germanVariants { variant.append(lower) }
                    previousBase = lower
                    continue
                }
                flush(body)
                previousBase = 0
                if TextFolding.isSymbolScalar(scalar) {
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { buffer in
                        buffer[0] = lower
                        body(.symbol, UnsafeBufferPointer(buffer))
                    }
                }
                continue
            }
            if TextFolding.isWordScalar(scalar) {
                let start = word.count
                TextFolding.appendFolded(scalar, to: &word)
                if germanVariants { appendVariant(scalar, folded: start, previousBase: &previousBase) }
                continue
            }
            flush(body)
            previousBase = 0
            if TextFolding.isSymbolScalar(scalar) {
                var symbol: [UInt8] = []
                TextFolding.appendFolded(scalar, to: &symbol)
                if symbol.isEmpty { symbol.append(contentsOf: String(scalar).utf8) }
                symbol.withUnsafeBufferPointer { body(.symbol, $0) }
            }
        }
        flush(body)
    }

    /// Appends the German spelling of `scalar` to the variant.
    private mutating func appendVariant(_ scalar: Unicode.Scalar, folded start: Int, previousBase: inout UInt8) {
        switch scalar.value {
        case 0xE4, 0xC4:  // ä Ä
            variant += [0x61, 0x65]
            variantDiffers = true
            previousBase = 0
        case 0xF6, 0xD6:  // ö Ö
            variant += [0x6F, 0x65]
            variantDiffers = true
            previousBase = 0
        case 0xFC, 0xDC:  // ü Ü
            variant += [0x75, 0x65]
            variantDiffers = true
            previousBase = 0
        case 0x308:  // combining diaeresis after a, o or u
            if previousBase == 0x61 || previousBase == 0x6F || previousBase == 0x75 {
                variant.append(0x65)
                variantDiffers = true
            }
            previousBase = 0
        default:
            variant.append(contentsOf: word[start...])
            previousBase = word.count - start == 1 ? word[start] : 0
        }
    }

    private mutating func flush(_ body: (Token, UnsafeBufferPointer<UInt8>) -> Void) {
        guard !word.isEmpty else {
            variant.removeAll(keepingCapacity: true)
            variantDiffers = false
            return
        }
        word.withUnsafeBufferPointer { body(.word, $0) }
        if variantDiffers && variant != word { variant.withUnsafeBufferPointer { body(.variant, $0) } }
        word.removeAll(keepingCapacity: true)
        variant.removeAll(keepingCapacity: true)
        variantDiffers = false
    }
}

extension WordScanner {
    /// The tokens of `text` as strings, for tests and small inputs.
    public mutating func tokens(_ text: String) -> [(Token, String)] {
        var result: [(Token, String)] = []
        scan(text) { token, bytes in result.append((token, String(decoding: bytes, as: UTF8.self))) }
        return result
    }
}
