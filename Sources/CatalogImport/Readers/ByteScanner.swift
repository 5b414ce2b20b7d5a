import CatalogModel

/// The chunked, validated byte window the JSON and CSV tokenizers run over.
///
/// Bytes are read in 64 KiB chunks into one reusable buffer. Only bytes that are known to be
/// valid UTF-8 are exposed (`bytes[pos..<end]`); an invalid sequence ends the window, and asking
/// for more (``fill()``) throws an `.encoding` error at its exact line and column.
///
/// Tokenizers move `pos` themselves. They keep line and column right by calling
/// ``newline(at:)`` for every line feed they pass and by adding every UTF-8 continuation byte
/// they pass to `lineContinuations`, so a column counts Unicode scalars, not bytes. A token
/// that must stay contiguous across a refill sets `mark` to its first byte; the bytes from
/// `mark` on survive ``fill()`` (indices shift, `mark` and `pos` are adjusted).
struct ByteScanner {
    /// Bytes asked of the source per read.
    static let chunkSize = 64 * 1024
    /// The longest single token (string, cell, number) a reader accepts.
    static let maxTokenBytes = 64 * 1024 * 1024

    private let source: ByteSource
    private let storage: ScanBuffer
    /// The buffer; valid, readable bytes are `bytes[pos..<end]`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    /// The next byte to look at.
    var pos = 0
    /// One past the last validated byte.
    private(set) var end = 0
    /// One past the last byte read (the bytes after `end` wait for validation).
    private var filled = 0
    /// The first byte of a token in progress that must stay in the buffer, or -1.
    var mark = -1
    /// The input offset of `bytes[0]`.
    private(set) var base: Int64 = 0
    /// The current line, where it starts, and the continuation bytes passed on it.
    private(set) var position = LinePosition()
    /// The current 1-based line.
    var line: Int { position.line }
    /// UTF-8 continuation bytes passed on the current line (so columns count scalars).
    var lineContinuations: Int {
        get { position.continuations }
        set { position.continuations = newValue }
    }
    /// Name of the input for error locations.
    let sourceName: String

    private var atEnd = false
    private var started = false
    private var invalidAt: Int?
    private let progress: ((Int64) -> Void)?
    private var nextProgress: Int64 = 0

    /// Creates a scanner over `source`; nothing is read until ``fill()``.
    init(source: ByteSource, progress: ((Int64) -> Void)?) {
        self.source = source
        self.storage = ScanBuffer(capacity: Self.chunkSize)
        self.bytes = storage.pointer
        self.sourceName = source.name
        self.progress = progress
    }

    /// The 1-based column of `bytes[index]`, valid when every continuation byte before it on
    /// this line has been counted.
    @inline(__always)
    func column(at index: Int) -> Int {
        position.column(atOffset: base + Int64(index))
    }

    /// The location of `bytes[index]`.
    func location(at index: Int) -> SourceLocation {
        SourceLocation(source: sourceName, line: line, column: column(at: index))
    }

    /// Records the line feed at `bytes[index]`.
    @inline(__always)
    mutating func newline(at index: Int) {
        position.newline(atOffset: base + Int64(index))
    }

    /// The byte-scan loop every tokenizer runs: moves `pos` forward to the first byte `isStop`
    /// accepts, or to `end`, skipping eight bytes at a time while `isPlain` says a word holds no
    /// byte of interest, and counting the UTF-8 continuation bytes passed (and, with
    /// `countsLines`, the line feeds, which then must not be stop bytes).
    ///
    /// - Returns: the new `pos`: a stop byte's index, or `end`.
    @inline(__always)
    mutating func scan(
        countsLines: Bool = false, isPlain: (UInt64) -> Bool, isStop: (UInt8) -> Bool
    ) -> Int {
        let bytes = self.bytes
        let end = self.end
        var i = pos
        var continuations = 0
        scan: while i < end {
            if i + 8 <= end {
                let word = ByteWords.load(bytes + i)
                if isPlain(word) {
                    continuations += ByteWords.continuationCount(word)
                    i += 8
                    continue
                }
            }
            let limit = min(i + 8, end)
            while i < limit {
                let b = bytes[i]
                if isStop(b) { break scan }
                if countsLines && b == 0x0A {
                    newline(at: i)
                    continuations = 0
                } else if b & 0xC0 == 0x80 {
                    continuations += 1
                }
                i += 1
            }
        }
        position.continuations += continuations
        pos = i
        return i
    }

    /// The bytes `bytes[from..<to]` as a string (already validated).
    @inline(__always)
    func string(from: Int, to: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + from, count: to - from), as: UTF8.self)
    }

    /// An error at `bytes[index]`.
    func error(_ code: ImportError.Code, _ message: String, at index: Int, field: String? = nil) -> ImportError {
        ImportError(code, message, at: location(at: index), field: field)
    }

    /// Makes more validated bytes available after `end`.
    ///
    /// - Returns: `false` at the end of the input.
    /// - Throws: `.encoding` when the input is not UTF-8 (at the offending byte), `.io` when
    ///   reading fails, `.tooLarge` when a marked token outgrows ``maxTokenBytes``.
    mutating func fill() throws(ImportError) -> Bool {
        if let invalidAt { throw encodingError(at: invalidAt) }
        if atEnd { return false }
        compact()
        let oldEnd = end
        while true {
            if filled == storage.capacity { try grow() }
            let count = try source.read(into: bytes + filled, count: storage.capacity - filled)
            if count == 0 {
                atEnd = true
                reportProgress(final: true)
                if !started { try start() }
                if filled > end {
                    invalidAt = end
                    throw encodingError(at: end)
                }
                return end > oldEnd
            }
            filled += count
            reportProgress(final: false)
            if !started {
                if filled < 4 { continue }
                try start()
            }
            validate()
            if end > oldEnd { return true }
            if let invalidAt { throw encodingError(at: invalidAt) }
        }
    }

    /// Makes at least `count` bytes available from `pos` if the input has them.
    ///
    /// - Returns: whether `end - pos >= count`.
    @inline(__always)
    mutating func ensure(_ count: Int) throws(ImportError) -> Bool {
        while end - pos < count {
            if try !fill() { return false }
        }
        return true
    }

    /// The total number of input bytes read so far.
    var bytesRead: Int64 { base + Int64(filled) }

    // MARK: - Internals

    /// Looks at the first bytes: rejects UTF-16/32 byte order marks, skips the UTF-8 one.
    private mutating func start() throws(ImportError) {
        started = true
        let skip = try UTF8Validation.checkStart(bytes, count: filled, source: sourceName)
        pos = skip
        end = skip
        position.lineStart = Int64(skip)
        validate()
    }

    /// Extends `end` over newly read bytes that are valid UTF-8.
    private mutating func validate() {
        guard invalidAt == nil, filled > end else { return }
        switch UTF8Validation.validate(bytes + end, count: filled - end) {
        case .valid:
            end = filled
        case .incomplete(let offset):
            end += offset
        case .invalid(let offset):
            end += offset
            invalidAt = end
        }
    }

    /// Drops the bytes before `mark` (or `pos`) so the next read has room.
    private mutating func compact() {
        let keep = mark >= 0 ? min(mark, pos) : pos
        guard keep > 0 else { return }
        let remaining = filled - keep
        if remaining > 0 { (bytes).update(from: bytes + keep, count: remaining) }
        base += Int64(keep)
        pos -= keep
        end -= keep
        filled -= keep
        if mark >= 0 { mark -= keep }
    }

    /// Doubles the buffer for a token longer than it, up to ``maxTokenBytes``.
    private mutating func grow() throws(ImportError) {
        let capacity = storage.capacity
        guard capacity < Self.maxTokenBytes + Self.chunkSize else {
            let at = mark >= 0 ? mark : pos
            let limit = Self.maxTokenBytes / (1024 * 1024)
            throw error(.tooLarge, "a single value is longer than \(limit) MiB", at: at)
        }
        storage.resize(to: capacity * 2, keeping: filled)
        bytes = storage.pointer
    }

    private mutating func reportProgress(final: Bool) {
        guard let progress else { return }
        let read = bytesRead
        if final || read >= nextProgress {
            progress(read)
            nextProgress = read + Int64(Self.chunkSize)
        }
    }

    /// The `.encoding` error for the invalid (or truncated) sequence at `bytes[index]`.
    private func encodingError(at index: Int) -> ImportError {
        // Walk from `pos` to the bad byte to find its line and column.
        var position = self.position
        position.pass(bytes, from: pos, to: index, base: base)
        let line = position.line
        let column = position.column(atOffset: base + Int64(index))
        let message =
            index < filled
            ? UTF8Validation.describeInvalid(bytes + index, available: filled - index)
            : "truncated UTF-8 sequence at the end of the input"
        return ImportError(.encoding, message, at: SourceLocation(source: sourceName, line: line, column: column))
    }
}

/// Owns the scanner's buffer memory and frees it in `deinit`.
private final class ScanBuffer {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        self.pointer = .allocate(capacity: capacity)
    }

    func resize(to newCapacity: Int, keeping count: Int) {
        let newPointer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newPointer.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = newPointer
        capacity = newCapacity
    }

    deinit { pointer.deallocate() }
}
