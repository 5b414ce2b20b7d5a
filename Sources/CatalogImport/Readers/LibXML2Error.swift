import CatalogModel

/// Messages for libxml2's error numbers.
///
/// libxml2's structured errors carry an `xmlParserErrors` number and an English message written
/// for developers; the common numbers are explained here in terms a user can act on. Numbers are
/// from libxml2's `xmlerror.h`.
enum LibXML2Error {
    /// Whether `code` is a warning or a namespace complaint that does not stop the parse.
    ///
    /// Names keep their prefix as written: a prefix without a declaration (`a:b`, 201) or an odd
    /// qualified name (202, 205) is kept as part of the name.
    static func isIgnorable(_ code: Int) -> Bool {
        switch code {
        case 27,  // undeclared entity (warning form; the entity reference is refused elsewhere)
            93, 97, 98, 99, 100, 102, 106, 107,  // warnings
            201, 202, 205:  // namespace: undeclared prefix, bad QName, colon in name
            return true
        default:
            return false
        }
    }

    /// The error for `code` at `location`.
    ///
    /// - Parameters:
    ///   - openElement: the innermost element still open, for mismatch and premature-end messages.
    ///   - rootClosed: whether the root element has ended (code 5 then means trailing content).
    static func importError(
        code: Int, at location: SourceLocation, openElement: String?, rootClosed: Bool
    ) -> ImportError {
        let message: String
        switch code {
        case 1:
            // libxml2's "internal error", in practice "Huge input lookup": it buffered 10 MB looking
            // for the end of a construct, typically the ';' after an unescaped '&'.
            message = "malformed XML near here (an unescaped '&' or '<'? libxml2 error 1)"
        case 4:
            message = "no root element: the document must start with an element ('<' expected)"
        case 5:
            if rootClosed {
                message = "extra content after the end of the root element"
            } else if let openElement {
                message = "premature end of the document: <\(openElement)> is not closed"
            } else {
                message = "premature end of the document"
            }
        case 6, 7, 8:
            message = "invalid character reference"
        case 9:
            message = "invalid character (not allowed in XML; control characters cannot appear even escaped)"
        case 10, 14:
            message = "reference at the end of the document"
        case 11, 12, 15, 16:
            message = "reference outside the root element"
        case 22, 68:
            message = "name expected (an unescaped '&' or '<' in text? write &amp; or &lt;)"
        case 23:
            message = "entity reference without ';' (an unescaped '&'? write &amp;)"
        case 26, 27:
            message = "reference to an undeclared entity"
        case 31, 32:
            message = "unsupported encoding; only UTF-8 is supported"
        case 33, 34, 43, 44:
            message = "unterminated or unquoted literal"
        case 38:
            message = "'<' in an attribute value (write &lt;)"
        case 39:
            message = "attribute value without quotes"
        case 40:
            message = "unterminated attribute value"
        case 41:
            message = "attribute without a value"
        case 42:
            message = "attribute given twice"
        case 45:
            message = "unterminated comment"
        case 46, 47:
            message = "unterminated processing instruction"
        case 56, 57:
            message = "malformed XML declaration"
        case 61:
            message = "unterminated DOCTYPE declaration"
        case 62:
            message = "']]>' in text (write ]]&gt;)"
        case 63:
            message = "unterminated CDATA section"
        case 64:
            message = "misplaced XML declaration (it must be at the very start)"
        case 65:
            message = "whitespace required"
        case 73:
            message = "'>' expected: unfinished tag"
        case 74:
            message = "'</' expected"
        case 76:
            if let openElement {
                message = "mismatched end tag: expected </\(openElement)>"
            } else {
                message = "mismatched end tag"
            }
        case 77:
            message = "unfinished tag"
        case 80:
            message = "'--' inside a comment"
        case 85:
            message = "the document is not well-balanced"
        case 86:
            message = "extra content at the end of the document"
        case 89:
            message = "entity reference loop"
        case 96:
            message = "the XML declaration has no version"
        case 110:
            message = "name too long"
        default:
            message = "malformed XML (libxml2 error \(code))"
        }
        return ImportError(.malformed, message, at: location)
    }
}
