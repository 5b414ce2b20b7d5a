/// A JSON value of a request body, read for checking: object members in document order with
/// any repeated key kept (so it can be reported), numbers as their exact literal.
///
/// ``JSONTree`` serves the decoder and keeps one value per key; a body needs every member.
indirect enum BodyNode: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number's literal, exactly as written (`1.50`, `-2e3`).
    case number(String)
    case string(String)
    case array([BodyNode])
    case object([BodyMember])

    /// What the value is, for messages: `a string`, `an object`.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The members of an object; nil for any other value.
    var members: [BodyMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The last member called `key` of an object.
    func member(_ key: String) -> BodyNode? {
        members?.last { $0.key == key }?.value
    }
}

/// One member of a ``BodyNode`` object.
struct BodyMember: Sendable, Equatable {
    var key: String
    var value: BodyNode
}

extension BodyNode {
    /// The value as a ``FieldValue``, or nil when it is (or holds) an object. `objectAt` gets
    /// the pointer of the first object, below `pointer`.
    func fieldValue(at pointer: String, objectAt: inout String?) -> FieldValue? {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let literal): return .number(literal)
        case .string(let text): return .text(text)
        case .object:
            objectAt = pointer
            return nil
        case .array(let elements):
            var values: [FieldValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard let value = element.fieldValue(at: JSONPointer.appending(pointer, index), objectAt: &objectAt)
                else { return nil }
                values.append(value)
            }
            return .list(values)
        }
    }

    /// The repeated keys of every object in the value, as pointers to their second (and later)
    /// occurrences, in document order.
    func repeatedKeys(at pointer: String, into found: inout [String]) {
        switch self {
        case .object(let members):
            var seen: Set<String> = []
            for member in members {
                let at = JSONPointer.appending(pointer, member.key)
                if !seen.insert(member.key).inserted { found.append(at) }
                member.value.repeatedKeys(at: at, into: &found)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                element.repeatedKeys(at: JSONPointer.appending(pointer, index), into: &found)
            }
        default:
            break
        }
    }
}

extension JSONInput {
    /// Any value, as a body node. Containers nested deeper than ``JSONInput/maxDepth`` are refused,
    /// counted as ``skipValue()`` counts them, so a value that skips also reads.
    mutating func bodyNode(depth: Int = 0) throws(JSONInputError) -> BodyNode {
        skipWhitespace()
        switch peekByte() {
        case 0x7B:
            guard depth < Self.maxDepth else {
                throw JSONInputError("nesting deeper than \(Self.maxDepth) levels", at: index)
            }
            var members: [BodyMember] = []
            try object { (input: inout JSONInput, key: String) throws(JSONInputError) in
                members.append(BodyMember(key: key, value: try input.bodyNode(depth: depth + 1)))
            }
            return .object(members)
        case 0x5B:
            guard depth < Self.maxDepth else {
                throw JSONInputError("nesting deeper than \(Self.maxDepth) levels", at: index)
            }
            var elements: [BodyNode] = []
            try array { (input: inout JSONInput) throws(JSONInputError) in
                elements.append(try input.bodyNode(depth: depth + 1))
            }
            return .array(elements)
        case 0x22:
            return .string(try string())
        default:
            // Scalars, and the errors for anything else, as field values read them.
            switch try fieldValue() {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .number(let literal): return .number(literal)
            case .text(let text): return .string(text)
            case .list: throw JSONInputError("expected a value", at: index)
            }
        }
    }
}

extension JSONOutput {
    /// Appends a body node as JSON, members in their order.
    mutating func bodyNode(_ node: BodyNode) {
        switch node {
        case .null: raw("null")
        case .bool(let flag): boolean(flag)
        case .number(let literal): number(literal: literal)
        case .string(let text): string(text)
        case .array(let elements): array(elements) { output, element in output.bodyNode(element) }
        case .object(let members):
            object { object in
                for member in members { object.member(named: member.key) { $0.bodyNode(member.value) } }
            }
        }
    }
}
