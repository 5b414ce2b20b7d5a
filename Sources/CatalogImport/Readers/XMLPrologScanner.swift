import Foundation

/// Watches the bytes of an XML document's prolog (everything before the root element) for what
/// the XML reader refuses, before libxml2 ever sees it:
///
/// - an entity declaration (`<!ENTITY …>`, general or parameter, internal or external), in the
///   DOCTYPE's internal subset or anywhere else in the prolog;
/// - an XML declaration naming an encoding other than UTF-8 (or its subset US-ASCII).
///
/// Comments, processing instructions and quoted literals are skipped, so `<!ENTITY` inside them
/// is not a declaration. Scanning stops at the root element's start tag: entity declarations
/// cannot occur after it. It is a byte-at-a-time state machine, so a construct may span reads.
struct XMLPrologScanner {
    /// What the scanner refuses.
    enum Finding: Equatable {
        /// `<!ENTITY` at this 1-based line and column (of its `<`).
        case entityDeclaration(line: Int, column: Int)
        /// The XML declaration (at this line and column) names this encoding.
        case foreignEncoding(String, line: Int, column: Int)
    }

    private enum State {
        case prolog
        case lessThan
        case bang
        case processingInstruction
        case comment
        case doctype
        case doctypeLiteral(UInt8)
        case subset
        case subsetLessThan
        case subsetBang
        case subsetDeclaration
        case subsetLiteral(UInt8)
        case subsetComment
        case subsetProcessingInstruction
        case afterSubset
    }

    /// Whether the root element has started (or the prolog is malformed): nothing more to watch.
    private(set) var isDone = false
    /// Whether anything but whitespace has been seen.
    private(set) var sawContent = false
    private var state = State.prolog
    private var keyword: [UInt8] = []
    /// The processing instruction being read (kept only for the XML declaration).
    private var instruction: [UInt8] = []
    private var markupLine = 0
    private var markupColumn = 0
    private var previous: UInt8 = 0
    private var beforePrevious: UInt8 = 0

    /// Looks at the next byte, which is at `line` and `column`.
    ///
    /// - Returns: what must be refused, if this byte completes it.
    mutating func feed(_ byte: UInt8, line: Int, column: Int) -> Finding? {
        defer {
            beforePrevious = previous
            previous = byte
        }
        if !Byte.isWhitespace(byte) { sawContent = true }
        switch state {
        case .prolog:
            if byte == 0x3C {  // <
                state = .lessThan
                markupLine = line
                markupColumn = column
            } else if !Byte.isWhitespace(byte) {
                isDone = true  // text before the root: libxml2 reports it
            }
        case .lessThan:
            if byte == 0x3F {  // ?
                state = .processingInstruction
                instruction.removeAll(keepingCapacity: true)
            } else if byte == 0x21 {  // !
                state = .bang
                keyword.removeAll(keepingCapacity: true)
            } else {
                isDone = true  // the root element's start tag
            }
        case .bang:
            keyword.append(byte)
            if keyword == Array("--".utf8) {
                state = .comment
                return nil
            }
            if keyword == Array("DOCTYPE".utf8) {
                state = .doctype
            } else if keyword == Array("ENTITY".utf8) {
                isDone = true
                return .entityDeclaration(line: markupLine, column: markupColumn)
            } else if keyword.count >= 7 {
                isDone = true  // not a prolog construct: libxml2 reports it
            }
        case .processingInstruction:
            if byte == 0x3E, previous == 0x3F {  // ?>
                state = .prolog
                if let encoding = declaredEncoding(), !Self.isUTF8(encoding) {
                    isDone = true
                    return .foreignEncoding(encoding, line: markupLine, column: markupColumn)
                }
            } else if instruction.count < 1024 {
                instruction.append(byte)
            }
        case .comment:
            if byte == 0x3E, previous == 0x2D, beforePrevious == 0x2D { state = .prolog }
        case .doctype:
            switch byte {
            case 0x22, 0x27: state = .doctypeLiteral(byte)
            case 0x5B: state = .subset  // [
            case 0x3E: state = .prolog
            default: break
            }
        case .doctypeLiteral(let quote):
            if byte == quote { state = .doctype }
        case .subset:
            switch byte {
            case 0x3C:
                state = .subsetLessThan
                markupLine = line
                markupColumn = column
            case 0x5D: state = .afterSubset  // ]
            default: break
            }
        case .subsetLessThan:
            if byte == 0x21 {
                state = .subsetBang
                keyword.removeAll(keepingCapacity: true)
            } else if byte == 0x3F {
                state = .subsetProcessingInstruction
            } else {
                state = .subset
            }
        case .subsetBang:
            keyword.append(byte)
            if keyword == Array("--".utf8) {
                state = .subsetComment
                return nil
            }
            if keyword == Array("ENTITY".utf8) {
                isDone = true
                return .entityDeclaration(line: markupLine, column: markupColumn)
            }
            if Byte.isWhitespace(byte) || keyword.count >= 8 {
                state = .subsetDeclaration
            }
        case .subsetDeclaration:
            switch byte {
            case 0x22, 0x27: state = .subsetLiteral(byte)
            case 0x3E: state = .subset
            default: break
            }
        case .subsetLiteral(let quote):
            if byte == quote { state = .subsetDeclaration }
        case .subsetComment:
            if byte == 0x3E, previous == 0x2D, beforePrevious == 0x2D { state = .subset }
        case .subsetProcessingInstruction:
            if byte == 0x3E, previous == 0x3F { state = .subset }
        case .afterSubset:
            if byte == 0x3E { state = .prolog }
        }
        return nil
    }

    /// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="…"?>`) just read.
    private func declaredEncoding() -> String? {
        let text = String(decoding: instruction, as: UTF8.self)
        guard text.hasPrefix("xml"), let first = text.dropFirst(3).first, first.isWhitespace else { return nil }
        guard let range = text.range(of: "encoding") else { return nil }
        var rest = text[range.upperBound...].drop { $0.isWhitespace }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return String(value)
    }

    private static func isUTF8(_ encoding: String) -> Bool {
        ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased())
    }
}
