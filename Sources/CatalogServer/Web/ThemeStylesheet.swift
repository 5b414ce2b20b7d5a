import CatalogModel
import Foundation

/// A catalog's stylesheet of its own: every other row in its tint (the music-software app's sage
/// green), with text colors chosen so that titles, subtitles and prices keep a contrast of at
/// least 4.5:1 on the tint; under `prefers-color-scheme: dark` a darkened tint on which the light
/// text has the contrast the dark text has on the tint in the light scheme.
enum ThemeStylesheet {
    static func css(tint: RowTint) -> String {
        let light = [tint.red, tint.green, tint.blue]
        let lightText = textColor(on: light)
        let lightMuted = muted(text: lightText, on: light, minimum: 4.6, step: 0.05)
        let dark = darkVariant(of: light)
        // The dark subtitle keeps (at least) the light one's contrast too.
        let darkMuted = muted(
            text: dark.text, on: dark.background, minimum: max(4.6, contrast(lightMuted, light)), step: 0.01)
        return """
            \(rules(background: light, text: lightText, muted: lightMuted))\
            @media (prefers-color-scheme: dark) {
            \(rules(background: dark.background, text: dark.text, muted: darkMuted))\
            }

            """
    }

    /// The tint for the dark scheme: the same hue darkened just enough that light text on it has
    /// at least the contrast the light scheme's text has on the tint itself (a light tint would
    /// glare among dark rows). A tint that is dark already keeps its own colors.
    static func darkVariant(of tint: [Int]) -> (background: [Int], text: [Int]) {
        let lightText = textColor(on: tint)
        guard lightText == darkText else { return (tint, lightText) }
        let target = contrast(lightText, tint)
        for step in 0...200 {
            let factor = 1 - Double(step) / 200
            let candidate = tint.map { Int((Double($0) * factor).rounded()) }
            if contrast(lightOnDark, candidate) >= target { return (candidate, lightOnDark) }
        }
        return ([0, 0, 0], lightOnDark)
    }

    /// The page's text colors: near black in the light scheme, near white in the dark one.
    static let darkText = [17, 17, 20]
    static let lightOnDark = [242, 242, 247]

    /// Dark or white text, whichever stands out more on `background`.
    static func textColor(on background: [Int]) -> [Int] {
        contrast(darkText, background) >= contrast([255, 255, 255], background) ? darkText : [255, 255, 255]
    }

    /// The subtitle's color: as far from the text color towards the background as `minimum` allows.
    static func muted(text: [Int], on background: [Int], minimum: Double, step: Double) -> [Int] {
        for mix in stride(from: 0.6, through: 0.0, by: -step) {
            let candidate = zip(text, background).map { Int((Double($0) * (1 - mix) + Double($1) * mix).rounded()) }
            if contrast(candidate, background) >= minimum { return candidate }
        }
        return text
    }

    /// The rules for tinted rows on `background` with `text` and the subtitle in `muted`.
    static func rules(background: [Int], text: [Int], muted: [Int]) -> String {
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
