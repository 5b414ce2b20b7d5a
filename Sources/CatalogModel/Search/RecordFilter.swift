import CatalogSupport
import Foundation

/// A standing filter on a catalog's records, in the terms search filters in: categories a record
/// must all carry, countries it may have, a price range, or any condition of the filter language
/// on the records' own fields. An API key may carry one, so that every answer the key gets holds
/// only the records it matches (one catalog, several tenants).
///
/// Written as clauses joined by `and`; a value with spaces is quoted (`'…'` or `"…"`, the quote
/// doubled inside). A filter these clauses cannot say is read in the filter language
/// (``FilterExpression``: `dealer = "Nord" AND NOT Status = retired`), kept as ``expression``:
///
/// ```swift
/// let filter = try RecordFilter(parsing: "country = DE,AT and category = 'Main dishes' and price <= 50")
/// filter.countries   // [DE, AT]
/// filter.description // country = DE,AT and category = "Main dishes" and price = ..50
/// ```
///
/// | clause | meaning |
/// | --- | --- |
/// | `category = X` | carries category X (several clauses: carries all of them) |
/// | `country = DE` or `country = DE,AT` | has one of these countries |
/// | `price = 10..50`, `price >= 10`, `price <= 50` | its price lies in the range |
public struct RecordFilter: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Category labels a record must all carry.
    public private(set) var categories: [String] = []
    /// Countries a record may have (any of them); nil: any country or none.
    public private(set) var countries: [CountryCode]?
    /// The price range, nil for none.
    public private(set) var price: NumericRange?
    /// A filter in the filter language, for a filter the clauses cannot say (conditions on the
    /// records' own fields, `OR`, `NOT`); nil for one written in clauses.
    public private(set) var expression: FilterExpression?

    /// The longest filter text, in UTF-8 bytes.
    public static let maxLength = 1000

    /// Parses a filter.
    ///
    /// - Parameter text: clauses joined by `and`, as in the type's description, or an expression
    ///   of the filter language (``FilterExpression``).
    /// - Throws: ``RecordFilterError`` naming what is wrong and at which character.
    public init(parsing text: String) throws(RecordFilterError) {
        guard text.utf8.count <= Self.maxLength else {
            throw RecordFilterError("a filter may be at most \(Self.maxLength) bytes long", at: 1)
        }
        do {
            try readClauses(text)
        } catch let clauseError {
            self = RecordFilter()
            do {
                let expression = try FilterExpression(parsing: text)
                try Self.checkBuiltIns(expression)
                self.expression = expression
            } catch {
                // Clauses on the built-in fields are told in their terms; anything else in the language's.
                throw clauseError.message.hasPrefix("unknown field") ? error : clauseError
            }
        }
    }

    /// A filter of no clauses: every record passes.
    init() {}

    /// The country codes and prices of the built-in conditions in an expression must be such.
    private static func checkBuiltIns(_ expression: FilterExpression) throws(RecordFilterError) {
        for condition in expression.conditions {
            if ["category", "categories", "country"].contains(condition.field) {
                switch condition.test {
                case .compare(.less, _), .compare(.lessOrEqual, _), .compare(.greater, _), .compare(.greaterOrEqual, _),
                    .range:
                    throw RecordFilterError(
                        "\(condition.field) takes =, !=, IN, EXISTS or IS EMPTY", at: max(1, condition.column))
                default: break
                }
            }
            for value in condition.test.values {
                if condition.field == "country", CountryCode(value.text) == nil {
                    throw RecordFilterError(
                        "'\(value.text.prefix(20))' is not \(CountryCode.requirement)", at: max(1, condition.column))
                }
                if condition.field == "price", value.number == nil {
                    throw RecordFilterError(
                        "'\(value.text.prefix(40))' is not a price", at: max(1, condition.column))
                }
            }
        }
    }

    /// Reads clauses joined by `and`.
    private mutating func readClauses(_ text: String) throws(RecordFilterError) {
        var scanner = Scanner(Array(text.unicodeScalars))
        repeat {
            scanner.skipSpaces()
            let fieldAt = scanner.column
            let field = scanner.word().lowercased()
            guard !field.isEmpty else {
                throw RecordFilterError("expected a field (category, country or price)", at: fieldAt)
            }
            scanner.skipSpaces()
            let operatorAt = scanner.column
            let op = scanner.operatorText()
            scanner.skipSpaces()
            let valueAt = scanner.column
            let value = try scanner.value()
            switch (field, op) {
            case ("category", "="), ("categories", "="):
                guard !value.isEmpty else { throw RecordFilterError("a category cannot be empty", at: valueAt) }
                if !categories.contains(value) { categories.append(value) }
            case ("country", "="):
                var codes: [CountryCode] = []
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let code = CountryCode(part.trimmingCharacters(in: .whitespaces)) else {
                        throw RecordFilterError(
                            "'\(part.prefix(20))' is not \(CountryCode.requirement)", at: valueAt)
                    }
                    if !codes.contains(code) { codes.append(code) }
                }
                countries = countries.map { old in old.filter { codes.contains($0) } } ?? codes
            case ("price", _):
                let range: NumericRange?
                switch op {
                case "=": range = NumericRange(parsing: value)
                case ">=": range = RecordMapper.parseDecimal(value).map { NumericRange(lower: $0, upper: nil) }
                case "<=": range = RecordMapper.parseDecimal(value).map { NumericRange(lower: nil, upper: $0) }
                default:
                    throw RecordFilterError("price takes =, >= or <=", at: operatorAt)
                }
                guard let range else {
                    throw RecordFilterError(
                        "'\(value.prefix(40))' is not a price or a range such as 10..50", at: valueAt)
                }
                price = price.map { Self.intersection($0, range) } ?? range
            case ("category", _), ("categories", _), ("country", _):
                throw RecordFilterError("\(field) takes =", at: operatorAt)
            default:
                throw RecordFilterError(
                    "unknown field '\(field.prefix(40))': a filter names category, country or price", at: fieldAt)
            }
            scanner.skipSpaces()
            if scanner.isAtEnd { break }
            let joinAt = scanner.column
            guard scanner.word().lowercased() == "and" else {
                throw RecordFilterError("expected 'and' or the end of the filter", at: joinAt)
            }
        } while true
    }

    /// The filter's text in a canonical form: what parses back to the same filter.
    public var description: String {
        if let expression { return expression.description }
        var clauses = categories.map { "category = \"\($0.replacingScalars(of: "\"", with: "\"\""))\"" }
        if let countries { clauses.append("country = " + countries.map(\.text).joined(separator: ",")) }
        if let price { clauses.append("price = \(price)") }
        return clauses.joined(separator: " and ")
    }

    /// Whether a record passes the filter.
    public func matches(_ record: Record) -> Bool {
        if let expression, !expression.matches(record) { return false }
        guard categories.allSatisfy(record.categories.contains) else { return false }
        if let countries {
            guard let country = record.country.flatMap({ CountryCode($0) }), countries.contains(country) else {
                return false
            }
        }
        if let price {
            guard let value = record.price else { return false }
            return price.contains(NSDecimalNumber(decimal: value).doubleValue)
        }
        return true
    }

    /// `request` narrowed to the records the filter passes: its categories added to the request's,
    /// its countries intersected with the request's, its price range with the request's.
    ///
    /// A request whose filters and this one exclude each other gets an empty price range, so it
    /// finds nothing (and counts nothing) rather than everything.
    public func narrowing(_ request: SearchRequest) -> SearchRequest {
        var narrowed = request
        for category in categories where !narrowed.categories.contains(category) {
            narrowed.categories.append(category)
        }
        var excluded = false
        if let countries {
            let asked = request.countries.compactMap { CountryCode($0) }
            let allowed = asked.isEmpty && request.countries.isEmpty ? countries : countries.filter(asked.contains)
            excluded = allowed.isEmpty
            narrowed.countries = (excluded ? countries : allowed).map(\.text)
        }
        if let price { narrowed.price = request.price.map { Self.intersection($0, price) } ?? price }
        if excluded { narrowed.price = Self.nothing }
        if let expression {
            narrowed.restriction = FilterExpression.all([request.restriction, expression].compactMap { $0 })
        }
        return narrowed
    }

    /// A price range no price lies in.
    static let nothing = NumericRange(lower: 1, upper: 0)

    /// The prices both ranges hold (an empty range when they do not overlap).
    static func intersection(_ a: NumericRange, _ b: NumericRange) -> NumericRange {
        let lower: Decimal? =
            switch (a.lower, b.lower) {
            case (let x?, let y?): max(x, y)
            case (let x, let y): x ?? y
            }
        let upper: Decimal? =
            switch (a.upper, b.upper) {
            case (let x?, let y?): min(x, y)
            case (let x, let y): x ?? y
            }
        return NumericRange(lower: lower, upper: upper)
    }

    /// Reads a filter's text scalar by scalar.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var isAtEnd: Bool { index == scalars.count }
        /// The 1-based character position of the next scalar, for messages.
        var column: Int { index + 1 }

        mutating func skipSpaces() {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        }

        /// ASCII letters (a field name or `and`).
        mutating func word() -> String {
            var text = ""
            while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic {
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            return text
        }

        /// `=`, `>=` or `<=` (or whatever other run of operator characters is there).
        mutating func operatorText() -> String {
            var text = ""
            while index < scalars.count, "<>=!".unicodeScalars.contains(scalars[index]) {
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            return text
        }

        /// A quoted value (the quote doubled inside) or a run of characters up to a space.
        mutating func value() throws(RecordFilterError) -> String {
            let start = column
            guard index < scalars.count else { throw RecordFilterError("expected a value", at: start) }
            let quote = scalars[index]
            guard quote == "\"" || quote == "'" else {
                var text = ""
                while index < scalars.count, !scalars[index].properties.isWhitespace {
                    text.unicodeScalars.append(scalars[index])
                    index += 1
                }
                return text
            }
            index += 1
            var text = ""
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                if scalar == quote {
                    guard index < scalars.count, scalars[index] == quote else { return text }
                    index += 1
                }
                text.unicodeScalars.append(scalar)
            }
            throw RecordFilterError("the quote opened here is not closed", at: start)
        }
    }
}

/// A filter that does not parse: what is wrong and at which character (1-based).
public struct RecordFilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The character (counted from 1) where the problem starts.
    public var column: Int

    /// Creates the error.
    public init(_ message: String, at column: Int) {
        self.message = message
        self.column = column
    }

    public var description: String { "\(message) (at character \(column) of the filter)" }
}
