/// A JSON document read into values, numbers kept as their exact literal, for
/// ``CatalogJSONDecoder``. Objects keep their members in document order; a repeated key keeps
/// its last value (as `JSONDecoder` does).
enum JSONTree: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number's literal, exactly as written (`1.50`, `-2e3`).
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    /// What the value is, for messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Values nested deeper than this are refused, so hostile input cannot exhaust the stack.
    static let maxDepth = 128

    /// Parses one whole document.
    ///
    /// - Throws: ``JSONInputError`` naming the byte where the document stops being JSON.
    static func parse(_ bytes: [UInt8]) throws(JSONInputError) -> JSONTree {
        try JSONInput.with(bytes) { (input: inout JSONInput) throws(JSONInputError) in try input.tree(depth: 0) }
    }
}

extension JSONInput {
    /// Any value, as a tree.
    mutating func tree(depth: Int) throws(JSONInputError) -> JSONTree {
        guard depth < JSONTree.maxDepth else {
            throw JSONInputError("values nested deeper than \(JSONTree.maxDepth) levels", at: index)
        }
        skipWhitespace()
        switch peekByte() {
        case 0x7B:
            var members: [String: JSONTree] = [:]
            try object { (input: inout JSONInput, key: String) throws(JSONInputError) in
                members[key] = try input.tree(depth: depth + 1)
            }
            return .object(members)
        case 0x5B:
            var elements: [JSONTree] = []
            try array { (input: inout JSONInput) throws(JSONInputError) in
                elements.append(try input.tree(depth: depth + 1))
            }
            return .array(elements)
        case 0x22:
            return .string(try string())
        default:
            // Scalars (and the errors for anything else) as field values read them.
            switch try fieldValue() {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .number(let literal): return .number(literal)
            case .text(let text): return .string(text)
            case .list(let values): return .array(values.map(JSONTree.init))
            }
        }
    }
}

extension JSONTree {
    /// A field value as a tree (only reached for arrays read by ``JSONInput/fieldValue()``).
    init(_ value: FieldValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let literal): self = .number(literal)
        case .text(let text): self = .string(text)
        case .list(let values): self = .array(values.map(JSONTree.init))
        }
    }
}
