/// Why ``JSONInput`` could not read a document: what was wrong and at which byte.
public struct JSONInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The explanation.
    public var message: String
    /// The byte offset of the problem.
    public var offset: Int

    /// Creates an error.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// `byte 12: expected ':'`
    public var description: String { "byte \(offset): \(message)" }
}

/// A strict reader of the JSON that ``JSONOutput`` writes (and of any other RFC 8259 JSON of the
/// same shapes), straight from UTF-8 bytes: no intermediate value tree, numbers kept as their
/// exact literal. The storage engines read records back with it. What JSON is (escapes,
/// surrogate pairs, the number grammar) comes from ``JSONLexis``, which CatalogImport's streaming
/// `JSONParser` calls too; the errors (byte offsets) are this reader's own.
///
/// ```swift
/// let record = try Record(json: record.jsonBytes)
/// let fields = try FieldValue.fields(json: #"{"weight":1.50,"tags":["a","b"]}"#)
/// ```
struct JSONInput {
    /// Arrays nested deeper than this inside a value are refused.
    static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Runs `body` over the bytes of `text` (copied only when the string is not contiguous).
    static func with<T>(_ text: String, _ body: (inout JSONInput) throws(JSONInputError) -> T) throws(JSONInputError)
        -> T
    {
        var text = text
        let result: Result<T, JSONInputError> = text.withUTF8 { buffer in
            var input = JSONInput(buffer)
            return Result { () throws(JSONInputError) in try input.document(body) }
        }
        return try result.get()
    }

    /// Runs `body` over `bytes`.
    static func with<T>(_ bytes: [UInt8], _ body: (inout JSONInput) throws(JSONInputError) -> T)
        throws(JSONInputError) -> T
    {
        let result: Result<T, JSONInputError> = bytes.withUnsafeBufferPointer { buffer in
            var input = JSONInput(buffer)
            return Result { () throws(JSONInputError) in try input.document(body) }
        }
        return try result.get()
    }

    /// One whole document: `body` reads the value, then nothing but whitespace may follow.
    private mutating func document<T>(_ body: (inout JSONInput) throws(JSONInputError) -> T) throws(JSONInputError)
        -> T
    {
        let result = try body(&self)
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected content after the value") }
        return result
    }

    // MARK: - Values

    /// A field value: any JSON value but an object.
    mutating func fieldValue() throws(JSONInputError) -> FieldValue {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of input where a value was expected") }
        switch byte {
        case 0x22: return .text(try string())
        case 0x5B:
            depth += 1
            guard depth <= Self.maxDepth else { throw error("arrays nested deeper than \(Self.maxDepth) levels") }
            defer { depth -= 1 }
            var values: [FieldValue] = []
            try array { (input: inout JSONInput) throws(JSONInputError) in values.append(try input.fieldValue()) }
            return .list(values)
        case 0x74, 0x66: return .bool(try literalBool())
        case 0x6E:
            try literal("null")
            return .null
        case 0x2D, 0x30...0x39: return .number(try number())
        default: throw error("expected a value that is not an object")
        }
    }

    /// `{…}`: calls `member` with each key, positioned at its value (which `member` must read or
    /// skip).
    mutating func object(_ member: (inout JSONInput, String) throws(JSONInputError) -> Void) throws(JSONInputError) {
        try expect(0x7B, "'{'")
        skipWhitespace()
        if peek() == 0x7D {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == 0x22 else { throw error("expected a string key") }
            let key = try string()
            try expect(0x3A, "':'")
            try member(&self, key)
            skipWhitespace()
            guard let next = peek() else { throw error("unexpected end of input inside an object") }
            index += 1
            if next == 0x7D { return }
            guard next == 0x2C else {
                index -= 1
                throw error("expected ',' or '}'")
            }
        }
    }

    /// `[…]`: calls `element` for each element, positioned at it.
    mutating func array(_ element: (inout JSONInput) throws(JSONInputError) -> Void) throws(JSONInputError) {
        try expect(0x5B, "'['")
        skipWhitespace()
        if peek() == 0x5D {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard let next = peek() else { throw error("unexpected end of input inside an array") }
            index += 1
            if next == 0x5D { return }
            guard next == 0x2C else {
                index -= 1
                throw error("expected ',' or ']'")
            }
        }
    }

    /// Reads and discards any value.
    mutating func skipValue() throws(JSONInputError) {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of input where a value was expected") }
        switch byte {
        case 0x7B:
            depth += 1
            guard depth <= Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
            defer { depth -= 1 }
            try object { (input: inout JSONInput, _: String) throws(JSONInputError) in try input.skipValue() }
        case 0x5B:
            depth += 1
            guard depth <= Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
            defer { depth -= 1 }
            try array { (input: inout JSONInput) throws(JSONInputError) in try input.skipValue() }
        default:
            _ = try fieldValue()
        }
    }

    /// A string or `null`.
    mutating func optionalString() throws(JSONInputError) -> String? {
        skipWhitespace()
        if peek() == 0x6E {
            try literal("null")
            return nil
        }
        return try string()
    }

    /// A number literal or `null`.
    mutating func optionalNumber() throws(JSONInputError) -> String? {
        skipWhitespace()
        if peek() == 0x6E {
            try literal("null")
            return nil
        }
        return try number()
    }

    /// A whole number or `null`.
    mutating func optionalInteger() throws(JSONInputError) -> Int? {
        let start = index
        guard let literal = try optionalNumber() else { return nil }
        guard let value = Int(literal) else { throw JSONInputError("expected a whole number", at: start) }
        return value
    }

    /// An array of strings.
    mutating func strings() throws(JSONInputError) -> [String] {
        skipWhitespace()
        var values: [String] = []
        try array { (input: inout JSONInput) throws(JSONInputError) in
            input.skipWhitespace()
            values.append(try input.string())
        }
        return values
    }

    // MARK: - Tokens

    /// At `"`: a string with its escapes decoded.
    mutating func string() throws(JSONInputError) -> String {
        skipWhitespace()
        try expect(0x22, "a string")
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == 0x5C { break }
            if byte < 0x20 { throw error("unescaped control character in a string") }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x22: return String(decoding: out, as: UTF8.self)
            case 0x5C: try escape(into: &out)
            case 0..<0x20:
                index -= 1
                throw error("unescaped control character in a string")
            default: out.append(byte)
            }
        }
        throw JSONInputError("unterminated string", at: start - 1)
    }

    /// After `\`: one escape, appended to `out` as UTF-8 (the rules are ``JSONLexis``').
    private mutating func escape(into out: inout [UInt8]) throws(JSONInputError) {
        guard let kind = peek() else { throw error("unterminated escape") }
        index += 1
        if let byte = JSONLexis.simpleEscape(kind) {
            out.append(byte)
            return
        }
        guard kind == 0x75 else {
            index -= 1
            throw error("invalid escape")
        }
        var scalar = try hex4()
        switch JSONLexis.surrogate(scalar) {
        case .high:
            guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                throw error("lone surrogate in a \\u escape")
            }
            index += 2
            let low = try hex4()
            guard JSONLexis.surrogate(low) == .low else { throw error("lone surrogate in a \\u escape") }
            scalar = JSONLexis.scalar(high: scalar, low: low)
        case .low:
            throw error("lone surrogate in a \\u escape")
        case nil:
            break
        }
        JSONLexis.appendUTF8(scalar, to: &out)
    }

    private mutating func hex4() throws(JSONInputError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        switch JSONLexis.hex4(bytes.baseAddress! + index) {
        case .unit(let unit):
            index += 4
            return unit
        case .invalidDigit(let offset):
            index += offset
            throw error("invalid \\u escape")
        }
    }

    /// A number, as its literal text (the grammar is ``JSONLexis/scanNumber(_:)``).
    mutating func number() throws(JSONInputError) -> String {
        skipWhitespace()
        let start = index
        switch JSONLexis.scanNumber(&self) {
        case nil: break
        case .digitExpectedAfterPoint: throw error("invalid number: a digit must follow the point")
        case .digitExpectedAfterExponent: throw error("invalid number: a digit must follow the exponent")
        case .digitExpectedAfterMinus, .leadingZero: throw error("invalid number")
        }
        if let next = peek(), (next >= 0x30 && next <= 0x39) || next == 0x2E {
            throw error("invalid number")
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func literalBool() throws(JSONInputError) -> Bool {
        if peek() == 0x74 {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    private mutating func literal(_ word: StaticString) throws(JSONInputError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count, JSONLexis.isWhitespace(bytes[index]) { index += 1 }
    }

    @inline(__always)
    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// The next byte, without reading it; nil at the end.
    func peekByte() -> UInt8? { peek() }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONInputError) {
        skipWhitespace()
        guard peek() == byte else { throw error("expected \(what)") }
        index += 1
    }

    private func error(_ message: String) -> JSONInputError {
        JSONInputError(message, at: index)
    }
}

extension JSONInput: JSONByteCursor {
    typealias Failure = Never

    mutating func advance() { index += 1 }
}

extension [String] {
    /// Reads a JSON array of strings, as ``JSONOutput/strings(_:)`` writes it.
    ///
    /// - Throws: ``JSONInputError`` when `json` is not such an array.
    public init(jsonStrings json: [UInt8]) throws(JSONInputError) {
        self = try JSONInput.with(json) { (input: inout JSONInput) throws(JSONInputError) in try input.strings() }
    }
}

extension FieldValue {
    /// Reads one value (any JSON value but an object), keeping number literals exactly.
    ///
    /// - Throws: ``JSONInputError`` when `json` is not such a value.
    public init(json: String) throws(JSONInputError) {
        self = try JSONInput.with(json) { (input: inout JSONInput) throws(JSONInputError) in try input.fieldValue() }
    }

    /// Reads an object of field values, as ``JSONOutput/fields(_:)`` writes it.
    ///
    /// - Throws: ``JSONInputError`` when `json` is not such an object.
    public static func fields(json: String) throws(JSONInputError) -> [String: FieldValue] {
        try JSONInput.with(json) { (input: inout JSONInput) throws(JSONInputError) in try input.fields() }
    }
}

extension JSONInput {
    /// `{"name": value, …}`.
    mutating func fields() throws(JSONInputError) -> [String: FieldValue] {
        var fields: [String: FieldValue] = [:]
        skipWhitespace()
        try object { (input: inout JSONInput, key: String) throws(JSONInputError) in
            fields[key] = try input.fieldValue()
        }
        return fields
    }

    /// A record object as ``Record``'s ``JSONWritable`` conformance writes it; unknown keys
    /// (`matches`) are skipped.
    mutating func record() throws(JSONInputError) -> Record {
        var record = Record(id: "", title: "")
        var sawID = false
        var sawTitle = false
        skipWhitespace()
        let start = index
        try object { (input: inout JSONInput, key: String) throws(JSONInputError) in
            switch key {
            case "id":
                record.id = try input.string()
                sawID = true
            case "title":
                record.title = try input.string()
                sawTitle = true
            case "subtitle": record.subtitle = try input.optionalString()
            case "description": record.description = try input.optionalString()
            case "categories": record.categories = try input.strings()
            case "price":
                let at = input.index
                if let literal = try input.optionalNumber() {
                    guard let price = DecimalText.parse(literal) else {
                        throw JSONInputError("price is not a decimal number", at: at)
                    }
                    record.price = price
                }
            case "currency": record.currency = try input.optionalString()
            case "quantity": record.quantity = try input.optionalInteger()
            case "country": record.country = try input.optionalString()
            case "image": record.image = try input.optionalString()
            case "featured": record.featured = try input.optionalInteger()
            case "section": record.section = try input.optionalString()
            case "fields": record.fields = try input.fields()
            default: try input.skipValue()
            }
        }
        guard sawID, sawTitle else { throw JSONInputError("a record needs an id and a title", at: start) }
        return record
    }
}

extension Record {
    /// Reads a record from the JSON that its ``JSONWritable`` conformance writes (the API's record
    /// shape), exactly: number literals in ``fields`` are kept as written.
    ///
    /// ```swift
    /// let copy = try Record(json: record.jsonBytes)   // copy == record
    /// ```
    ///
    /// - Throws: ``JSONInputError`` when `json` is not such a record.
    public init(json: [UInt8]) throws(JSONInputError) {
        self = try JSONInput.with(json) { (input: inout JSONInput) throws(JSONInputError) in try input.record() }
    }

    /// Reads a record from JSON text; see ``init(json:)-([UInt8])``.
    public init(json: String) throws(JSONInputError) {
        self = try JSONInput.with(json) { (input: inout JSONInput) throws(JSONInputError) in try input.record() }
    }
}
