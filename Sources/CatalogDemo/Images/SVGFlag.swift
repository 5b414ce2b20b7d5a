/// Simple geometric flags (3 : 2) for the countries the demo products come from. Complex flags (the
/// United States, the United Kingdom, Canada) are deliberately simplified.
enum SVGFlag {
    /// The flag's shapes with a faint outline, so white fields stay visible on a white row.
    private static func document(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 30 20\" width=\"30\" height=\"20\">\(body)"
            + "<rect x=\".25\" y=\".25\" width=\"29.5\" height=\"19.5\" fill=\"none\" stroke=\"#000\" stroke-opacity=\".15\" stroke-width=\".5\"/></svg>"
    }

    private static func horizontal(_ top: String, _ middle: String, _ bottom: String, middleHeight: Double = 20.0 / 3)
        -> String
    {
        let edge = (20 - middleHeight) / 2
        return document(
            "<rect width=\"30\" height=\"20\" fill=\"\(middle)\"/><rect width=\"30\" height=\"\(edge)\" fill=\"\(top)\"/>"
                + "<rect y=\"\(edge + middleHeight)\" width=\"30\" height=\"\(edge)\" fill=\"\(bottom)\"/>")
    }

    private static func vertical(_ left: String, _ middle: String, _ right: String, middleWidth: Double = 10) -> String
    {
        let edge = (30 - middleWidth) / 2
        return document(
            "<rect width=\"30\" height=\"20\" fill=\"\(middle)\"/><rect width=\"\(edge)\" height=\"20\" fill=\"\(left)\"/>"
                + "<rect x=\"\(edge + middleWidth)\" width=\"\(edge)\" height=\"20\" fill=\"\(right)\"/>")
    }

    private static func nordicCross(field: String, cross: String) -> String {
        document(
            "<rect width=\"30\" height=\"20\" fill=\"\(field)\"/>"
                + "<rect x=\"9\" width=\"4\" height=\"20\" fill=\"\(cross)\"/><rect y=\"8\" width=\"30\" height=\"4\" fill=\"\(cross)\"/>"
        )
    }

    /// The flag of `code` (ISO 3166 alpha-2, lowercase); a plain grey field for codes we do not draw.
    static func svg(for code: String) -> String {
        switch code {
        case "de": return horizontal("#000", "#D00", "#FFCE00")
        case "hu": return horizontal("#CE2939", "#FFF", "#477050")
        case "at": return horizontal("#C8102E", "#FFF", "#C8102E")
        case "es": return horizontal("#AA151B", "#F1BF00", "#AA151B", middleHeight: 10)
        case "fr": return vertical("#002395", "#FFF", "#ED2939")
        case "it": return vertical("#009246", "#FFF", "#CE2B37")
        case "jp":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FFF\"/><circle cx=\"15\" cy=\"10\" r=\"6\" fill=\"#BC002D\"/>"
            )
        case "se": return nordicCross(field: "#006AA7", cross: "#FECC00")
        case "ch":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#DA291C\"/>"
                    + "<rect x=\"13\" y=\"4\" width=\"4\" height=\"12\" fill=\"#FFF\"/><rect x=\"9\" y=\"8\" width=\"12\" height=\"4\" fill=\"#FFF\"/>"
            )
        case "gb":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#012169\"/>"
                    + "<path d=\"M0 0L30 20M30 0L0 20\" stroke=\"#FFF\" stroke-width=\"4\"/>"
                    + "<path d=\"M0 0L30 20M30 0L0 20\" stroke=\"#C8102E\" stroke-width=\"1.3\"/>"
                    + "<path d=\"M15 0V20M0 10H30\" stroke=\"#FFF\" stroke-width=\"6\"/>"
                    + "<path d=\"M15 0V20M0 10H30\" stroke=\"#C8102E\" stroke-width=\"3.4\"/>")
        case "us":
            var body = "<rect width=\"30\" height=\"20\" fill=\"#FFF\"/>"
            let stripe = 20.0 / 13
            for index in stride(from: 0, to: 13, by: 2) {
                body +=
                    "<rect y=\"\(rounded(Double(index) * stripe))\" width=\"30\" height=\"\(rounded(stripe))\" fill=\"#B22234\"/>"
            }
            body += "<rect width=\"12\" height=\"\(rounded(stripe * 7))\" fill=\"#3C3B6E\"/><g fill=\"#FFF\">"
            for row in 0..<4 {
                for column in 0..<4 {
                    body +=
                        "<circle cx=\"\(rounded(1.8 + Double(column) * 2.8))\" cy=\"\(rounded(1.6 + Double(row) * 2.5))\" r=\".55\"/>"
                }
            }
            return document(body + "</g>")
        case "ca":
            let leaf =
                "15,3 16.5,6 18.5,5.2 18,8.5 21,7.5 20.5,9.5 22,10.5 18.5,12.8 19,14.3 15.6,13.6 15.6,17 "
                + "14.4,17 14.4,13.6 11,14.3 11.5,12.8 8,10.5 9.5,9.5 9,7.5 12,8.5 11.5,5.2 13.5,6"
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FFF\"/><rect width=\"7.5\" height=\"20\" fill=\"#D52B1E\"/>"
                    + "<rect x=\"22.5\" width=\"7.5\" height=\"20\" fill=\"#D52B1E\"/>"
                    + "<polygon points=\"\(leaf)\" fill=\"#D52B1E\"/>")
        default:
            return document("<rect width=\"30\" height=\"20\" fill=\"#CCC\"/>")
        }
    }

    /// Two decimals at most, for compact path data.
    private static func rounded(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
