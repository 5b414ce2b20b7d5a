import Foundation

extension FilterExpression {
    /// Whether one record passes the filter, by the rules the index evaluates it by on every engine
    /// (CatalogCore's `FieldFilter`): what a standing filter (an API key's, ``RecordFilter``) asks
    /// of a record read on its own, outside a search.
    ///
    /// - `F = v`: a value of `F` is `v` as folded words (``FieldValueOrder/valueKey(_:)``; values
    ///   of up to ``FieldValueOrder/maxValueBytes`` bytes, as the index keeps them), or the same
    ///   number or date (an unquoted `v`).
    /// - `F < v`, `F a..b`: a number of `F` (or a date, when the bounds are dates) between them.
    /// - `F EXISTS`: the record has `F`; `F IS EMPTY`: it has `F` without a value.
    /// - `category`, `categories`, `country`, `price`: the record's categories (labels as written),
    ///   country code (any case) and price.
    /// - `NOT` and `!=` pass the records without the field.
    ///
    /// ```swift
    /// let filter = try FilterExpression(parsing: "Origin = japan AND Horsepower 100..150")
    /// filter.matches(record)
    /// ```
    public func matches(_ record: Record) -> Bool {
        switch self {
        case .condition(let condition): condition.matches(record)
        case .and(let list): list.allSatisfy { $0.matches(record) }
        case .or(let list): list.contains { $0.matches(record) }
        case .not(let inner): !inner.matches(record)
        }
    }
}

extension FilterCondition {
    /// Whether one record passes the condition (``FilterExpression/matches(_:)``).
    func matches(_ record: Record) -> Bool {
        switch field {
        case "price": return priceMatches(record.price.map { NSDecimalNumber(decimal: $0).doubleValue })
        case "category", "categories":
            return builtInMatches(record.categories) { $0 == $1.text }
        case "country":
            return builtInMatches(record.country.map { [$0] } ?? []) { $0.uppercased() == $1.text.uppercased() }
        default:
            return fieldMatches(field.utf8.contains(0) ? nil : record.fields[field])
        }
    }

    /// A built-in list (categories, the country): equality, presence; numbers and ranges hold for none.
    private func builtInMatches(_ values: [String], _ equal: (String, FilterValue) -> Bool) -> Bool {
        switch test {
        case .compare(.equal, let value): values.contains { equal($0, value) }
        case .compare(.notEqual, let value): !values.contains { equal($0, value) }
        case .oneOf(let options): values.contains { value in options.contains { equal(value, $0) } }
        case .exists: !values.isEmpty
        case .isEmpty: values.isEmpty
        case .compare, .range: false
        }
    }

    /// The price: equal to a number, within bounds; a record without a price passes none of them.
    private func priceMatches(_ price: Double?) -> Bool {
        let value = price ?? .nan
        func equal(_ bound: FilterValue) -> Bool { value == (bound.number ?? .nan) }
        switch test {
        case .compare(.equal, let bound): return equal(bound)
        case .compare(.notEqual, let bound): return !equal(bound)
        case .oneOf(let bounds): return bounds.contains(where: equal)
        case .exists: return price != nil
        case .isEmpty: return price == nil
        case .compare(let op, let bound):
            let limit = bound.number ?? .nan
            switch op {
            case .greater: return value > limit
            case .greaterOrEqual: return value >= limit
            case .less: return value < limit
            default: return value <= limit
            }
        case .range(let lower, let upper):
            return value >= (lower.map { $0.number ?? .nan } ?? -.infinity)
                && value <= (upper.map { $0.number ?? .nan } ?? .infinity)
        }
    }

    /// One of the record's own fields (nil: the record does not have it).
    private func fieldMatches(_ field: FieldValue?) -> Bool {
        let texts = field?.values.filter { !$0.isEmpty } ?? []
        func equal(_ value: FilterValue) -> Bool {
            let key = FieldValueOrder.valueKey(value.text)
            // The index marks a field without a value with the empty value.
            if key.isEmpty, field != nil, texts.isEmpty { return true }
            return texts.contains { text in
                if text.utf8.count <= FieldValueOrder.maxValueBytes, !text.utf8.contains(0),
                    FieldValueOrder.valueKey(text) == key
                {
                    return true
                }
                if let number = FieldValueOrder.number(text) { return number == value.number }
                return value.date != nil && FieldValueOrder.date(text) == value.date
            }
        }
        switch test {
        case .compare(.equal, let value): return equal(value)
        case .compare(.notEqual, let value): return !equal(value)
        case .oneOf(let values): return values.contains(where: equal)
        case .exists: return field != nil
        case .isEmpty: return field != nil && texts.isEmpty
        case .compare(let op, let value):
            let bound = (value, op == .lessOrEqual || op == .greaterOrEqual)
            let isLower = op == .greater || op == .greaterOrEqual
            return ordered(texts, lower: isLower ? bound : nil, upper: isLower ? nil : bound)
        case .range(let lower, let upper):
            return ordered(texts, lower: lower.map { ($0, true) }, upper: upper.map { ($0, true) })
        }
    }

    /// Whether a number of the texts (or a date, when the bounds are dates) lies between the bounds.
    private func ordered(_ texts: [String], lower: (FilterValue, Bool)?, upper: (FilterValue, Bool)?) -> Bool {
        let bounds = [lower?.0, upper?.0].compactMap { $0 }
        let dates = !bounds.allSatisfy { $0.number != nil } && bounds.allSatisfy { $0.date != nil }
        func read(_ bound: (FilterValue, Bool)?) -> (value: Double, included: Bool)?? {
            guard let bound else { return .some(nil) }
            guard let number = dates ? bound.0.date : bound.0.number else { return nil }
            return (number, bound.1)
        }
        guard let from = read(lower), let to = read(upper) else { return false }
        return texts.contains { text in
            // The index keeps a text's number, or its date when it is not a number.
            let number = FieldValueOrder.number(text)
            guard let value = dates ? (number == nil ? FieldValueOrder.date(text) : nil) : number else { return false }
            if let from, value < from.value || (!from.included && value == from.value) { return false }
            if let to, value > to.value || (!to.included && value == to.value) { return false }
            return true
        }
    }
}
