extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, matched by Unicode
    /// scalars, the way a parser, SQLite or a browser reads the text.
    ///
    /// Foundation's `replacingOccurrences(of:with:)` and the standard library's `replacing(_:with:)`
    /// compare characters (grapheme clusters): a `"` followed by a combining mark (`"\u{301}`), or
    /// preceded by a prepended mark (`\u{600}"`), is another character to them, so it is not
    /// escaped, yet every reader of the escaped text still sees a quote there. Escaping a quote, a
    /// delimiter or a markup character must go through this one.
    ///
    /// ```swift
    /// "a\"\u{301}b".replacingScalars(of: "\"", with: "\"\"")   // "a\"\"\u{301}b"
    /// ```
    public func replacingScalars(of target: String, with replacement: String) -> String {
        let pattern = Array(target.utf8)
        let bytes = Array(utf8)
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return self }
        // UTF-8 is self-synchronizing: a match of the target's bytes starts and ends on scalar
        // boundaries, so comparing bytes compares scalars.
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while index < bytes.count {
            if bytes[index] == pattern[0], index + pattern.count <= bytes.count,
                bytes[index..<index + pattern.count].elementsEqual(pattern)
            {
                output.append(contentsOf: replacement.utf8)
                index += pattern.count
                changed = true
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : self
    }
}
