/// The filter language, read from text and written back.
///
/// ```text
/// Origin = "Japan" AND (Horsepower 100..150 OR Cylinders IN [3, 5]) AND NOT Model IS EMPTY
/// ```
///
/// | condition | holds when |
/// | --- | --- |
/// | `FIELD = v`, `FIELD != v` | a value equals `v` (case and accents aside), or none does |
/// | `FIELD < v`, `<=`, `>`, `>=` | a number or date value compares so with `v` |
/// | `FIELD a..b`, `FIELD a..`, `FIELD ..b` | a number or date value lies in the range, ends included |
/// | `FIELD IN [a, b]` | a value equals one of them |
/// | `FIELD EXISTS`, `FIELD NOT EXISTS` | the record has the field (or not) |
/// | `FIELD IS EMPTY`, `FIELD IS NOT EMPTY` | the record has the field without a value (or with one) |
///
/// Conditions join with `AND` and `OR` (`AND` binds first), `NOT` turns one around, and
/// parentheses group. Keywords may be written in any case. A field or value that is not one bare
/// word (letters, digits, `-`, `_`, `.`, `:`, `+`, `/`, `@`) is quoted: `"Model Year" >= 1970`,
/// `Name = 'O''Brien'` (the quote doubled inside). `category`, `country` and `price` are the
/// records' own category, country and price.
extension FilterExpression: CustomStringConvertible {
    /// The longest filter text, in UTF-8 bytes.
    public static let maxLength = 4000
    /// The most conditions in one filter.
    public static let maxConditions = 100
    /// The deepest nesting of parentheses and `NOT`.
    public static let maxDepth = 32
    /// The most values in one `IN [..]`.
    public static let maxListValues = 500

    /// Reads a filter.
    ///
    /// - Throws: ``RecordFilterError`` saying what is wrong and at which character (counted from 1).
    public init(parsing text: String) throws(RecordFilterError) {
        guard text.utf8.count <= Self.maxLength else {
            throw RecordFilterError("a filter may be at most \(Self.maxLength) bytes long", at: 1)
        }
        var parser = FilterParser(tokens: try FilterLexer.tokens(of: text))
        self = try parser.expression(depth: 0)
        guard parser.peek.kind == .end else {
            throw RecordFilterError(
                "expected AND, OR or the end of the filter, found \(parser.peek.shown)", at: parser.peek.column)
        }
    }

    /// The filter as text that reads back to the same filter.
    public var description: String { written(inside: .or) }

    private enum Level: Int { case or, and, unary }

    private func written(inside level: Level) -> String {
        switch self {
        case .condition(let condition): return condition.description
        case .not(let inner): return "NOT " + inner.written(inside: .unary)
        case .and(let list):
            let text = list.map { $0.written(inside: .and) }.joined(separator: " AND ")
            return level.rawValue > Level.and.rawValue ? "(\(text))" : text
        case .or(let list):
            let text = list.map { $0.written(inside: .or) }.joined(separator: " OR ")
            return level.rawValue > Level.or.rawValue ? "(\(text))" : text
        }
    }
}

extension FilterCondition: CustomStringConvertible {
    /// The condition as the filter language writes it.
    public var description: String {
        let name = FilterValue(field).description
        switch test {
        case .compare(let op, let value): return "\(name) \(op.rawValue) \(value)"
        case .range(let lower, let upper):
            let low = lower?.description ?? ""
            let high = upper?.description ?? ""
            // A value may end or start with a dot (`5.`, `.5`): spaces keep it apart from `..`.
            let dots = low.hasSuffix(".") || high.hasPrefix(".") ? " .. " : ".."
            return "\(name) \(low)\(dots)\(high)"
        case .oneOf(let values): return "\(name) IN [" + values.map(\.description).joined(separator: ", ") + "]"
        case .exists: return "\(name) EXISTS"
        case .isEmpty: return "\(name) IS EMPTY"
        }
    }
}

/// One piece of a filter's text.
private struct FilterToken {
    enum Kind: Equatable {
        /// A bare word: a field, a value or a keyword.
        case word
        /// A quoted text.
        case quoted
        /// `=`, `!=`, `<`, `<=`, `>`, `>=`.
        case comparison(FilterOperator)
        /// `..`
        case range
        case open, close, openList, closeList, comma
        case end
    }

    var kind: Kind
    var text: String
    /// The 1-based character where it starts.
    var column: Int

    /// Whether it is the bare keyword `keyword` (any case).
    func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.uppercased() == keyword
    }

    /// How a message names it.
    var shown: String {
        switch kind {
        case .end: "the end of the filter"
        case .quoted: "\"\(text.prefix(40))\""
        default: "'\(text.prefix(40))'"
        }
    }
}

/// Cuts a filter's text into tokens.
enum FilterLexer {
    /// Whether `text` reads back as one bare word that is not a keyword.
    static func readsBare(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isWordScalar) && !hasRangeDots(text)
            && !FilterParser.keywords.contains(text.uppercased())
    }

    /// Whether two full stops follow each other, as the lexer sees them (by scalars: a combining mark
    /// after the second dot makes another character of it, not another token).
    static func hasRangeDots(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        return zip(scalars, scalars.dropFirst()).contains { $0 == "." && $1 == "." }
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { return true }
        return "-_.:+/@#%&*$€£¥~".unicodeScalars.contains(scalar) || scalar.properties.isEmojiPresentation
    }

    fileprivate static func tokens(of text: String) throws(RecordFilterError) -> [FilterToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [FilterToken] = []
        var index = 0
        func next(_ offset: Int = 1) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let column = index + 1
            func add(_ kind: FilterToken.Kind, _ length: Int) {
                tokens.append(
                    FilterToken(
                        kind: kind, text: String(String.UnicodeScalarView(scalars[index..<index + length])),
                        column: column))
                index += length
            }
            switch scalar {
            case _ where scalar.properties.isWhitespace: index += 1
            case "(": add(.open, 1)
            case ")": add(.close, 1)
            case "[": add(.openList, 1)
            case "]": add(.closeList, 1)
            case ",": add(.comma, 1)
            case "=": add(.comparison(.equal), next() == "=" ? 2 : 1)
            case "!":
                guard next() == "=" else {
                    throw RecordFilterError(
                        "'!' goes with '=' ('!=': not equal); write NOT to turn a condition around", at: column)
                }
                add(.comparison(.notEqual), 2)
            case "<":
                if next() == ">" {
                    add(.comparison(.notEqual), 2)
                } else if next() == "=" {
                    add(.comparison(.lessOrEqual), 2)
                } else {
                    add(.comparison(.less), 1)
                }
            case ">": next() == "=" ? add(.comparison(.greaterOrEqual), 2) : add(.comparison(.greater), 1)
            case "\"", "'":
                index += 1
                var value = ""
                var closed = false
                while index < scalars.count {
                    let inner = scalars[index]
                    index += 1
                    if inner == scalar {
                        guard index < scalars.count, scalars[index] == scalar else {
                            closed = true
                            break
                        }
                        index += 1
                    }
                    value.unicodeScalars.append(inner)
                }
                guard closed else { throw RecordFilterError("the quote opened here is not closed", at: column) }
                tokens.append(FilterToken(kind: .quoted, text: value, column: column))
            case "." where next() == ".": add(.range, 2)
            case _ where isWordScalar(scalar):
                var end = index
                // A word ends before `..`, so `100..150` is a range of two numbers.
                while end < scalars.count, isWordScalar(scalars[end]),
                    !(scalars[end] == "." && end + 1 < scalars.count && scalars[end + 1] == ".")
                {
                    end += 1
                }
                add(.word, end - index)
            default:
                throw RecordFilterError(
                    "unexpected character '\(scalar.escaped(asASCII: false))': quote a value with it in \"…\"",
                    at: column)
            }
        }
        tokens.append(FilterToken(kind: .end, text: "", column: scalars.count + 1))
        return tokens
    }
}

/// Reads tokens into an expression: `OR` of `AND`s of unary terms.
fileprivate struct FilterParser {
    let tokens: [FilterToken]
    var position = 0
    var conditions = 0

    init(tokens: [FilterToken]) {
        self.tokens = tokens
    }

    var peek: FilterToken { tokens[position] }

    mutating func take() -> FilterToken {
        defer { position = min(position + 1, tokens.count - 1) }
        return tokens[position]
    }

    mutating func expression(depth: Int) throws(RecordFilterError) -> FilterExpression {
        var list = [try conjunction(depth: depth)]
        while peek.isKeyword("OR") {
            _ = take()
            list.append(try conjunction(depth: depth))
        }
        return list.count == 1 ? list[0] : .or(list.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    mutating func conjunction(depth: Int) throws(RecordFilterError) -> FilterExpression {
        var list = [try unary(depth: depth)]
        while peek.isKeyword("AND") {
            _ = take()
            list.append(try unary(depth: depth))
        }
        return list.count == 1 ? list[0] : .and(list.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    mutating func unary(depth: Int) throws(RecordFilterError) -> FilterExpression {
        guard depth < FilterExpression.maxDepth else {
            throw RecordFilterError(
                "the filter nests deeper than \(FilterExpression.maxDepth) parentheses or NOTs", at: peek.column)
        }
        if peek.isKeyword("NOT") {
            _ = take()
            return .not(try unary(depth: depth + 1))
        }
        if peek.kind == .open {
            let open = take()
            let inner = try expression(depth: depth + 1)
            guard peek.kind == .close else {
                throw RecordFilterError(
                    "expected ')' to close the '(' at character \(open.column), found \(peek.shown)", at: peek.column)
            }
            _ = take()
            return inner
        }
        return try condition()
    }

    mutating func condition() throws(RecordFilterError) -> FilterExpression {
        let field = take()
        guard field.kind == .word || field.kind == .quoted, !Self.isReserved(field) else {
            throw RecordFilterError("expected a field's name, found \(field.shown)", at: field.column)
        }
        guard !field.text.isEmpty else { throw RecordFilterError("a field's name cannot be empty", at: field.column) }
        conditions += 1
        guard conditions <= FilterExpression.maxConditions else {
            throw RecordFilterError(
                "a filter may have at most \(FilterExpression.maxConditions) conditions", at: field.column)
        }
        func made(_ test: FilterTest) -> FilterExpression {
            .condition(FilterCondition(field: field.text, test: test, column: field.column))
        }
        let next = peek
        switch next.kind {
        case .comparison(let op):
            _ = take()
            return made(.compare(op, try value(after: next)))
        case .range:
            _ = take()
            return made(.range(nil, try value(after: next)))
        case .word where next.isKeyword("EXISTS"):
            _ = take()
            return made(.exists)
        case .word where next.isKeyword("NOT"):
            _ = take()
            guard peek.isKeyword("EXISTS") else {
                throw RecordFilterError("expected EXISTS after NOT, found \(peek.shown)", at: peek.column)
            }
            _ = take()
            return .not(made(.exists))
        case .word where next.isKeyword("IS"):
            _ = take()
            let negated = peek.isKeyword("NOT")
            if negated { _ = take() }
            guard peek.isKeyword("EMPTY") else {
                throw RecordFilterError("expected EMPTY after IS, found \(peek.shown)", at: peek.column)
            }
            _ = take()
            return negated ? .and([made(.exists), .not(made(.isEmpty))]) : made(.isEmpty)
        case .word where next.isKeyword("IN"):
            _ = take()
            return made(.oneOf(try list(after: next)))
        case .word, .quoted:
            // `FIELD a..b` or `FIELD a..`.
            let lower = take()
            guard peek.kind == .range else {
                throw RecordFilterError(
                    "expected =, !=, <, <=, >, >=, a range (a..b), IN, EXISTS or IS EMPTY after \(field.shown), "
                        + "found \(lower.shown)", at: lower.column)
            }
            _ = take()
            let upper: FilterValue? =
                peek.kind == .word && !Self.isReserved(peek) || peek.kind == .quoted
                ? Self.value(take()) : nil
            return made(.range(Self.value(lower), upper))
        default:
            throw RecordFilterError(
                "expected =, !=, <, <=, >, >=, a range (a..b), IN, EXISTS or IS EMPTY after \(field.shown), "
                    + "found \(next.shown)", at: next.column)
        }
    }

    /// The value after an operator.
    mutating func value(after op: FilterToken) throws(RecordFilterError) -> FilterValue {
        let token = take()
        guard token.kind == .quoted || (token.kind == .word && !Self.isReserved(token)) else {
            throw RecordFilterError("expected a value after '\(op.text)', found \(token.shown)", at: token.column)
        }
        if token.kind == .word, peek.kind == .range, op.kind != .range {
            throw RecordFilterError("a range is written FIELD a..b, without '\(op.text)'", at: peek.column)
        }
        return Self.value(token)
    }

    /// `[a, b, …]` after `IN`.
    mutating func list(after keyword: FilterToken) throws(RecordFilterError) -> [FilterValue] {
        guard peek.kind == .openList else {
            throw RecordFilterError("expected '[' after IN, found \(peek.shown)", at: peek.column)
        }
        let open = take()
        var values: [FilterValue] = []
        while true {
            let token = take()
            guard token.kind == .quoted || token.kind == .word else {
                throw RecordFilterError("expected a value in the list, found \(token.shown)", at: token.column)
            }
            values.append(Self.value(token))
            guard values.count <= FilterExpression.maxListValues else {
                throw RecordFilterError(
                    "a list may have at most \(FilterExpression.maxListValues) values", at: token.column)
            }
            let separator = take()
            if separator.kind == .closeList { return values }
            guard separator.kind == .comma else {
                throw RecordFilterError(
                    "expected ',' or ']' to close the '[' at character \(open.column), found \(separator.shown)",
                    at: separator.column)
            }
        }
    }

    static func value(_ token: FilterToken) -> FilterValue {
        FilterValue(token.text, quoted: token.kind == .quoted)
    }

    /// The keywords, in upper case: never a field or value unless quoted.
    static let keywords: Set<String> = ["AND", "OR", "NOT", "IN", "IS", "EXISTS", "EMPTY"]

    /// Whether a bare word is a keyword.
    static func isReserved(_ token: FilterToken) -> Bool {
        token.kind == .word && keywords.contains(token.text.uppercased())
    }
}
