/// A value a route parameter can hold: made from the segment's decoded text, or nil when the
/// text is not one (`Int` for `{category}`, `String` for any segment).
public protocol RouteParameterValue: Sendable {
    /// The value `text` spells, or nil.
    init?(routeParameter text: String)
}

extension String: RouteParameterValue {
    /// The segment as it is (decoded).
    public init?(routeParameter text: String) { self = text }
}

extension Int: RouteParameterValue {
    /// A whole number in decimal (`Int("…")`'s rules: an optional sign, digits).
    public init?(routeParameter text: String) { self.init(text) }
}

extension RequestContext {
    /// The value of route parameter `name` as `type`.
    ///
    /// ```swift
    /// let id = try context.require("id", as: String.self)
    /// let category = try context.require("category", as: Int.self)
    /// ```
    ///
    /// - Throws: 404 when the route has no such parameter or its segment is not a `type` (a path
    ///   that names no resource).
    public func require<Value: RouteParameterValue>(_ name: String, as type: Value.Type) throws -> Value {
        guard let text = parameters[name] else {
            throw HTTPError.notFound("no such resource: the route has no parameter '\(name)'")
        }
        guard let value = Value(routeParameter: text) else {
            throw HTTPError.notFound("no such resource: '\(text)' is not a valid \(name)")
        }
        return value
    }

    /// The value of route parameter `name` as `type`, nil when the route has none or its segment
    /// is not a `type` (for handlers whose answer to a malformed segment is their own 404).
    public func parameter<Value: RouteParameterValue>(_ name: String, as type: Value.Type) -> Value? {
        parameters[name].flatMap(Value.init(routeParameter:))
    }
}
