/// Header fields in order, looked up without regard to case.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers["Content-Type"] = "application/json"
/// headers["content-type"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)] = []

    /// Creates headers from name-value pairs.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`; setting replaces every value of `name` (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            fields.removeAll { Self.same($0.name, name) }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// True when `name` has a value.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Field names compare without regard to ASCII case (they are ASCII tokens), byte by byte
    /// and without allocating: middleware looks names up many times per request.
    static func same(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                guard left.count == right.count else { return false }
                for index in 0..<left.count where left[index] != right[index] {
                    guard left[index] | 0x20 == right[index] | 0x20, (left[index] | 0x20) >= 0x61,
                        (left[index] | 0x20) <= 0x7A
                    else { return false }
                }
                return true
            }
        }
    }
}
