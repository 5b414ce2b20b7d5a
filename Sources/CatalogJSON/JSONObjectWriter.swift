/// The members of one JSON object being written: each member call places the comma before it
/// and the key, so no call site spells `,"key":` itself.
///
/// ```swift
/// var output = JSONOutput()
/// output.object { object in
///     object.string("code", "not_found")
///     object.integer("count", 3)
///     object.member("items") { $0.strings(["a", "b"]) }
/// }
/// // {"code":"not_found","count":3,"items":["a","b"]}
/// ```
///
/// Members are written in the order of the calls: the API's shapes call them in sorted key order,
/// as `JSONEncoder` with `.sortedKeys` would write them.
public struct JSONObjectWriter {
    /// The document, the object's opening brace and members so far included.
    @usableFromInline var output: JSONOutput
    /// Whether no member has been written yet.
    @usableFromInline var isEmpty = true

    @usableFromInline
    init(output: JSONOutput) {
        self.output = output
    }

    /// Writes a member whose value `write` appends (exactly one JSON value).
    @inlinable
    public mutating func member(_ key: StaticString, _ write: (inout JSONOutput) throws -> Void) rethrows {
        separate()
        output.key(key)
        try write(&output)
    }

    /// Writes a member with a key known only at run time (escaped as any string is).
    @inlinable
    public mutating func member(named key: String, _ write: (inout JSONOutput) throws -> Void) rethrows {
        separate()
        output.string(key)
        output.raw(":")
        try write(&output)
    }

    /// Writes a string member, `null` when `value` is nil.
    @inlinable
    public mutating func string(_ key: StaticString, _ value: String?) {
        member(key) { $0.string(value) }
    }

    /// Writes an integer member, `null` when `value` is nil.
    @inlinable
    public mutating func integer(_ key: StaticString, _ value: Int?) {
        member(key) { $0.integer(value) }
    }

    /// Writes a `true`/`false` member.
    @inlinable
    public mutating func boolean(_ key: StaticString, _ value: Bool) {
        member(key) { $0.boolean(value) }
    }

    /// Writes an array-of-strings member.
    @inlinable
    public mutating func strings(_ key: StaticString, _ values: [String]) {
        member(key) { $0.strings(values) }
    }

    /// Writes a member whose value writes itself.
    @inlinable
    public mutating func value(_ key: StaticString, _ value: some JSONWritable) {
        member(key) { value.write(to: &$0) }
    }

    /// Writes a member whose value writes itself, `null` when `value` is nil.
    @inlinable
    public mutating func value(_ key: StaticString, _ value: (some JSONWritable)?) {
        member(key) { output in
            if let value { value.write(to: &output) } else { output.raw("null") }
        }
    }

    /// Writes an array member of values that write themselves.
    @inlinable
    public mutating func array<T: JSONWritable>(_ key: StaticString, _ values: [T]) {
        member(key) { $0.array(values) }
    }

    @inlinable
    mutating func separate() {
        if isEmpty {
            isEmpty = false
        } else {
            output.raw(",")
        }
    }
}

extension JSONOutput {
    /// Writes one object: `{`, the members `body` writes through the ``JSONObjectWriter`` (commas
    /// and keys placed for it), `}`.
    @inlinable
    public mutating func object(_ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        var writer = JSONObjectWriter(output: take())
        // Whatever happens in `body`, the document comes back (a thrown error leaves it unfinished).
        defer { self = writer.output }
        writer.output.raw("{")
        try body(&writer)
        writer.output.raw("}")
    }

    /// Writes one array: `[`, each of `elements` as `write` writes it, commas between, `]`.
    @inlinable
    public mutating func array<S: Sequence>(_ elements: S, _ write: (inout JSONOutput, S.Element) throws -> Void)
        rethrows
    {
        raw("[")
        var first = true
        for element in elements {
            if first { first = false } else { raw(",") }
            try write(&self, element)
        }
        raw("]")
    }

    /// The document so far, leaving this output empty: moved, so the writer appending to it next
    /// owns the only reference and the buffer is never copied.
    @usableFromInline
    mutating func take() -> JSONOutput {
        var taken = JSONOutput(capacity: 0)
        swap(&taken.bytes, &bytes)
        return taken
    }
}
