import CatalogModel

/// The streaming RFC 4180 tokenizer and record builder behind ``CSVRecordReader``.
struct CSVParser {
    /// How a cell ended.
    private enum Terminator {
        case separator, endOfRow, endOfInput
    }

    private var scanner: ByteScanner
    private var separator: UInt8?
    private let comment: UInt8?
    private var headers: [String] = []
    /// Whether each column holds JSON values (its header ended in `:json`).
    private var jsonColumns: [Bool] = []
    private var scratch: [UInt8] = []
    /// Whether comment lines are kept while looking for the header.
    private var keepsComments = false
    /// The last comment line before the header, without its marker, and its line.
    private var lastComment: (bytes: [UInt8], line: Int)?

    /// The header suffix of a column whose cells are JSON values.
    static let jsonSuffix = ":json"

    init(scanner: ByteScanner, separator: UInt8?, comment: UInt8?) {
        self.scanner = scanner
        self.separator = separator
        self.comment = comment
    }

    /// Parses the header and every row, calling `fieldNames` with the header's names and `body`
    /// with each record.
    mutating func run(fieldNames: ([String]) -> Void, _ body: (SourceRecord) throws -> Void) throws {
        try skipEmbeddedDefinition()
        keepsComments = comment != nil
        defer { keepsComments = false }
        guard try skipBlankLines() else {
            throw ImportError(.empty, "no records found: the input is empty", at: scanner.location(at: scanner.pos))
        }
        let separator: UInt8
        if let given = self.separator { separator = given } else { separator = try detectSeparator() }
        self.separator = separator
        keepsComments = false
        let hasRows: Bool
        if let lastComment, try commentIsHeader(lastComment.bytes, separator: separator) {
            // tz's `#codes<TAB>coordinates<TAB>TZ<TAB>comments`: the first line is already data.
            try headerFromComment(lastComment, separator: separator)
            fieldNames(headers)
            hasRows = true
        } else {
            let headerEnd = try readHeader(separator: separator)
            fieldNames(headers)
            hasRows = try headerEnd != .endOfInput && skipBlankLines()
        }
        if !hasRows {
            throw ImportError(
                .empty, "no records found: the input has a header row but no data rows",
                at: SourceLocation(source: scanner.sourceName, line: 1, column: 1))
        }
        var fieldCapacity = headers.count
        var recordCount = 0
        while true {
            let location = SourceLocation(source: scanner.sourceName, line: scanner.line, column: 1)
            var fields: [SourceField] = []
            fields.reserveCapacity(fieldCapacity)
            var index = 0
            var terminator = Terminator.separator
            while terminator == .separator {
                guard index < headers.count else {
                    throw scanner.error(
                        .malformed,
                        "this row has more cells than the header's \(headers.count) column\(headers.count == 1 ? "" : "s")",
                        at: scanner.pos)
                }
                let cellLine = scanner.line
                let cellColumn = scanner.column(at: scanner.pos)
                let value: String?
                (value, terminator) = try readCell(separator: separator, field: headers[index])
                if let value {
                    let cellLocation = SourceLocation(source: scanner.sourceName, line: cellLine, column: cellColumn)
                    if jsonColumns[index] {
                        try appendJSON(value, name: headers[index], at: cellLocation, to: &fields)
                    } else {
                        fields.append(SourceField(name: headers[index], value: value, location: cellLocation))
                    }
                }
                index += 1
            }
            if !fields.isEmpty {
                fieldCapacity = max(fieldCapacity, fields.count)
                recordCount += 1
                try body(SourceRecord(fields: fields, location: location))
            }
            if try terminator == .endOfInput || !skipBlankLines() { break }
        }
        if recordCount == 0 {
            throw ImportError(
                .empty, "no records found: every data row is empty",
                at: SourceLocation(source: scanner.sourceName, line: 2, column: 1))
        }
    }

    // MARK: - Header

    /// Whether the last comment line before the first row is the header: it has several cells, and
    /// at least as many as the first row (rows may leave trailing cells out).
    private mutating func commentIsHeader(_ bytes: [UInt8], separator: UInt8) throws(ImportError) -> Bool {
        let cells = bytes.reduce(1) { $0 + ($1 == separator ? 1 : 0) }
        guard cells > 1 else { return false }
        let rowCells = try firstRowCells(separator: separator)
        return cells >= rowCells
    }

    /// The cells of the line at the scanner, counted without consuming it.
    private mutating func firstRowCells(separator: UInt8) throws(ImportError) -> Int {
        scanner.mark = scanner.pos
        defer { scanner.mark = -1 }
        var cells = 1
        var inQuotes = false
        var offset = 0
        while true {
            let index = scanner.mark + offset
            if index >= scanner.end {
                if try !scanner.fill() { break }
                continue
            }
            let byte = scanner.bytes[index]
            if byte == Byte.quote {
                inQuotes.toggle()
            } else if !inQuotes, byte == separator {
                cells += 1
            } else if !inQuotes, byte == Byte.lineFeed || byte == Byte.carriageReturn {
                break
            }
            offset += 1
        }
        return cells
    }

    /// Takes the header's names from a comment line (its cells split at the separator, unquoted).
    private mutating func headerFromComment(_ comment: (bytes: [UInt8], line: Int), separator: UInt8)
        throws(ImportError)
    {
        var seen: [String: Int] = [:]
        var column = 2  // after the comment character
        for cell in comment.bytes.split(separator: separator, omittingEmptySubsequences: false) {
            let name = String(decoding: cell, as: UTF8.self)
            let location = SourceLocation(source: scanner.sourceName, line: comment.line, column: column)
            let index = headers.count + 1
            if name.isEmpty {
                throw ImportError(.malformed, "empty column name in the header (column \(index))", at: location)
            }
            if let earlier = seen[name] {
                throw ImportError(
                    .malformed, "duplicate column name \"\(name)\" in the header (columns \(earlier) and \(index))",
                    at: location)
            }
            seen[name] = index
            headers.append(name)
            jsonColumns.append(false)
            column += name.unicodeScalars.count + 1
        }
    }

    /// Reads the header row into `headers`; returns how it ended.
    private mutating func readHeader(separator: UInt8) throws(ImportError) -> Terminator {
        var seen: [String: Int] = [:]
        var terminator = Terminator.separator
        while terminator == .separator {
            let start = scanner.location(at: scanner.pos)
            let value: String?
            (value, terminator) = try readCell(separator: separator, field: nil)
            let column = headers.count + 1
            guard let name = value else {
                throw ImportError(.malformed, "empty column name in the header (column \(column))", at: start)
            }
            if let earlier = seen[name] {
                throw ImportError(
                    .malformed, "duplicate column name \"\(name)\" in the header (columns \(earlier) and \(column))",
                    at: start)
            }
            seen[name] = column
            if name.hasSuffix(Self.jsonSuffix), name.count > Self.jsonSuffix.count {
                headers.append(String(name.dropLast(Self.jsonSuffix.count)))
                jsonColumns.append(true)
            } else {
                headers.append(name)
                jsonColumns.append(false)
            }
        }
        return terminator
    }

    /// A cell of a `:json` column: one value with its type, or a list's elements.
    private func appendJSON(_ text: String, name: String, at location: SourceLocation, to fields: inout [SourceField])
        throws(ImportError)
    {
        do {
            fields.append(
                contentsOf: SourceField.fields(name: name, value: try FieldValue(json: text), location: location))
        } catch {
            throw ImportError(
                .malformed, "the column holds JSON values, and this cell is not one (\(error.message))", at: location,
                field: name)
        }
    }

    /// Skips the first line when it is the definition `catalog export` writes (`#catalog-definition {…}`).
    private mutating func skipEmbeddedDefinition() throws(ImportError) {
        let marker = Array("#\(EmbeddedDefinition.marker) ".utf8)
        guard try scanner.ensure(marker.count) else { return }
        for (offset, byte) in marker.enumerated() where scanner.bytes[scanner.pos + offset] != byte { return }
        try skipLine()
    }

    /// At a comment character before the header: keeps the line (without the character and the
    /// spaces after it) as ``lastComment``, up to 64 KiB, and skips it.
    private mutating func keepCommentLine() throws(ImportError) {
        let line = scanner.line
        var bytes: [UInt8] = []
        scanner.pos += 1
        while true {
            if scanner.pos == scanner.end, try !scanner.fill() { break }
            let b = scanner.bytes[scanner.pos]
            if b == Byte.lineFeed || b == Byte.carriageReturn { break }
            if bytes.count < 65_536, !(bytes.isEmpty && b == 0x20) { bytes.append(b) }
            scanner.pos += 1
        }
        lastComment = (bytes, line)
        try skipLine()
    }

    /// Skips the rest of the current line, its line end included.
    private mutating func skipLine() throws(ImportError) {
        while true {
            if scanner.pos == scanner.end, try !scanner.fill() { return }
            let b = scanner.bytes[scanner.pos]
            if b == Byte.lineFeed {
                scanner.newline(at: scanner.pos)
                scanner.pos += 1
                return
            }
            if b == Byte.carriageReturn {
                try consumeCarriageReturn()
                return
            }
            scanner.pos += 1
        }
    }

    /// Picks `,`, `;` or TAB: whichever occurs most often outside quotes in the first line
    /// (ties in that order; `,` when none occurs). Reads ahead without consuming.
    private mutating func detectSeparator() throws(ImportError) -> UInt8 {
        scanner.mark = scanner.pos
        defer { scanner.mark = -1 }
        var commas = 0
        var semicolons = 0
        var tabs = 0
        var inQuotes = false
        var offset = 0
        scan: while true {
            let index = scanner.mark + offset
            if index >= scanner.end {
                if try !scanner.fill() { break }
                continue
            }
            switch scanner.bytes[index] {
            case Byte.quote: inQuotes.toggle()
            case Byte.comma where !inQuotes: commas += 1
            case Byte.semicolon where !inQuotes: semicolons += 1
            case Byte.tab where !inQuotes: tabs += 1
            case Byte.lineFeed where !inQuotes, Byte.carriageReturn where !inQuotes: break scan
            default: break
            }
            offset += 1
        }
        if semicolons > commas, semicolons >= tabs { return Byte.semicolon }
        if tabs > commas, tabs > semicolons { return Byte.tab }
        return Byte.comma
    }

    // MARK: - Cells

    /// Skips empty lines and comment lines; returns false at the end of the input.
    private mutating func skipBlankLines() throws(ImportError) -> Bool {
        while true {
            if scanner.pos == scanner.end, try !scanner.fill() { return false }
            let b = scanner.bytes[scanner.pos]
            if let comment, b == comment {
                if keepsComments {
                    try keepCommentLine()
                } else {
                    try skipLine()
                }
            } else if b == Byte.lineFeed {
                scanner.newline(at: scanner.pos)
                scanner.pos += 1
            } else if b == Byte.carriageReturn {
                try consumeCarriageReturn()
            } else {
                return true
            }
        }
    }

    /// At CR: consumes CR LF, or a lone CR (an old Mac line end), as one line end.
    @inline(__always)
    private mutating func consumeCarriageReturn() throws(ImportError) {
        scanner.pos += 1
        if try scanner.ensure(1), scanner.bytes[scanner.pos] == Byte.lineFeed {
            scanner.newline(at: scanner.pos)
            scanner.pos += 1
        } else {
            scanner.newline(at: scanner.pos - 1)
        }
    }

    /// Reads one cell and its terminator. An empty cell gives nil.
    @inline(__always)
    private mutating func readCell(separator: UInt8, field: String?) throws(ImportError) -> (String?, Terminator) {
        if scanner.pos == scanner.end, try !scanner.fill() { return (nil, .endOfInput) }
        if scanner.bytes[scanner.pos] == Byte.quote {
            return try readQuotedCell(separator: separator, field: field)
        }
        scanner.mark = scanner.pos
        defer { scanner.mark = -1 }
        while true {
            // Stops at a separator, quote, LF or CR (words with other control characters go byte by byte).
            let i = scanner.scan(
                isPlain: {
                    !ByteWords.contains($0, separator) && !ByteWords.contains($0, Byte.quote)
                        && !ByteWords.containsByte($0, below: 0x0E)
                },
                isStop: { $0 == separator || $0 == Byte.lineFeed || $0 == Byte.carriageReturn || $0 == Byte.quote })
            let bytes = scanner.bytes
            let end = scanner.end
            if i == end {
                if try !scanner.fill() {
                    return (cellValue(from: scanner.mark, to: scanner.pos), .endOfInput)
                }
                continue
            }
            let b = bytes[i]
            if b == Byte.quote {
                throw scanner.error(
                    .malformed, "quote inside an unquoted field (quote the whole field and double the quote)",
                    at: i, field: field)
            }
            let value = cellValue(from: scanner.mark, to: i)
            return (value, try consumeTerminator(separator: separator))
        }
    }

    @inline(__always)
    private func cellValue(from: Int, to: Int) -> String? {
        to > from ? scanner.string(from: from, to: to) : nil
    }

    /// At `"`: reads a quoted cell (doubled quotes, separators and line breaks inside).
    private mutating func readQuotedCell(separator: UInt8, field: String?) throws(ImportError) -> (String?, Terminator)
    {
        let open = scanner.location(at: scanner.pos)
        scanner.pos += 1
        scanner.mark = scanner.pos
        defer { scanner.mark = -1 }
        var usesScratch = false
        while true {
            let i = scanner.scan(
                countsLines: true,
                isPlain: { !ByteWords.contains($0, Byte.quote) && !ByteWords.contains($0, Byte.lineFeed) },
                isStop: { $0 == Byte.quote })
            let end = scanner.end
            if i == end {
                if try !scanner.fill() {
                    throw ImportError(
                        .malformed, "unterminated quoted field (the quote opens here)", at: open, field: field)
                }
                continue
            }
            // A quote: doubled (an escaped quote) or the closing one.
            if try scanner.ensure(2), scanner.bytes[scanner.pos + 1] == Byte.quote {
                if !usesScratch {
                    scratch.removeAll(keepingCapacity: true)
                    usesScratch = true
                }
                let from = scanner.mark
                scratch.append(
                    contentsOf: UnsafeBufferPointer(start: scanner.bytes + from, count: scanner.pos + 1 - from))
                scanner.pos += 2
                scanner.mark = scanner.pos
                continue
            }
            // A quoted cell is a value even when empty: `""` is the empty string, an unquoted
            // empty cell a missing value.
            let value: String?
            if usesScratch {
                scratch.append(
                    contentsOf: UnsafeBufferPointer(
                        start: scanner.bytes + scanner.mark, count: scanner.pos - scanner.mark))
                value = String(decoding: scratch, as: UTF8.self)
            } else {
                value = cellValue(from: scanner.mark, to: scanner.pos) ?? ""
            }
            scanner.pos += 1
            scanner.mark = -1
            if scanner.pos == scanner.end, try !scanner.fill() { return (value, .endOfInput) }
            let next = scanner.bytes[scanner.pos]
            guard next == separator || next == Byte.lineFeed || next == Byte.carriageReturn else {
                throw scanner.error(
                    .malformed, "unexpected character after the closing quote of a field", at: scanner.pos,
                    field: field)
            }
            return (value, try consumeTerminator(separator: separator))
        }
    }

    /// At a separator, LF or CR: consumes it.
    @inline(__always)
    private mutating func consumeTerminator(separator: UInt8) throws(ImportError) -> Terminator {
        let b = scanner.bytes[scanner.pos]
        if b == separator {
            scanner.pos += 1
            return .separator
        }
        if b == Byte.lineFeed {
            scanner.newline(at: scanner.pos)
            scanner.pos += 1
        } else {
            try consumeCarriageReturn()
        }
        return .endOfRow
    }
}
