/// A `Range: bytes=…` request header (RFC 9110 §14), as a server that sends one part answers it:
/// a single range is honoured, anything else is answered with the whole representation.
///
/// ```swift
/// ByteRange.select("bytes=100-", size: 1000)   // .part(100..<1000)
/// ByteRange.select("bytes=-10", size: 1000)    // .part(990..<1000)
/// ByteRange.select("bytes=2000-", size: 1000)  // .unsatisfiable
/// ```
public enum ByteRange: Equatable, Sendable {
    /// Send everything (no range, a malformed one, or several).
    case whole
    /// Send these bytes with 206 and `Content-Range`.
    case part(Range<UInt64>)
    /// 416 with `Content-Range: bytes */size`: the range starts beyond the end.
    case unsatisfiable

    /// What to send of a representation of `size` bytes for the `Range` header `header`.
    public static func select(_ header: String?, size: UInt64) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.strippingBlanks()
        guard trimmed.lowercased().hasPrefix("bytes="), trimmed.utf8.count <= 200 else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).strippingBlanks()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].strippingBlanks()
        let last = spec[spec.index(after: dash)...].strippingBlanks()
        func number(_ text: String) -> UInt64? {
            guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return UInt64(text)
        }
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part((size - min(suffix, size))..<size)
        }
        guard let start = number(first) else { return .whole }
        var end = size
        if !last.isEmpty {
            guard let inclusive = number(last), inclusive >= start else { return .whole }
            end = min(size, inclusive &+ 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(start..<end)
    }

    /// The `Content-Range` value of a part: `bytes 100-999/1000`.
    public static func contentRange(_ part: Range<UInt64>, size: UInt64) -> String {
        "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    fileprivate func strippingBlanks() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
