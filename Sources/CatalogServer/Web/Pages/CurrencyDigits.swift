/// How many fraction digits a price in a currency shows: CLDR's display digits (what ICU and
/// so `Intl.NumberFormat` use), not ISO 4217's minor unit, so a forint price reads `HUF 4,990`
/// rather than `HUF 4,990.00`.
///
/// ```swift
/// CurrencyDigits.fractionDigits(of: "HUF")  // 0
/// CurrencyDigits.fractionDigits(of: "EUR")  // 2
/// ```
enum CurrencyDigits {
    /// The currencies that differ from the usual two digits (CLDR `supplementalData`, `digits`).
    static let table: [String: Int] = {
        var table: [String: Int] = [:]
        for code in zero { table[code] = 0 }
        for code in three { table[code] = 3 }
        return table
    }()

    /// Currencies shown without fraction digits.
    private static let zero = [
        "AFN", "ALL", "BIF", "CLP", "COP", "DJF", "GNF", "HUF", "IDR", "IQD", "IRR", "ISK", "JPY", "KMF", "KPW", "KRW",
        "LAK", "LBP", "MGA", "MMK", "PKR", "PYG", "RWF", "SLL", "SOS", "SYP", "UGX", "VND", "VUV", "XAF", "XOF", "XPF",
        "YER",
    ]

    /// Currencies shown with three fraction digits.
    private static let three = ["BHD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The fraction digits of a price in `currency` (an ISO 4217 code); two for any code not in
    /// the table.
    static func fractionDigits(of currency: String) -> Int { table[currency] ?? 2 }
}
