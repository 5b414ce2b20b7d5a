/// A text folded with ``TextFolding`` that remembers where each folded byte came from, so a match
/// found in the folded form can be reported as a range of the original (in UTF-16 code units).
public struct FoldedText: Sendable {
    /// The folded UTF-8 bytes.
    public let bytes: [UInt8]
    /// For each folded byte, the UTF-16 offset of the original scalar it came from; one extra
    /// entry at the end holds the original's UTF-16 length.
    public let origins: [Int]
    /// For each folded byte, whether it belongs to a word (a letter, digit or private-use scalar).
    public let inWord: [Bool]

    /// Folds `text`.
    public init(_ text: String) {
        var text = text
        if let ascii = text.withUTF8({ Self.foldASCII($0) }) {
            self = ascii
            return
        }
        var bytes: [UInt8] = []
        var origins: [Int] = []
        var inWord: [Bool] = []
        let capacity = text.utf8.count + 8
        bytes.reserveCapacity(capacity)
        origins.reserveCapacity(capacity + 1)
        inWord.reserveCapacity(capacity)
        var offset = 0
        for scalar in text.unicodeScalars {
            let start = bytes.count
            TextFolding.appendFolded(scalar, to: &bytes)
            let isWord = TextFolding.isWordScalar(scalar)
            for _ in start..<bytes.count {
                origins.append(offset)
                inWord.append(isWord)
            }
            offset += scalar.utf16.count
        }
        origins.append(offset)
        self.bytes = bytes
        self.origins = origins
        self.inWord = inWord
    }

    private init(bytes: [UInt8], origins: [Int], inWord: [Bool]) {
        self.bytes = bytes
        self.origins = origins
        self.inWord = inWord
    }

    /// ASCII text folds byte for byte (letters to lowercase) and keeps its offsets: one pass,
    /// no per-character lookups. Nil when the text has other characters.
    private static func foldASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> FoldedText? {
        let count = utf8.count
        // Checked first, so the arrays below are written once each, without zero-filling.
        guard !utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                let byte = utf8[index]
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            initialized = count
        }
        let inWord = [Bool](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBufferPointer { bytes in
                for index in 0..<count {
                    let lower = bytes[index]
                    buffer[index] = (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39)
                }
            }
            initialized = count
        }
        let origins = [Int](unsafeUninitializedCapacity: count + 1) { buffer, initialized in
            for offset in 0...count { buffer[offset] = offset }
            initialized = count + 1
        }
        return FoldedText(bytes: bytes, origins: origins, inWord: inWord)
    }

    /// How a word was found in this text.
    public enum MatchKind: Int, Comparable, Sendable {
        /// The whole word.
        case word = 0
        /// At the start of a word.
        case prefix = 1
        /// Inside a word.
        case substring = 2

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The best occurrence of the folded `word`: a whole word, else a word start, else anywhere.
    /// Returns the range in original UTF-16 offsets and how it matched.
    public func find(_ word: [UInt8], allowSubstring: Bool = true) -> (range: Range<Int>, kind: MatchKind)? {
        guard !word.isEmpty, word.count <= bytes.count else { return nil }
        var best: (start: Int, kind: MatchKind)?
        var index = 0
        let last = bytes.count - word.count
        let first = word[0]
        while index <= last {
            if bytes[index] == first && bytes[index..<(index + word.count)].elementsEqual(word) {
                let kind: MatchKind
                if index == 0 || !inWord[index - 1] {
                    let end = index + word.count
                    kind = end == bytes.count || !inWord[end] ? .word : .prefix
                } else {
                    kind = .substring
                }
                if kind == .substring && !allowSubstring {
                    index += 1
                    continue
                }
                if best == nil || kind < best!.kind { best = (index, kind) }
                if kind == .word { break }
            }
            index += 1
        }
        guard let best else { return nil }
        let lower = origins[best.start]
        var upperIndex = best.start + word.count
        // Extend to the end of the original scalar the last matched byte came from.
        while upperIndex < bytes.count && origins[upperIndex] == origins[upperIndex - 1] { upperIndex += 1 }
        let upper = origins[upperIndex]
        return (lower..<upper, best.kind)
    }
}
