import CatalogModel
import Foundation

/// A catalog's stylesheet of its own: every other row in its tint (the music-software app's sage
/// green), with text colors chosen so that titles, subtitles and prices keep a contrast of at
/// least 4.5:1 on the tint, in light and dark mode alike.
enum ThemeStylesheet {
    static func css(tint: RowTint) -> String {
        let background = [tint.red, tint.green, tint.blue]
        let text =
            contrast([17, 17, 20], background) >= contrast([255, 255, 255], background)
            ? [17, 17, 20] : [255, 255, 255]
        // The subtitle: as far from the text color towards the tint as 4.5:1 allows.
        var muted = text
        for step in stride(from: 0.6, through: 0.0, by: -0.05) {
            let candidate = zip(text, background).map { Int((Double($0) * (1 - step) + Double($1) * step).rounded()) }
            if contrast(candidate, background) >= 4.6 {
                muted = candidate
                break
            }
        }
        func rgb(_ color: [Int]) -> String { "rgb(\(color[0]),\(color[1]),\(color[2]))" }
        // Highlights stay light behind dark text (and dark behind light text) in both schemes.
        let mark = text[0] < 128 ? "#ffe27a" : "#7a6000"
        return """
            .row.alt, .rows > li.row.alt { background: \(rgb(background)); --text: \(rgb(text)); \
            --muted: \(rgb(muted)); --accent: \(rgb(text)); --mark: \(mark); color: \(rgb(text)); }
            .row.alt .row-link { color: \(rgb(text)); }
            .row.alt .subtitle { color: \(rgb(muted)); }

            """
    }

    /// WCAG's contrast ratio of two sRGB colors.
    static func contrast(_ a: [Int], _ b: [Int]) -> Double {
        let first = luminance(a)
        let second = luminance(b)
        return (max(first, second) + 0.05) / (min(first, second) + 0.05)
    }

    static func luminance(_ color: [Int]) -> Double {
        let channels = color.map { value -> Double in
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
}
