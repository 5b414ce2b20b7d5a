/// Reads the operations of a batch, or the records `catalog put` sends, from a body: a JSON
/// array, NDJSON lines, or (records only) one object, a record or an envelope of records. Each
/// element is skipped before it is read, so no more than one record's tree is held at a time.
struct BatchReader {
    /// Operations (`{"upsert": …}`, `{"delete": …}`) rather than records.
    let operations: Bool
    private var records: RecordBodyReader
    /// The changes read, in order.
    private(set) var changes: [RecordChange] = []
    /// The index of the element that first changed each id.
    private var firstChange: [String: Int] = [:]
    /// Elements begun so far.
    private var count = 0
    /// Set when the body has more operations than a batch may hold: nothing more is read.
    private var stopped = false
    /// The pointer of the element being read, for a syntax error inside it.
    private var current: String?

    init(definition: CatalogDefinition, operations: Bool) {
        self.operations = operations
        self.records = RecordBodyReader(definition: definition)
    }

    private var what: String { operations ? "operation" : "record" }

    /// Reads the whole body.
    mutating func read(_ whole: BodyBytes, problems: inout ProblemList) {
        guard let start = whole.checkedStart(problems: &problems) else { return }
        let bytes = whole.slice(start..<whole.buffer.count)
        let first = bytes.firstNonWhitespace()
        guard first < bytes.buffer.count else { return }
        switch bytes.buffer[first] {
        case 0x5B:
            var input = bytes.input()
            do {
                try elements(&input, in: bytes, under: "", problems: &problems)
                input.skipWhitespace()
                if input.index != bytes.buffer.count {
                    problems.add(
                        "", bytes.message(JSONInputError("unexpected content after the array", at: input.index)))
                }
            } catch {
                if !stopped { problems.add(current ?? "", bytes.message(error)) }
            }
        case 0x7B where operations || isNDJSON(bytes):
            lines(bytes, problems: &problems)
        case 0x7B:
            object(bytes, problems: &problems)
        default:
            problems.add(
                "",
                operations
                    ? "a batch must be a JSON array of operations or NDJSON (one operation object a line)"
                    : "records must be a JSON array, an object or NDJSON (one record a line)")
        }
    }

    // MARK: - Forms

    /// `[…]` at `input`: each element, its pointer `pointer/k`.
    private mutating func elements(
        _ input: inout JSONInput, in bytes: BodyBytes, under pointer: String, problems: inout ProblemList
    ) throws(JSONInputError) {
        try input.array { (input: inout JSONInput) throws(JSONInputError) in
            try element(&input, in: bytes, under: pointer, problems: &problems)
        }
    }

    /// NDJSON: one element a line, blank lines skipped; a line that is not JSON is reported and
    /// the next is read.
    private mutating func lines(_ bytes: BodyBytes, problems: inout ProblemList) {
        let buffer = bytes.buffer
        var start = 0
        while start < buffer.count, !stopped {
            var end = start
            while end < buffer.count, buffer[end] != 0x0A { end += 1 }
            let line = bytes.slice(start..<end)
            start = end + 1
            guard line.firstNonWhitespace() < line.buffer.count else { continue }
            let pointer = JSONPointer.appending("", count)
            var input = line.input()
            do {
                try element(&input, in: line, under: "", problems: &problems)
                input.skipWhitespace()
                if input.index != line.buffer.count {
                    problems.add(
                        pointer,
                        line.message(
                            JSONInputError("unexpected content after the \(what) (one a line)", at: input.index)))
                }
            } catch {
                if !stopped { problems.add(pointer, line.message(error)) }
            }
        }
    }

    /// Whether a body that starts with `{` is NDJSON rather than one object: its first line is a
    /// whole JSON value, and more follows.
    private func isNDJSON(_ bytes: BodyBytes) -> Bool {
        let buffer = bytes.buffer
        let first = bytes.firstNonWhitespace()
        var end = first
        while end < buffer.count, buffer[end] != 0x0A { end += 1 }
        let line = bytes.slice(first..<end)
        var input = line.input()
        do {
            try input.skipValue()
        } catch {
            return false
        }
        input.skipWhitespace()
        return input.index == line.buffer.count && bytes.firstNonWhitespace(from: end) < buffer.count
    }

    /// One object of records: an envelope whose `items` or `records` member is an array of
    /// objects (the first such member; the others are skipped), else one record.
    private mutating func object(_ bytes: BodyBytes, problems: inout ProblemList) {
        var envelope: String?
        var input = bytes.input()
        do {
            try input.object { (input: inout JSONInput, key: String) throws(JSONInputError) in
                if envelope == nil, key == "items" || key == "records", startsArrayOfObjects(bytes, at: input.index) {
                    envelope = key
                }
                try input.skipValue()
            }
            input.skipWhitespace()
            guard input.index == bytes.buffer.count else {
                problems.add("", bytes.message(JSONInputError("unexpected content after the object", at: input.index)))
                return
            }
        } catch {
            problems.add("", bytes.message(error))
            return
        }
        guard let envelope else {
            guard let node = bytes.document(limit: RecordChangeLimits.maxRecordBytes, at: "", problems: &problems),
                let read = records.read(node, at: "", shape: .detect, id: .derivable, problems: &problems)
            else { return }
            add(.upsert(read.record), at: read.idPointer, index: 0, problems: &problems)
            return
        }
        input = bytes.input()
        var done = false
        do {
            try input.object { (input: inout JSONInput, key: String) throws(JSONInputError) in
                guard key == envelope, !done else { return try input.skipValue() }
                done = true
                try elements(&input, in: bytes, under: JSONPointer.appending("", key), problems: &problems)
            }
        } catch {
            problems.add(current ?? "", bytes.message(error))
        }
    }

    /// Whether the value at `index` is an array whose first element is an object.
    private func startsArrayOfObjects(_ bytes: BodyBytes, at index: Int) -> Bool {
        let open = bytes.firstNonWhitespace(from: index)
        guard open < bytes.buffer.count, bytes.buffer[open] == 0x5B else { return false }
        let first = bytes.firstNonWhitespace(from: open + 1)
        return first < bytes.buffer.count && bytes.buffer[first] == 0x7B
    }

    // MARK: - Elements

    /// One element at `input`: an operation or a record, its pointer `pointer/k`.
    private mutating func element(
        _ input: inout JSONInput, in bytes: BodyBytes, under pointer: String, problems: inout ProblemList
    ) throws(JSONInputError) {
        if operations, count == RecordChangeLimits.maxOperations {
            problems.add("", "a batch holds at most \(RecordChangeLimits.maxOperations) operations")
            stopped = true
            throw JSONInputError("too many operations", at: input.index)
        }
        let index = count
        count += 1
        let at = JSONPointer.appending(pointer, index)
        current = at
        if operations {
            try operation(&input, in: bytes, at: at, index: index, problems: &problems)
        } else {
            switch try bytes.boundedNode(&input, limit: RecordChangeLimits.maxRecordBytes) {
            case .tooLarge(let size):
                problems.add(at, BodyBytes.tooLarge(size, limit: RecordChangeLimits.maxRecordBytes))
            case .node(let node):
                if let read = records.read(node, at: at, shape: .detect, id: .derivable, problems: &problems) {
                    add(.upsert(read.record), at: read.idPointer, index: index, problems: &problems)
                }
            }
        }
        current = nil
    }

    /// `{"upsert": RECORD}` or `{"delete": "ID"}`.
    private mutating func operation(
        _ input: inout JSONInput, in bytes: BodyBytes, at pointer: String, index: Int, problems: inout ProblemList
    ) throws(JSONInputError) {
        input.skipWhitespace()
        guard input.peekByte() == 0x7B else {
            try input.skipValue()
            problems.add(pointer, #"an operation must be an object: {"upsert": {…}} or {"delete": "ID"}"#)
            return
        }
        let limit = RecordChangeLimits.maxRecordBytes
        var upsert: BodyBytes.Bounded?
        var delete: BodyBytes.Bounded?
        try input.object { (input: inout JSONInput, key: String) throws(JSONInputError) in
            switch key {
            case "upsert" where upsert == nil: upsert = try bytes.boundedNode(&input, limit: limit)
            case "delete" where delete == nil: delete = try bytes.boundedNode(&input, limit: limit)
            case "upsert", "delete":
                problems.add(JSONPointer.appending(pointer, key), "\(RecordRules.quoted(key)) appears twice")
                try input.skipValue()
            default:
                problems.add(
                    JSONPointer.appending(pointer, key),
                    "unknown member \(RecordRules.quoted(key)): an operation has \"upsert\" or \"delete\"")
                try input.skipValue()
            }
        }
        switch (upsert, delete) {
        case (nil, nil):
            problems.add(pointer, #"an operation needs "upsert" or "delete""#)
        case (.some, .some):
            problems.add(pointer, #"an operation has "upsert" or "delete", not both"#)
        case (let upsert?, nil):
            let at = JSONPointer.appending(pointer, "upsert")
            switch upsert {
            case .tooLarge(let size):
                problems.add(at, BodyBytes.tooLarge(size, limit: limit))
            case .node(let node):
                if let read = records.read(node, at: at, shape: .detect, id: .required, problems: &problems) {
                    add(.upsert(read.record), at: read.idPointer, index: index, problems: &problems)
                }
            }
        case (nil, let delete?):
            let at = JSONPointer.appending(pointer, "delete")
            guard case .node(.string(let id)) = delete else {
                let kind = if case .node(let node) = delete { node.kind } else { "a large value" }
                problems.add(at, "delete must be an item id (a string), not \(kind)")
                return
            }
            let before = problems.count
            RecordRules.checkID(id, at: at, problems: &problems)
            if problems.count == before { add(.delete(id: id), at: at, index: index, problems: &problems) }
        }
    }

    /// Keeps a change, unless its id was changed before in the body.
    private mutating func add(_ change: RecordChange, at pointer: String, index: Int, problems: inout ProblemList) {
        if let first = firstChange[change.id] {
            problems.add(
                pointer,
                "id \(RecordRules.quoted(change.id)) is already \(operations ? "changed" : "used") by \(what) \(first)")
            return
        }
        firstChange[change.id] = index
        changes.append(change)
    }
}
