/// XML 1.0 names and escaping for ``XMLRecordWriter``.
enum XMLText {
    /// Whether `name` is an XML 1.0 (fifth edition) `Name` without colons, so it is usable as an
    /// element or attribute name whether or not the reader processes namespaces.
    static func isName(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first.value) else { return false }
        while let scalar = scalars.next() {
            guard isNameStart(scalar.value) || isNameOther(scalar.value) else { return false }
        }
        return true
    }

    /// Whether `name` is `prefix:local` with both parts XML names and the prefix in `prefixes`.
    static func isQualifiedName(_ name: String, prefixes: Set<String>) -> Bool {
        guard let colon = name.firstIndex(of: ":") else { return false }
        let prefix = String(name[..<colon])
        let local = String(name[name.index(after: colon)...])
        return prefixes.contains(prefix) && isName(prefix) && isName(local)
    }

    private static func isNameStart(_ v: UInt32) -> Bool {
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0x5F: return true  // A-Z a-z _
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
            0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD,
            0x10000...0xEFFFF:
            return true
        default: return false
        }
    }

    private static func isNameOther(_ v: UInt32) -> Bool {
        switch v {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true  // - . 0-9
        default: return false
        }
    }

    /// Appends `text` escaped for element content: `&`, `<`, `>` as entities, CR as `&#13;` (a raw
    /// CR would be read back as LF), and characters XML 1.0 does not allow (control characters
    /// other than TAB, LF and CR; U+FFFE, U+FFFF) dropped.
    static func appendContent(_ text: String, to out: inout [UInt8]) {
        append(text, attribute: false, to: &out)
    }

    /// Appends `text` escaped for a double-quoted attribute value: as ``appendContent(_:to:)``
    /// plus `"` as `&quot;` and TAB and LF as character references (a parser would turn them into
    /// spaces).
    static func appendAttribute(_ text: String, to out: inout [UInt8]) {
        append(text, attribute: true, to: &out)
    }

    private static func append(_ text: String, attribute: Bool, to out: inout [UInt8]) {
        let utf8 = text.utf8
        // Fast path: nothing to escape or drop.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0xEF }) {
            out.append(contentsOf: utf8)
            return
        }
        var bytes = utf8.makeIterator()
        while let b = bytes.next() {
            switch b {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22 where attribute: out.append(contentsOf: "&quot;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            case 0x0A where attribute: out.append(contentsOf: "&#10;".utf8)
            case 0x09 where attribute: out.append(contentsOf: "&#9;".utf8)
            case 0x09, 0x0A: out.append(b)
            case 0x00..<0x20: break  // not allowed in XML 1.0: dropped
            case 0xEF:
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters either. A string is
                // valid UTF-8, so EF is always followed by two continuation bytes.
                let second = bytes.next() ?? 0
                let third = bytes.next() ?? 0
                if second == 0xBF, third == 0xBE || third == 0xBF { break }
                out.append(b)
                out.append(second)
                out.append(third)
            default: out.append(b)
            }
        }
    }
}
