import CatalogModel
import Foundation

/// The bytes ``XMLRecordReader`` feeds to libxml2's push parser.
///
/// It reads the file (or `Data`) in chunks and checks every byte before libxml2 sees it:
/// - the input must be UTF-8: a UTF-16/UTF-32 byte order mark, an invalid sequence or a NUL byte
///   stops the stream with an `.encoding` error at the exact line and column;
/// - the prolog must not declare entities, nor an encoding other than UTF-8
///   (see ``XMLPrologScanner``): the declaration is withheld and the stream stops with
///   `.forbidden` (or `.encoding`).
///
/// After a failure `read` returns -1; the reader then throws ``failure``. Columns count Unicode
/// scalars from 1 (a leading UTF-8 BOM is not counted). An instance serves one parse, on one
/// thread.
final class XMLInputStream {
    private let source: ByteSource
    private let progress: ((Int64) -> Void)?
    private let sourceName: String
    private var prolog = XMLPrologScanner()
    /// Why the stream stopped early, if it did.
    private(set) var failure: ImportError?
    /// A failure found in the current chunk, raised on the next read (after the good bytes).
    private var pendingFailure: ImportError?
    /// The bytes of a UTF-8 sequence the previous read cut off.
    private var carry: [UInt8] = []
    private var started = false
    private var atEnd = false
    private var position = LinePosition()
    /// Input offset of the next byte to hand on.
    private var offset: Int64 = 0
    private var bytesRead: Int64 = 0

    /// Whether anything but whitespace appeared before the root element (or there is a root).
    var sawContent: Bool { prolog.sawContent }

    /// Creates a stream over `source`; `progress` is called with the bytes read after each read.
    init(source: ByteSource, progress: ((Int64) -> Void)?) {
        self.source = source
        self.progress = progress
        self.sourceName = source.name
    }

    /// Reads up to `maxLength` checked bytes into `buffer`.
    ///
    /// - Returns: the number of bytes, 0 at the end of the input, -1 after a failure (see
    ///   ``failure``).
    func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        if failure != nil { return -1 }
        if let pendingFailure {
            failure = pendingFailure
            return -1
        }
        do {
            while true {
                let count = try fill(buffer, maxLength: maxLength)
                if count > 0 { return count }
                if let pendingFailure {
                    failure = pendingFailure
                    return -1
                }
                if atEnd { return 0 }
            }
        } catch {
            failure = error
            return -1
        }
    }

    /// Reads into `buffer` and returns how many checked bytes it holds for the parser (0 when
    /// the read only completed part of a sequence, or at the end).
    private func fill(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) throws(ImportError) -> Int {
        var count = carry.count
        for (k, byte) in carry.enumerated() { buffer[k] = byte }
        carry.removeAll(keepingCapacity: true)
        while true {
            let n = atEnd ? 0 : try source.read(into: buffer + count, count: maxLength - count)
            bytesRead += Int64(n)
            if n == 0 {
                if !atEnd { progress?(bytesRead) }
                atEnd = true
                if !started { try start(buffer, count: count) }
                break
            }
            progress?(bytesRead)
            count += n
            if !started {
                if count < 4 { continue }
                try start(buffer, count: count)
            }
            break
        }
        var deliver = count
        var invalidAt: Int?
        var truncated = false
        switch UTF8Validation.validate(buffer, count: count) {
        case .valid:
            break
        case .incomplete(let index):
            if atEnd {
                invalidAt = index
                truncated = true
            } else {
                carry.append(contentsOf: UnsafeBufferPointer(start: buffer + index, count: count - index))
            }
            deliver = index
        case .invalid(let index):
            invalidAt = index
            deliver = index
        }
        let checked = track(buffer, count: deliver)
        if checked == deliver, let invalidAt {
            let column = position.column(atOffset: offset + Int64(invalidAt))
            let message =
                truncated
                ? "truncated UTF-8 sequence at the end of the input"
                : UTF8Validation.describeInvalid(buffer + invalidAt, available: count - invalidAt)
            pendingFailure = ImportError(
                .encoding, message, at: SourceLocation(source: sourceName, line: position.line, column: column))
        }
        offset += Int64(checked)
        return checked
    }

    /// Checks the byte order mark.
    private func start(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ImportError) {
        started = true
        position.lineStart = Int64(try UTF8Validation.checkStart(buffer, count: count, source: sourceName))
    }

    /// Runs the prolog scanner and the line count over `buffer[0..<count]` (the BOM excluded).
    ///
    /// - Returns: how many bytes may go to the parser (fewer when the prolog scanner refused
    ///   something; ``pendingFailure`` then says what).
    private func track(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        // At offset 0, `lineStart` is 3 after a UTF-8 byte order mark: skip it.
        var i = offset == 0 ? Int(position.lineStart) : 0
        while i < count, !prolog.isDone {
            let byte = buffer[i]
            let at = offset + Int64(i)
            if let finding = prolog.feed(byte, line: position.line, column: position.column(atOffset: at)) {
                pendingFailure = failure(for: finding)
                return i
            }
            position.pass(byte, atOffset: at)
            i += 1
        }
        // After the prolog only lines matter.
        position.pass(buffer, from: i, to: count, base: offset)
        return count
    }

    private func failure(for finding: XMLPrologScanner.Finding) -> ImportError {
        switch finding {
        case .entityDeclaration(let line, let column):
            return ImportError(
                .forbidden, "DTD entity declarations are not allowed",
                at: SourceLocation(source: sourceName, line: line, column: column))
        case .foreignEncoding(let encoding, let line, let column):
            return ImportError(
                .encoding, "the XML declaration names encoding \"\(encoding)\"; only UTF-8 is supported",
                at: SourceLocation(source: sourceName, line: line, column: column))
        }
    }
}
