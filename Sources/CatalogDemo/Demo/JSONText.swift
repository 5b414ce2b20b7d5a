import CatalogModel

/// Writes the small JSON documents of the demo catalogs by hand, so keys keep their order and
/// numbers keep the exact literal (`129.90`) a reader should see. Strings go through
/// ``JSONOutput``, the one JSON string escaper.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var output = JSONOutput(capacity: text.utf8.count + 2)
        output.string(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// A JSON array of strings on one line.
    static func array(_ values: [String]) -> String {
        "[" + values.map(quoted).joined(separator: ", ") + "]"
    }

    /// One object on one line from ordered key/value pairs whose values are already JSON.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// `{"key": [ … ]}` with one element per line.
    static func document(key: String, elements: [String]) -> String {
        "{\n  \(quoted(key)): [\n" + elements.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
