/// How a field's value reads as a number or a date, and the bytes that put values in order:
/// the one rule the index, filters, facets and sorting share on every engine and offline.
///
/// A value is a number when it is written as one (`130`, `-1.5`, `2e3`, with a dot, no
/// grouping), and a date when it is an ISO 8601 date or date and time (`2024-05-01`,
/// `2024-05-01T12:30`, `2024-05-01T12:30:15.5Z`, `2024-05-01 12:30+02:00`); a date without a
/// time is its midnight UTC, a time without a zone is UTC. Years alone (`1970`) are numbers.
///
/// ```swift
/// FieldValueOrder.number("1.50")         // 1.5
/// FieldValueOrder.date("1970-01-02")     // 86400
/// FieldValueOrder.sortable(-1) < FieldValueOrder.sortable(2)  // true, byte by byte
/// ```
public enum FieldValueOrder {
    /// The longest value, in UTF-8 bytes, that the index keeps for equality and facets; longer
    /// texts are searched as words only.
    public static let maxValueBytes = 100

    /// How a value is compared for equality and an exact match: its folded words one space apart
    /// (`"St. Gallen"` and `"st gallen"` are the same value), or, without words, the folded text.
    public static func valueKey(_ value: String) -> String {
        let words = TextFolding.words(value)
        return words.isEmpty ? TextFolding.fold(value) : words.joined(separator: " ")
    }

    /// The number `text` writes, or nil.
    public static func number(_ text: String) -> Double? {
        let utf8 = text.utf8
        guard let first = utf8.first, utf8.count <= 40 else { return nil }
        // Only plain decimal notation: no "inf", "nan", hexadecimal or leading "+".
        guard first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 0x30 && first <= 0x39) else {
            return nil
        }
        var sawDigit = false
        for byte in utf8 {
            switch byte {
            case 0x30...0x39: sawDigit = true
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The date `text` writes, in seconds since 1970-01-01T00:00:00Z, or nil.
    public static func date(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 10, b.count <= 40 else { return nil }
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var value = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            i += n
            return value
        }
        func expect(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(daysFromEpoch(year: year, month: month, day: day)) * 86_400
        guard i < b.count else { return seconds }
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), hour < 24, expect(":"), let minute = digits(2), minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if expect(":") {
            guard let second = digits(2), second < 61 else { return nil }
            seconds += Double(second)
            if expect(".") || expect(",") {
                var scale = 0.1
                var any = false
                while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                    seconds += Double(b[i] - 0x30) * scale
                    scale /= 10
                    any = true
                    i += 1
                }
                guard any else { return nil }
            }
        }
        guard i < b.count else { return seconds }
        if expect("Z") || expect("z") { return i == b.count ? seconds : nil }
        let sign: Double
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let zoneHour = digits(2), zoneHour < 24 else { return nil }
        _ = expect(":")
        guard let zoneMinute = digits(2), zoneMinute < 60, i == b.count else { return nil }
        return seconds - sign * Double(zoneHour * 3600 + zoneMinute * 60)
    }

    /// Eight bytes whose byte order is the order of the numbers (negative before positive, -0 as 0).
    public static func sortable(_ value: Double) -> [UInt8] {
        let ordered = sortableBits(value)
        return (0..<8).map { UInt8(truncatingIfNeeded: ordered >> (56 - 8 * UInt64($0))) }
    }

    /// The bytes of ``sortable(_:)`` as one number, most significant first: numbers compare as
    /// these do.
    @inlinable
    public static func sortableBits(_ value: Double) -> UInt64 {
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return value < 0 ? ~bits : bits | (1 << 63)
    }

    /// The number ``sortable(_:)`` wrote, or nil when `bytes` are not eight.
    public static func value(sortable bytes: some Collection<UInt8>) -> Double? {
        guard bytes.count == 8 else { return nil }
        let ordered = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let bits = ordered & (1 << 63) != 0 ? ordered & ~(1 << 63) : ~ordered
        return Double(bitPattern: bits)
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
