import Foundation

/// Exact decimal numbers to and from text, fast for the short numbers prices are.
///
/// Foundation's `Decimal(string:locale:)` and `description` go through locale-aware parsing and
/// a general formatter, several microseconds each; a page of search results reads and writes
/// fifty prices. Numbers of up to 18 significant digits take a direct path here, anything else
/// falls back to Foundation, with the same results.
public enum DecimalText {
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Parses `-12.50`, `3`, `0.05` (a dot, no exponent, no grouping).
    public static func parse(_ text: String) -> Decimal? {
        var text = text
        let fast: Decimal?? = text.withUTF8 { bytes -> Decimal?? in
            var index = 0
            var negative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            var significand: UInt64 = 0
            var digits = 0
            var fraction = 0
            var sawDot = false
            var sawDigit = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "."), !sawDot {
                    sawDot = true
                } else if byte >= 0x30 && byte <= 0x39 {
                    sawDigit = true
                    if significand != 0 || byte != 0x30 { digits += 1 }
                    guard digits <= 18 else { return nil }
                    significand = significand * 10 + UInt64(byte - 0x30)
                    if sawDot { fraction += 1 }
                } else {
                    return .some(nil)
                }
                index += 1
            }
            guard sawDigit else { return .some(nil) }
            return .some(
                Decimal(
                    sign: negative && significand != 0 ? .minus : .plus, exponent: -fraction,
                    significand: Decimal(significand)))
        }
        if let fast { return fast }
        return Decimal(string: text, locale: posix)
    }

    /// The number as `description` writes it (`24.9`, `-0.05`, `1200`).
    public static func format(_ value: Decimal) -> String {
        guard !value.isNaN, !value.isZero else { return value.isZero ? "0" : value.description }
        // Prices have a handful of digits; a significand of 19 digits or more takes the general way.
        guard value.exponent > -19 && value.exponent < 19 else { return value.description }
        let significand = NSDecimalNumber(decimal: value.significand.magnitude)
        var mantissa = significand.uint64Value
        guard mantissa < 1_000_000_000_000_000_000, NSDecimalNumber(value: mantissa) == significand else {
            return value.description
        }
        var exponent = value.exponent
        while exponent < 0 && mantissa % 10 == 0 {
            mantissa /= 10
            exponent += 1
        }
        var digits = String(mantissa)
        if exponent > 0 {
            digits += String(repeating: "0", count: exponent)
        } else if exponent < 0 {
            let places = -exponent
            if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        }
        return value.sign == .minus ? "-" + digits : digits
    }
}
