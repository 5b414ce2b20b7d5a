import Foundation

/// Simple geometric flags (3 : 2) for the countries the demo products come from and other flags of
/// plain shapes; complex flags (the United States, the United Kingdom, Canada) are deliberately
/// simplified. Every other ISO 3166-1 country gets a clear badge with its code.
enum SVGFlag {
    /// The code in dark letters on a light badge: a flag we do not draw, still clear at 20 px.
    private static func badge(_ code: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 30 20\" width=\"30\" height=\"20\">"
            + "<rect x=\".5\" y=\".5\" width=\"29\" height=\"19\" rx=\"3\" fill=\"#E8EAED\" stroke=\"#5F6368\"/>"
            + "<text x=\"15\" y=\"14.5\" text-anchor=\"middle\" font-family=\"DejaVu Sans, Arial, sans-serif\" "
            + "font-size=\"12\" font-weight=\"700\" fill=\"#202124\">\(code.uppercased())</text></svg>"
    }

    /// A five-pointed star of outer radius `r` around (`x`, `y`).
    private static func star(_ x: Double, _ y: Double, _ r: Double, fill: String) -> String {
        var points: [String] = []
        for index in 0..<10 {
            let radius = index % 2 == 0 ? r : r * 0.382
            let angle = -Double.pi / 2 + Double(index) * Double.pi / 5
            points.append("\(rounded(x + radius * cos(angle))),\(rounded(y + radius * sin(angle)))")
        }
        return "<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(fill)\"/>"
    }

    private static func circle(_ x: Double, _ y: Double, _ r: Double, _ fill: String) -> String {
        "<circle cx=\"\(rounded(x))\" cy=\"\(rounded(y))\" r=\"\(rounded(r))\" fill=\"\(fill)\"/>"
    }
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

    /// The flag of `code` (ISO 3166 alpha-2, lowercase); a badge with the code for codes we do not draw.
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
        case "nl": return horizontal("#AE1C28", "#FFF", "#21468B")
        case "ru": return horizontal("#FFF", "#0039A6", "#D52B1E")
        case "bg": return horizontal("#FFF", "#00966E", "#D62612")
        case "lt": return horizontal("#FDB913", "#006A44", "#C1272D")
        case "ee": return horizontal("#0072CE", "#000", "#FFF")
        case "ye": return horizontal("#CE1126", "#FFF", "#000")
        case "be": return vertical("#000", "#FDDA24", "#EF3340")
        case "ie": return vertical("#169B62", "#FFF", "#FF883E")
        case "ro": return vertical("#002B7F", "#FCD116", "#CE1126")
        case "ng": return vertical("#008751", "#FFF", "#008751")
        case "ci": return vertical("#F77F00", "#FFF", "#009E60")
        case "ml": return vertical("#14B53A", "#FCD116", "#CE1126")
        case "pe": return vertical("#D91023", "#FFF", "#D91023")
        case "fi": return nordicCross(field: "#FFF", cross: "#002F6C")
        case "dk": return nordicCross(field: "#C8102E", cross: "#FFF")
        case "pl":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#DC143C\"/><rect width=\"30\" height=\"10\" fill=\"#FFF\"/>")
        case "ua":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FFD700\"/><rect width=\"30\" height=\"10\" fill=\"#0057B7\"/>"
            )
        case "id", "mc":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FFF\"/><rect width=\"30\" height=\"10\" fill=\"#CE1126\"/>")
        case "no":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#BA0C2F\"/>"
                    + "<rect x=\"8\" width=\"6\" height=\"20\" fill=\"#FFF\"/><rect y=\"7\" width=\"30\" height=\"6\" fill=\"#FFF\"/>"
                    + "<rect x=\"9.5\" width=\"3\" height=\"20\" fill=\"#00205B\"/><rect y=\"8.5\" width=\"30\" height=\"3\" fill=\"#00205B\"/>"
            )
        case "mx":
            return vertical("#006847", "#FFF", "#CE1126").replacingOccurrences(
                of: "<rect x=\".25\"", with: circle(15, 10, 2.6, "#8C5A2B") + "<rect x=\".25\"")
        case "ar":
            return horizontal("#74ACDF", "#FFF", "#74ACDF").replacingOccurrences(
                of: "<rect x=\".25\"", with: circle(15, 10, 2.2, "#F6B40E") + "<rect x=\".25\"")
        case "in":
            return horizontal("#FF9933", "#FFF", "#138808").replacingOccurrences(
                of: "<rect x=\".25\"",
                with: "<circle cx=\"15\" cy=\"10\" r=\"2.4\" fill=\"none\" stroke=\"#000080\" stroke-width=\".8\"/>"
                    + "<rect x=\".25\"")
        case "cn":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#EE1C25\"/>" + star(5, 5, 3, fill: "#FFFF00")
                    + star(10, 2, 1, fill: "#FFFF00") + star(12, 4, 1, fill: "#FFFF00")
                    + star(12, 7, 1, fill: "#FFFF00")
                    + star(10, 9, 1, fill: "#FFFF00"))
        case "vn":
            return document("<rect width=\"30\" height=\"20\" fill=\"#DA251D\"/>" + star(15, 10.5, 6, fill: "#FFFF00"))
        case "tr":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#E30A17\"/>" + circle(11, 10, 5, "#FFF")
                    + circle(12.3, 10, 4, "#E30A17")
                    + star(17.3, 10, 2.5, fill: "#FFF"))
        case "tw":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FE0000\"/><rect width=\"15\" height=\"10\" fill=\"#000095\"/>"
                    + circle(7.5, 5, 2.6, "#FFF"))
        case "pt":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FF0000\"/><rect width=\"12\" height=\"20\" fill=\"#006600\"/>"
                    + circle(12, 10, 3.5, "#FFCC00") + circle(12, 10, 2.2, "#FF0000"))
        case "br":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#009C3B\"/><polygon points=\"15,2.5 27,10 15,17.5 3,10\" fill=\"#FFDF00\"/>"
                    + circle(15, 10, 4, "#002776"))
        case "kr":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#FFF\"/>" + circle(15, 10, 5, "#CD2E3A")
                    + "<path d=\"M10 10a5 5 0 0 0 10 0a2.5 2.5 0 0 0-5 0a2.5 2.5 0 0 1-5 0z\" fill=\"#0047A0\"/>")
        case "bd":
            return document("<rect width=\"30\" height=\"20\" fill=\"#006A4E\"/>" + circle(13.5, 10, 6, "#F42A41"))
        case "pw":
            return document("<rect width=\"30\" height=\"20\" fill=\"#4AADD6\"/>" + circle(13, 10, 5.5, "#FFDE00"))
        case "cl":
            return document(
                "<rect width=\"30\" height=\"20\" fill=\"#D52B1E\"/><rect width=\"30\" height=\"10\" fill=\"#FFF\"/>"
                    + "<rect width=\"10\" height=\"10\" fill=\"#0039A6\"/>" + star(5, 5, 2.5, fill: "#FFF"))
        case "gr":
            var body = "<rect width=\"30\" height=\"20\" fill=\"#0D5EAF\"/>"
            for index in stride(from: 1, to: 9, by: 2) {
                body +=
                    "<rect y=\"\(rounded(Double(index) * 20 / 9))\" width=\"30\" height=\"\(rounded(20.0 / 9))\" fill=\"#FFF\"/>"
            }
            body += "<rect width=\"11.1\" height=\"11.1\" fill=\"#0D5EAF\"/>"
            body +=
                "<rect x=\"4.44\" width=\"2.22\" height=\"11.1\" fill=\"#FFF\"/><rect y=\"4.44\" width=\"11.1\" height=\"2.22\" fill=\"#FFF\"/>"
            return document(body)
        default:
            return badge(code)
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
