import CatalogModel

/// The two JSON shapes the `items` table stores, written and read by hand because they are on
/// the import's hot path: an array of strings (`categories`) and an object whose values are
/// strings or arrays of strings (`fields`). Output is standard JSON, so `sqlite3`, Datasette and
/// SQLite's own `json_*` functions read it.
enum StoredJSON {
    static func encode(strings: [String]) -> String {
        guard !strings.isEmpty else { return "[]" }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(string, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(fields: [String: FieldValue]) -> String {
        guard !fields.isEmpty else { return "{}" }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in fields.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch fields[name]! {
            case .text(let text): appendString(text, to: &out)
            case .list(let list):
                out.append(UInt8(ascii: "["))
                for (i, value) in list.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    appendString(value, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func decodeStrings(_ text: String) -> [String] {
        guard text != "[]" else { return [] }
        var parser = Parser(Array(text.utf8))
        return parser.stringArray() ?? []
    }

    static func decodeFields(_ text: String) -> [String: FieldValue] {
        guard text != "{}" else { return [:] }
        var parser = Parser(Array(text.utf8))
        guard parser.consume(UInt8(ascii: "{")) else { return [:] }
        var fields: [String: FieldValue] = [:]
        if parser.consume(UInt8(ascii: "}")) { return fields }
        repeat {
            guard let name = parser.string(), parser.consume(UInt8(ascii: ":")) else { return fields }
            if parser.peek == UInt8(ascii: "[") {
                guard let list = parser.stringArray() else { return fields }
                fields[name] = .list(list)
            } else {
                guard let value = parser.string() else { return fields }
                fields[name] = .text(value)
            }
        } while parser.consume(UInt8(ascii: ","))
        return fields
    }

    /// A strict reader for the shapes above (what ``encode(strings:)`` and
    /// ``encode(fields:)`` write, plus any standard escapes).
    struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func consume(_ byte: UInt8) -> Bool {
            while let b = peek, b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D { index += 1 }
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func stringArray() -> [String]? {
            guard consume(UInt8(ascii: "[")) else { return nil }
            var result: [String] = []
            if consume(UInt8(ascii: "]")) { return result }
            repeat {
                guard let value = string() else { return nil }
                result.append(value)
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? result : nil
        }

        mutating func string() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard byte == 92 else {
                    out.append(byte)
                    continue
                }
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
                    else { return nil }
                    index += 4
                    if (0xD800..<0xDC00).contains(code) {
                        pendingHigh = code
                        continue
                    }
                    var scalarValue = code
                    if let high = pendingHigh, (0xDC00..<0xE000).contains(code) {
                        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                    }
                    pendingHigh = nil
                    out.append(contentsOf: String(Unicode.Scalar(scalarValue).map(Character.init) ?? "\u{FFFD}").utf8)
                default: out.append(escape)
                }
            }
            return nil
        }
    }
}
