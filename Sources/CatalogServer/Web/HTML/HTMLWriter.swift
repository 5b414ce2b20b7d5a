/// Writes HTML in which every dynamic value is escaped by construction.
///
/// Element and attribute names are `StaticString`s (written by us, never by users); text and
/// attribute values are `String`s and always escaped. The only way to add markup verbatim is
/// ``raw(_:)``, which also takes a `StaticString`: there is no call that puts a runtime string
/// into the page unescaped.
///
/// ```swift
/// var html = HTMLWriter()
/// html.element("a", ["href": "/c/\(id)"]) { $0.text(title) }
/// ```
struct HTMLWriter {
    private(set) var output = ""

    init() {
        output.reserveCapacity(16 * 1024)
    }

    /// Markup written by us, verbatim.
    mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { output += String(decoding: $0, as: UTF8.self) }
    }

    /// Text content, escaped.
    mutating func text(_ value: String) {
        Self.escape(value, into: &output)
    }

    /// An element with attributes (in the given order) and content. Void elements (`img`,
    /// `input`, `link`, `meta`, …) get no end tag.
    mutating func element(
        _ name: StaticString, _ attributes: KeyValuePairs<StaticString, String?> = [:],
        _ content: (inout HTMLWriter) -> Void = { _ in }
    ) {
        open(name, attributes)
        content(&self)
        if !Self.isVoid(name) { close(name) }
    }

    /// Elements that have no content and no end tag in HTML.
    static func isVoid(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { bytes in
            switch String(decoding: bytes, as: UTF8.self) {
            case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
                true
            default: false
            }
        }
    }

    /// An element holding only text.
    mutating func element(_ name: StaticString, _ attributes: KeyValuePairs<StaticString, String?> = [:], text: String)
    {
        element(name, attributes) { $0.text(text) }
    }

    /// A start tag. Attributes whose value is nil are left out; an empty value writes a bare
    /// attribute (`hidden`).
    mutating func open(_ name: StaticString, _ attributes: KeyValuePairs<StaticString, String?> = [:]) {
        output += "<"
        name.withUTF8Buffer { output += String(decoding: $0, as: UTF8.self) }
        for (attribute, value) in attributes {
            guard let value else { continue }
            output += " "
            attribute.withUTF8Buffer { output += String(decoding: $0, as: UTF8.self) }
            if !value.isEmpty {
                output += "=\""
                Self.escape(value, into: &output)
                output += "\""
            }
        }
        output += ">"
    }

    /// An end tag.
    mutating func close(_ name: StaticString) {
        output += "</"
        name.withUTF8Buffer { output += String(decoding: $0, as: UTF8.self) }
        output += ">"
    }

    /// Text with the given UTF-16 ranges wrapped in `<mark>`: search highlights from the API's
    /// match ranges. Ranges are clamped and merged; everything stays escaped.
    mutating func text(_ value: String, marking ranges: [Range<Int>]) {
        let units = Array(value.utf16)
        var position = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let start = max(position, min(range.lowerBound, units.count))
            let end = min(range.upperBound, units.count)
            guard start < end else { continue }
            text(String(decoding: units[position..<start], as: UTF16.self))
            element("mark") { $0.text(String(decoding: units[start..<end], as: UTF16.self)) }
            position = end
        }
        text(String(decoding: units[position...], as: UTF16.self))
    }

    /// A data block (`<script type="application/ld+json">`): JSON the browser never runs. `<`,
    /// `>` and `&` are written as JSON escapes, so no text can end the element early.
    mutating func scriptJSON(type: StaticString, _ json: String) {
        open("script", ["type": String(describing: type)])
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": output += "\\u003c"
            case ">": output += "\\u003e"
            case "&": output += "\\u0026"
            case "\u{2028}": output += "\\u2028"
            case "\u{2029}": output += "\\u2029"
            default: output.unicodeScalars.append(scalar)
            }
        }
        close("script")
    }

    static func escape(_ value: String, into output: inout String) {
        for character in value.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(character)
            }
        }
    }
}
