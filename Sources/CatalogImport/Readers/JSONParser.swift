import CatalogModel

/// The streaming JSON tokenizer and record builder behind ``JSONRecordReader``.
///
/// A hand-written recursive-descent parser over a ``ByteScanner``: strict RFC 8259, one pass,
/// memory bounded by the largest single record. Values outside the records are validated and
/// discarded without building strings. What JSON is (escapes, surrogate pairs, literals, the
/// number grammar) comes from ``JSONLexis``, which the model's in-memory `JSONInput` calls too;
/// the control flow over a refilling buffer and the messages with line and column are this one's.
struct JSONParser {
    /// Containers nested deeper than this are refused with `.tooLarge`.
    static let maxDepth = 64

    private var scanner: ByteScanner
    /// The record path split at dots, or nil to find the records automatically.
    private let recordPath: [String]?
    private var depth = 0
    private var scratch: [UInt8] = []
    private var fieldCapacity = 8
    private var recordCount = 0
    /// Top-level keys seen, for the "no records" message.
    private var keysSeen: [String] = []
    /// Top-level members whose value is an object, and those whose value is anything else.
    private var objectMembers = 0
    private var otherMembers = 0
    /// Keyed records read but not yet handed on: the top-level object's first members, while
    /// a later member could still show that they are not records (``keyedLookahead``).
    private var pendingKeyed: [SourceRecord] = []
    /// Where the first top-level member's value starts, for ``keyedLookaheadBytes``.
    private var keyedStart: Int64 = 0
    /// Whether the top-level object's members are handed on as keyed records as they come.
    private var keyedCommitted = false
    /// Fields whose arrays held arrays (flattened into one list), in the order first met, with
    /// where each was first met and how many times in all.
    private var nestedArrays: [(field: String, location: SourceLocation, count: Int)] = []

    /// The field holding a keyed record's key.
    static let keyField = "id"
    /// Top-level object members held back while they could still be something other than keyed
    /// records (a later member holding the array of records makes them metadata): once this
    /// many, or ``keyedLookaheadBytes`` of input, are all objects, they are keyed records.
    static let keyedLookahead = 256
    /// Input bytes, from the first top-level member on, after which held-back members are
    /// keyed records (``keyedLookahead``).
    static let keyedLookaheadBytes: Int64 = 1 << 20

    init(scanner: ByteScanner, recordPath: String?) {
        self.scanner = scanner
        self.recordPath = recordPath.map { path in
            path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        self.scratch.reserveCapacity(256)
    }

    // MARK: - Document

    /// Parses the whole input, calling `body` with each record as soon as it is complete (the
    /// first members of a top-level object of objects wait for at most ``keyedLookahead``
    /// members).
    mutating func run(_ body: (SourceRecord) throws -> Void) throws {
        guard let first = try skipWhitespace() else {
            throw ImportError(.empty, "no records found: the input is empty", at: scanner.location(at: scanner.pos))
        }
        let start = scanner.pos
        let startLocation = scanner.location(at: start)
        switch first {
        case Byte.openBracket:
            if let recordPath {
                let message =
                    "no key \"\(recordPath.joined(separator: "."))\": the top-level value is an array, not an object"
                throw scanner.error(.notFound, message, at: start)
            }
            try parseRecordArray(body)
            if recordCount == 0 {
                throw ImportError(.empty, "no records found: the top-level array is empty", at: startLocation)
            }
        case Byte.openBrace:
            let found = try searchObject(for: recordPath.map { $0[...] }, level: 0, body)
            if !found, recordPath == nil, objectMembers > 0, otherMembers == 0 {
                // Every member is an object: they are the records, keyed by their ids.
                if let extra = try skipWhitespace() {
                    throw scanner.error(
                        .malformed, "unexpected \(describe(extra)) after the end of the top-level value",
                        at: scanner.pos)
                }
                try handOnKeyed(body)
                return
            }
            if !found {
                let seen =
                    keysSeen.isEmpty ? "the object has no keys" : "keys seen: " + keysSeen.joined(separator: ", ")
                if let recordPath {
                    let name = recordPath.joined(separator: ".")
                    throw ImportError(
                        .notFound, "no key \"\(name)\" holding an array of records (\(seen))", at: startLocation)
                }
                throw ImportError(
                    .empty, "no records found: no top-level key holds an array of objects (\(seen))", at: startLocation)
            }
            if recordCount == 0 {
                throw ImportError(.empty, "no records found: the array of records is empty", at: startLocation)
            }
        default:
            throw scanner.error(
                .malformed, "expected an array of records or an object at the top level, found \(describe(first))",
                at: start)
        }
        if let extra = try skipWhitespace() {
            throw scanner.error(
                .malformed, "unexpected \(describe(extra)) after the end of the top-level value", at: scanner.pos)
        }
    }

    /// Walks an object (at `{`) looking for the records: the key named by `path`, or (when `path`
    /// is nil) the first top-level key whose value is an array of objects. Everything else is
    /// validated and skipped.
    ///
    /// - Returns: whether the records were found (and delivered).
    private mutating func searchObject(
        for path: ArraySlice<String>?, level: Int, _ body: (SourceRecord) throws -> Void
    ) throws -> Bool {
        var found = false
        try enterContainer()
        var next = try skipWhitespace()
        if next == Byte.closeBrace {
            scanner.pos += 1
            depth -= 1
            return false
        }
        while true {
            guard next == Byte.quote else { throw expectedKey(next) }
            let keyLocation = scanner.location(at: scanner.pos)
            let key = try readString(keep: true)
            if level == 0, keysSeen.count < 20 { keysSeen.append(key) }
            try expectColon()
            let valueStart = try skipWhitespace()
            if !found, let path, let wanted = path.first {
                let wholePath = path.joined(separator: ".")
                if key == wholePath || (key == wanted && path.count == 1) {
                    if valueStart == Byte.openBrace {
                        try parseKeyedRecords(body)
                        found = true
                    } else {
                        guard valueStart == Byte.openBracket else {
                            throw scanner.error(
                                .malformed, "key \"\(key)\" holds \(describe(valueStart)), not an array of records",
                                at: scanner.pos)
                        }
                        try parseRecordArray(body)
                        found = true
                    }
                } else if key == wanted, valueStart == Byte.openBrace {
                    found = try searchObject(for: path.dropFirst(), level: level + 1, body)
                } else {
                    try skipValue()
                }
            } else if !found, path == nil, level == 0 {
                found = try readTopLevelMember(key: key, at: keyLocation, valueStart: valueStart, body)
            } else {
                try skipValue()
            }
            guard try continueContainer(closing: Byte.closeBrace, after: "an object member") else { return found }
            next = try skipWhitespace()
        }
    }

    /// A top-level member's value while the records are looked for (no record path): the first
    /// array of objects is the records; while every member so far is an object, each is read as a
    /// keyed record, held back until ``keyedLookahead`` members show that they are records, then
    /// handed on as it comes.
    ///
    /// - Returns: whether this member was the array of records (and delivered).
    private mutating func readTopLevelMember(
        key: String, at keyLocation: SourceLocation, valueStart: UInt8?, _ body: (SourceRecord) throws -> Void
    ) throws -> Bool {
        if valueStart == Byte.openBrace {
            objectMembers += 1
            guard otherMembers == 0 else {
                try skipValue()
                return false
            }
            if objectMembers == 1 { keyedStart = scanner.base + Int64(scanner.pos) }
            let record = try parseKeyedRecord(key: key, at: keyLocation)
            if keyedCommitted {
                try body(record)
            } else {
                pendingKeyed.append(record)
                if pendingKeyed.count >= Self.keyedLookahead
                    || scanner.base + Int64(scanner.pos) - keyedStart >= Self.keyedLookaheadBytes
                {
                    keyedCommitted = true
                    try handOnKeyed(body)
                }
            }
            return false
        }
        if keyedCommitted {
            let shown = key.prefix(200)
            let hint = valueStart == Byte.openBracket ? "; give --record \"\(shown)\" to read its array" : ""
            throw scanner.error(
                .malformed,
                "record \"\(shown)\" holds \(describe(valueStart)), not an object (the top-level object's first "
                    + "\(objectMembers) members are objects, read as records keyed by their ids\(hint))",
                at: scanner.pos)
        }
        otherMembers += 1
        if !pendingKeyed.isEmpty {
            // They were not records after all: forget them and what was noted while reading them.
            recordCount -= pendingKeyed.count
            pendingKeyed = []
            nestedArrays.removeAll()
        }
        if valueStart == Byte.openBracket { return try parseArrayIfRecords(body) }
        try skipValue()
        return false
    }

    /// Hands on the keyed records held back.
    private mutating func handOnKeyed(_ body: (SourceRecord) throws -> Void) throws {
        let records = pendingKeyed
        pendingKeyed = []
        for record in records { try body(record) }
    }

    /// At `[`: parses the array as the records if its first element is an object, otherwise
    /// validates and skips it.
    private mutating func parseArrayIfRecords(_ body: (SourceRecord) throws -> Void) throws -> Bool {
        try enterContainer()
        let first = try skipWhitespace()
        if first == Byte.openBrace {
            try parseRecordElements(body)
            return true
        }
        if first == Byte.closeBracket {
            scanner.pos += 1
            depth -= 1
            return false
        }
        try skipArrayElements()
        return false
    }

    /// At `[`: the array of records.
    private mutating func parseRecordArray(_ body: (SourceRecord) throws -> Void) throws {
        try enterContainer()
        let first = try skipWhitespace()
        if first == Byte.closeBracket {
            scanner.pos += 1
            depth -= 1
            return
        }
        try parseRecordElements(body)
    }

    /// Inside the records array, at the first element: every element must be an object.
    private mutating func parseRecordElements(_ body: (SourceRecord) throws -> Void) throws {
        var next = try skipWhitespace()
        while true {
            guard next == Byte.openBrace else {
                if next == nil { throw unexpectedEnd("in the array of records") }
                throw scanner.error(
                    .malformed, "expected a record object, found \(describe(next))", at: scanner.pos)
            }
            let location = scanner.location(at: scanner.pos)
            var fields: [SourceField] = []
            fields.reserveCapacity(fieldCapacity)
            try parseObject(prefix: "", inList: false, into: &fields)
            fieldCapacity = max(fieldCapacity, fields.count)
            recordCount += 1
            try body(SourceRecord(fields: fields, location: location))
            guard try continueContainer(closing: Byte.closeBracket, after: "a record") else { return }
            next = try skipWhitespace()
        }
    }

    /// At `{`: every member is a record, its key the record's id (the first field, ``keyField``).
    private mutating func parseKeyedRecords(_ body: (SourceRecord) throws -> Void) throws {
        try enterContainer()
        var next = try skipWhitespace()
        if next == Byte.closeBrace {
            scanner.pos += 1
            depth -= 1
            return
        }
        while true {
            guard next == Byte.quote else { throw expectedKey(next) }
            let location = scanner.location(at: scanner.pos)
            let key = try readString(keep: true)
            try expectColon()
            let valueStart = try skipWhitespace()
            guard valueStart == Byte.openBrace else {
                throw scanner.error(
                    .malformed, "record \"\(key.prefix(200))\" holds \(describe(valueStart)), not an object",
                    at: scanner.pos)
            }
            try body(try parseKeyedRecord(key: key, at: location))
            guard try continueContainer(closing: Byte.closeBrace, after: "a record") else { return }
            next = try skipWhitespace()
        }
    }

    /// At the `{` of the member keyed `key` (at `location`): the record, its key the first field
    /// (``keyField``). An error inside it names the member's key.
    private mutating func parseKeyedRecord(key: String, at location: SourceLocation) throws(ImportError)
        -> SourceRecord
    {
        var fields: [SourceField] = [SourceField(name: Self.keyField, value: key, location: location)]
        fields.reserveCapacity(fieldCapacity)
        do {
            try parseObject(prefix: "", inList: false, into: &fields)
        } catch {
            var error = error
            error.message += " (in member \"\(key.prefix(200))\")"
            throw error
        }
        fieldCapacity = max(fieldCapacity, fields.count)
        recordCount += 1
        return SourceRecord(fields: fields, location: location)
    }

    // MARK: - Record values

    /// At `{`: the members of an object, flattened into `fields` under `prefix`.
    private mutating func parseObject(prefix: String, inList: Bool, into fields: inout [SourceField])
        throws(ImportError)
    {
        try enterContainer()
        var next = try skipWhitespace()
        if next == Byte.closeBrace {
            scanner.pos += 1
            depth -= 1
            return
        }
        while true {
            guard next == Byte.quote else { throw expectedKey(next) }
            let key = try readString(keep: true)
            try expectColon()
            try parseValue(name: prefix.isEmpty ? key : prefix + "." + key, inList: inList, into: &fields)
            guard try continueContainer(closing: Byte.closeBrace, after: "an object member") else { return }
            next = try skipWhitespace()
        }
    }

    /// A value inside a record, appended to `fields` as `name` with its type (objects flatten
    /// with `.`, array elements repeat the name marked as list elements, `[]` is one empty-list
    /// field).
    private mutating func parseValue(name: String, inList: Bool, into fields: inout [SourceField])
        throws(ImportError)
    {
        do {
            try parseValueUnnamed(name: name, inList: inList, into: &fields)
        } catch {
            // Name the innermost field the problem is in.
            var error = error
            if error.field == nil { error.field = name }
            throw error
        }
    }

    private mutating func parseValueUnnamed(name: String, inList: Bool, into fields: inout [SourceField])
        throws(ImportError)
    {
        guard let first = try skipWhitespace() else { throw unexpectedEnd("where a value was expected") }
        let location = scanner.location(at: scanner.pos)
        switch first {
        case Byte.quote:
            fields.append(
                SourceField(name: name, value: try readString(keep: true), isListElement: inList, location: location))
        case Byte.openBrace:
            try parseObject(prefix: name, inList: inList, into: &fields)
        case Byte.openBracket:
            if inList { noteNestedArray(name, at: location) }
            try enterContainer()
            if try skipWhitespace() == Byte.closeBracket {
                scanner.pos += 1
                depth -= 1
                fields.append(SourceField(name: name, value: "", kind: .emptyList, location: location))
                return
            }
            while true {
                try parseValue(name: name, inList: true, into: &fields)
                guard try continueContainer(closing: Byte.closeBracket, after: "an array element") else { return }
            }
        case Byte.minus, Byte.zero...Byte.nine:
            fields.append(
                SourceField(
                    name: name, value: try readNumber(keep: true), kind: .number, isListElement: inList,
                    location: location))
        case Byte.t, Byte.f:
            let value = try readLiteral(first)
            fields.append(SourceField(name: name, value: value, kind: .bool, isListElement: inList, location: location))
        case Byte.n:
            _ = try readLiteral(first)
            fields.append(SourceField(name: name, value: "", kind: .null, isListElement: inList, location: location))
        default:
            throw expected("a value", found: first)
        }
    }

    /// What the user should know about values passed over in the records' shape: arrays inside
    /// arrays (GeoJSON coordinates, say) are flattened, each field said once with the first place
    /// and how often.
    var notes: [String] {
        nestedArrays.map { field, location, count in
            let more = count > 1 ? " (\(count) arrays in all)" : ""
            return "\(location): field \"\(field)\": an array inside an array is flattened into one list of its "
                + "values, in order\(more)"
        }
    }

    private mutating func noteNestedArray(_ field: String, at location: SourceLocation) {
        if let index = nestedArrays.firstIndex(where: { $0.field == field }) {
            nestedArrays[index].count += 1
        } else if nestedArrays.count < 20 {
            nestedArrays.append((field, location, 1))
        }
    }

    // MARK: - Skipping

    /// Validates and discards one value.
    private mutating func skipValue() throws(ImportError) {
        guard let first = try skipWhitespace() else { throw unexpectedEnd("where a value was expected") }
        switch first {
        case Byte.quote:
            _ = try readString(keep: false)
        case Byte.openBrace:
            try enterContainer()
            var next = try skipWhitespace()
            if next == Byte.closeBrace {
                scanner.pos += 1
                depth -= 1
                return
            }
            while true {
                guard next == Byte.quote else { throw expectedKey(next) }
                _ = try readString(keep: false)
                try expectColon()
                try skipValue()
                guard try continueContainer(closing: Byte.closeBrace, after: "an object member") else { return }
                next = try skipWhitespace()
            }
        case Byte.openBracket:
            try enterContainer()
            let next = try skipWhitespace()
            if next == Byte.closeBracket {
                scanner.pos += 1
                depth -= 1
                return
            }
            try skipArrayElements()
        case Byte.minus, Byte.zero...Byte.nine:
            _ = try readNumber(keep: false)
        case Byte.t, Byte.f, Byte.n:
            _ = try readLiteral(first)
        default:
            throw expected("a value", found: first)
        }
    }

    /// Inside a non-empty array being skipped, at its first element: skips to after `]`.
    private mutating func skipArrayElements() throws(ImportError) {
        while true {
            try skipValue()
            guard try continueContainer(closing: Byte.closeBracket, after: "an array element") else { return }
        }
    }

    // MARK: - Tokens

    /// After a member or an element: consumes `,` (true: another one follows) or the closing
    /// bracket (false: the container ended). A trailing comma or anything else is an error.
    private mutating func continueContainer(closing: UInt8, after what: String) throws(ImportError) -> Bool {
        var next = try skipWhitespace()
        if next == Byte.comma {
            let comma = (line: scanner.line, column: scanner.column(at: scanner.pos))
            scanner.pos += 1
            next = try skipWhitespace()
            if next == closing { throw trailingComma(at: comma) }
            return true
        }
        if next == closing {
            scanner.pos += 1
            depth -= 1
            return false
        }
        throw expected("',' or '\(closing == Byte.closeBrace ? "}" : "]")' after \(what)", found: next)
    }

    /// Skips JSON whitespace; returns the next byte (not consumed), or nil at the end.
    @inline(__always)
    private mutating func skipWhitespace() throws(ImportError) -> UInt8? {
        while true {
            let i = scanner.scan(
                countsLines: true, isPlain: { _ in false },
                isStop: { !Byte.isWhitespace($0) })
            if i < scanner.end { return scanner.bytes[i] }
            if try !scanner.fill() { return nil }
        }
    }

    /// At a container's opening bracket: counts the depth and consumes the bracket.
    @inline(__always)
    private mutating func enterContainer() throws(ImportError) {
        depth += 1
        if depth > Self.maxDepth {
            throw scanner.error(.tooLarge, "nesting deeper than \(Self.maxDepth) levels", at: scanner.pos)
        }
        scanner.pos += 1
    }

    private mutating func expectColon() throws(ImportError) {
        let next = try skipWhitespace()
        guard next == Byte.colon else { throw expected("':' after an object key", found: next) }
        scanner.pos += 1
    }

    /// At `"`: reads a string, decoding escapes. With `keep == false` only validates.
    private mutating func readString(keep: Bool) throws(ImportError) -> String {
        let open = scanner.location(at: scanner.pos)
        scanner.pos += 1
        scanner.mark = scanner.pos
        var escaped = false
        if keep { scratch.removeAll(keepingCapacity: true) }
        while true {
            let i = scanner.scan(
                isPlain: {
                    !ByteWords.contains($0, Byte.quote) && !ByteWords.contains($0, Byte.backslash)
                        && !ByteWords.containsByte($0, below: 0x20)
                },
                isStop: { $0 == Byte.quote || $0 == Byte.backslash || $0 < 0x20 })
            let bytes = scanner.bytes
            let end = scanner.end
            let stop: UInt8 = i < end ? bytes[i] : 0
            if i == end {
                if try !scanner.fill() {
                    scanner.mark = -1
                    throw ImportError(.malformed, "unterminated string (it starts here)", at: open)
                }
                continue
            }
            if stop == Byte.quote {
                let result: String
                if !keep {
                    result = ""
                } else if escaped {
                    scratch.append(
                        contentsOf: UnsafeBufferPointer(start: bytes + scanner.mark, count: i - scanner.mark))
                    result = String(decoding: scratch, as: UTF8.self)
                } else {
                    result = scanner.string(from: scanner.mark, to: i)
                }
                scanner.pos = i + 1
                scanner.mark = -1
                return result
            }
            if stop != Byte.backslash {
                let what =
                    stop == Byte.lineFeed
                    ? "unescaped line break in a string"
                    : "unescaped control character U+00\(UTF8Validation.hex(stop).dropFirst(2)) in a string"
                scanner.mark = -1
                throw scanner.error(.malformed, what, at: i)
            }
            // An escape: move the raw run before it into the scratch buffer.
            if keep {
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + scanner.mark, count: i - scanner.mark))
            }
            escaped = true
            scanner.mark = scanner.pos
            try readEscape(keep: keep)
            scanner.mark = scanner.pos
        }
    }

    /// At `\`: decodes one escape into `scratch` and moves past it (the rules are ``JSONLexis``').
    private mutating func readEscape(keep: Bool) throws(ImportError) {
        // `mark` is the backslash; it stays valid (and is adjusted) across refills.
        guard try scanner.ensure(2) else { throw unexpectedEnd("inside a string") }
        let kind = scanner.bytes[scanner.pos + 1]
        if let simple = JSONLexis.simpleEscape(kind) {
            if keep { scratch.append(simple) }
            scanner.pos += 2
            return
        }
        guard kind == Byte.u else {
            let shown: String
            if kind < 0x20 || kind >= 0x80 {
                shown = "\\ followed by byte \(UTF8Validation.hex(kind))"
            } else {
                shown = "\\" + String(UnicodeScalar(kind))
            }
            throw scanner.error(.malformed, "invalid escape sequence \(shown) in a string", at: scanner.mark)
        }
        let unit = try readHexEscape()
        var scalar: UInt32 = unit
        switch JSONLexis.surrogate(unit) {
        case .high:
            // A high surrogate must be followed by an escaped low surrogate.
            let afterHigh = scanner.pos
            var low: UInt32?
            if try scanner.ensure(2), scanner.bytes[scanner.pos] == Byte.backslash,
                scanner.bytes[scanner.pos + 1] == Byte.u
            {
                let candidate = try readHexEscape()
                if JSONLexis.surrogate(candidate) == .low { low = candidate }
            }
            guard let low else {
                scanner.pos = afterHigh
                throw scanner.error(
                    .malformed, "lone surrogate \\u\(hex4(unit)) (a high surrogate needs a low one after it)",
                    at: scanner.mark)
            }
            scalar = JSONLexis.scalar(high: unit, low: low)
        case .low:
            throw scanner.error(
                .malformed, "lone surrogate \\u\(hex4(unit)) (a low surrogate without a high one)", at: scanner.mark)
        case nil:
            break
        }
        if keep { JSONLexis.appendUTF8(scalar, to: &scratch) }
    }

    /// At `\u`: reads the four hex digits and moves past them.
    private mutating func readHexEscape() throws(ImportError) -> UInt32 {
        guard try scanner.ensure(6) else {
            throw scanner.error(.malformed, "incomplete \\u escape: four hex digits expected", at: scanner.mark)
        }
        guard case .unit(let value) = JSONLexis.hex4(scanner.bytes + scanner.pos + 2) else {
            throw scanner.error(.malformed, "invalid \\u escape: four hex digits expected", at: scanner.mark)
        }
        scanner.pos += 6
        return value
    }

    /// At `-` or a digit: reads a number per RFC 8259 (``JSONLexis/scanNumber(_:)``) and returns
    /// its literal text.
    private mutating func readNumber(keep: Bool) throws(ImportError) -> String {
        scanner.mark = scanner.pos
        defer { scanner.mark = -1 }
        switch try JSONLexis.scanNumber(&self) {
        case nil:
            break
        case .digitExpectedAfterMinus:
            throw scanner.error(.malformed, "invalid number: a digit must follow '-'", at: scanner.pos)
        case .leadingZero:
            throw scanner.error(.malformed, "invalid number: leading zeros are not allowed", at: scanner.pos - 1)
        case .digitExpectedAfterPoint:
            throw scanner.error(.malformed, "invalid number: a digit must follow the decimal point", at: scanner.pos)
        case .digitExpectedAfterExponent:
            throw scanner.error(.malformed, "invalid number: a digit must follow the exponent", at: scanner.pos)
        }
        if let next = try peek(), next == Byte.dot || JSONLexis.isIdentifierByte(next) {
            throw scanner.error(.malformed, "invalid number: unexpected \(describe(next))", at: scanner.pos)
        }
        return keep ? scanner.string(from: scanner.mark, to: scanner.pos) : ""
    }

    @inline(__always)
    private mutating func peek() throws(ImportError) -> UInt8? {
        if scanner.pos == scanner.end, try !scanner.fill() { return nil }
        return scanner.bytes[scanner.pos]
    }

    /// At `t`, `f` or `n`: reads `true`, `false` or `null`.
    private mutating func readLiteral(_ first: UInt8) throws(ImportError) -> String {
        let word = JSONLexis.literal(startingWith: first) ?? "null"
        let length = word.utf8CodeUnitCount
        let complete = try scanner.ensure(length)
        var matches = complete
        if complete {
            for k in 0..<length where scanner.bytes[scanner.pos + k] != word.utf8Start[k] {
                matches = false
                break
            }
        }
        if matches, try scanner.ensure(length + 1), JSONLexis.isIdentifierByte(scanner.bytes[scanner.pos + length]) {
            matches = false
        }
        guard matches else {
            throw scanner.error(.malformed, "invalid literal: expected \(word)", at: scanner.pos)
        }
        scanner.pos += length
        return String(describing: word)
    }

    // MARK: - Errors

    /// "'x'", "end of input", … for messages.
    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the input" }
        switch byte {
        case Byte.quote: return "a string"
        case Byte.openBrace: return "an object"
        case Byte.openBracket: return "an array"
        case Byte.t, Byte.f: return "a boolean"
        case Byte.n: return "null"
        case Byte.minus, Byte.zero...Byte.nine: return "a number"
        case 0x21...0x7E: return "'\(String(UnicodeScalar(byte)))'"
        default: return "byte \(UTF8Validation.hex(byte))"
        }
    }

    private func expected(_ what: String, found: UInt8?) -> ImportError {
        if found == nil { return unexpectedEnd("where \(what) was expected") }
        let shown: String
        if let found, found >= 0x21, found <= 0x7E {
            shown = "'\(String(UnicodeScalar(found)))'"
        } else if let found, found >= 0x80 {
            // A non-ASCII character outside a string: show it whole.
            shown = "'\(scanner.string(from: scanner.pos, to: min(scanner.end, scanner.pos + utf8Length(found))))'"
        } else {
            shown = "byte \(UTF8Validation.hex(found ?? 0))"
        }
        return scanner.error(.malformed, "expected \(what), found \(shown)", at: scanner.pos)
    }

    private func utf8Length(_ lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    private func expectedKey(_ found: UInt8?) -> ImportError {
        if found == nil { return unexpectedEnd("inside an object") }
        return expected("a string key", found: found)
    }

    private func unexpectedEnd(_ context: String) -> ImportError {
        scanner.error(.malformed, "unexpected end of input \(context)", at: scanner.pos)
    }

    /// The error for a comma (at `position`) followed by a closing bracket.
    private func trailingComma(at position: (line: Int, column: Int)) -> ImportError {
        let location = SourceLocation(source: scanner.sourceName, line: position.line, column: position.column)
        return ImportError(.malformed, "trailing comma", at: location)
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension JSONParser: JSONByteCursor {
    /// The byte at the scanner, refilling its buffer (the number being read is marked, so it stays).
    mutating func peekByte() throws(ImportError) -> UInt8? { try peek() }

    mutating func advance() { scanner.pos += 1 }
}
