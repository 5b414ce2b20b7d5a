import CatalogHTTP

/// Reading and checking query parameters: a bad value is a 400 that names the parameter.
extension Request {
    /// An integer parameter in `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = query(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError.badParameter(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A text parameter of at most `maxLength` characters, or nil when absent or empty.
    func text(_ name: String, maxLength: Int = 500) throws -> String? {
        guard let value = query(name), !value.isEmpty else { return nil }
        guard value.count <= maxLength else {
            throw HTTPError.badParameter("'\(name)' is longer than \(maxLength) characters")
        }
        return value
    }

    /// The `after` cursor: absent, or a non-empty value (an empty one is a mistake, not "none").
    func cursor() throws -> String? {
        guard let value = query("after") else { return nil }
        guard !value.isEmpty, value.count <= 64 else { throw HTTPError.badParameter("'after' is not a cursor") }
        return value
    }

    /// A required text parameter.
    func requiredText(_ name: String, maxLength: Int = 500) throws -> String {
        guard let value = try text(name, maxLength: maxLength) else {
            throw HTTPError.badParameter("the query parameter '\(name)' is required")
        }
        return value
    }
}
