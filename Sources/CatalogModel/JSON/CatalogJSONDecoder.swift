import Foundation

/// Decodes the API's answers into the model's `Decodable` types, keeping number literals exactly:
/// an extra field `1.50` stays ``FieldValue/number(_:)`` `"1.50"` (`JSONDecoder` would give
/// `"1.5"`), prices are parsed with ``DecimalText`` like ``Record/init(json:)-([UInt8])`` parses
/// them. So a record read from the server and the same record read from an offline snapshot are
/// equal.
///
/// ```swift
/// let page = try CatalogJSONDecoder().decode(ItemsPage.self, from: bytes)
/// ```
///
/// Errors are `DecodingError`s with the coding path of the value that did not fit
/// (`items[3].price`); a document that is not JSON is `.dataCorrupted` naming the byte.
public struct CatalogJSONDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from the UTF-8 bytes of a JSON document.
    ///
    /// - Throws: `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let tree: JSONTree
        do {
            tree = try JSONTree.parse(bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "not valid JSON: \(error.description)"))
        }
        return try TreeDecoder.unbox(tree, as: type, path: [])
    }

    /// Decodes `type` from JSON data.
    ///
    /// - Throws: `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }
}

/// A decoder that can hand over a number's literal (``FieldValue`` keeps it).
protocol NumberLiteralDecoding {
    /// The literal of the value being decoded when it is a number.
    var numberLiteral: String? { get }
}

/// The index of an array element in a coding path.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// One value of a ``JSONTree`` being decoded.
struct TreeDecoder: Decoder, NumberLiteralDecoding {
    let value: JSONTree
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var numberLiteral: String? {
        if case .number(let literal) = value { return literal }
        return nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Self.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.mismatch([Any].self, value, codingPath) }
        return TreeUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValueContainer(value: value, codingPath: codingPath)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONTree, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(value.kind)"))
    }

    static func corrupted(_ message: String, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
    }

    /// `value` as `type`: the scalar types straight from the tree, everything else through its
    /// own `init(from:)`.
    static func unbox<T: Decodable>(_ value: JSONTree, as type: T.Type, path: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch(type, value, path) }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch(type, value, path) }
            return flag as! T
        case is Double.Type:
            return try double(value, path) as! T
        case is Float.Type:
            return Float(try double(value, path)) as! T
        case is Int.Type: return try integer(value, Int.self, path) as! T
        case is Int64.Type: return try integer(value, Int64.self, path) as! T
        case is Int32.Type: return try integer(value, Int32.self, path) as! T
        case is Int16.Type: return try integer(value, Int16.self, path) as! T
        case is Int8.Type: return try integer(value, Int8.self, path) as! T
        case is UInt.Type: return try integer(value, UInt.self, path) as! T
        case is UInt64.Type: return try integer(value, UInt64.self, path) as! T
        case is UInt32.Type: return try integer(value, UInt32.self, path) as! T
        case is UInt16.Type: return try integer(value, UInt16.self, path) as! T
        case is UInt8.Type: return try integer(value, UInt8.self, path) as! T
        case is Decimal.Type:
            guard case .number(let literal) = value else { throw mismatch(type, value, path) }
            guard
                let decimal = DecimalText.parse(literal)
                    ?? Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX"))
            else { throw corrupted("the number \(literal.prefix(40)) is not a decimal", path) }
            return decimal as! T
        case is URL.Type:
            guard case .string(let text) = value else { throw mismatch(type, value, path) }
            guard let url = URL(string: text) else { throw corrupted("invalid URL", path) }
            return url as! T
        default:
            return try T(from: TreeDecoder(value: value, codingPath: path))
        }
    }

    private static func double(_ value: JSONTree, _ path: [any CodingKey]) throws -> Double {
        guard case .number(let literal) = value else { throw mismatch(Double.self, value, path) }
        guard let number = Double(literal) else { throw corrupted("the number \(literal.prefix(40)) is invalid", path) }
        return number
    }

    private static func integer<I: FixedWidthInteger>(_ value: JSONTree, _ type: I.Type, _ path: [any CodingKey])
        throws -> I
    {
        guard case .number(let literal) = value else { throw mismatch(type, value, path) }
        if let exact = I(literal) { return exact }
        // `1.0` and `1e2` are whole numbers too.
        if let number = Double(literal), number.rounded() == number, let exact = I(exactly: number) { return exact }
        throw corrupted("the number \(literal.prefix(40)) does not fit in \(type)", path)
    }
}

struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONTree]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONTree {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try TreeDecoder.unbox(member(key), as: type, path: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try TreeDecoder.unbox(member(key), as: type, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try TreeDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONTree]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONTree], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONTree, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has ended"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try TreeDecoder.unbox(value, as: type, path: path)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try TreeDecoder.unbox(value, as: type, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next([String: Any].self)
        return try TreeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Any].self)
        return try TreeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(Any.self)
        return TreeDecoder(value: value, codingPath: path)
    }
}

struct TreeSingleValueContainer: SingleValueDecodingContainer {
    let value: JSONTree
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try TreeDecoder.unbox(value, as: type, path: codingPath)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        try TreeDecoder.unbox(value, as: type, path: codingPath)
    }
}
