import CatalogClient
import Foundation
import Testing

@testable import CatalogTerminal

/// Subtitles and highlights stay readable on both row colours: measured from the escape
/// sequences the renderer sends, as a terminal would show them (WCAG 2 contrast ratio).
@Suite struct ContrastTests {
    /// An sRGB colour.
    struct RGB: Equatable {
        var red: Int, green: Int, blue: Int

        /// WCAG relative luminance.
        var luminance: Double {
            func channel(_ value: Int) -> Double {
                let c = Double(value) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
        }

        /// The WCAG contrast ratio of two colours (1…21).
        static func contrast(_ a: RGB, _ b: RGB) -> Double {
            let (light, dark) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
            return (light + 0.05) / (dark + 0.05)
        }

        /// An xterm 256-colour palette entry (16–255; the first 16 are the theme's).
        static func xterm(_ index: Int) -> RGB? {
            if (16...231).contains(index) {
                let levels = [0, 95, 135, 175, 215, 255]
                let cube = index - 16
                return RGB(red: levels[cube / 36], green: levels[cube / 6 % 6], blue: levels[cube % 6])
            }
            if (232...255).contains(index) {
                let gray = 8 + 10 * (index - 232)
                return RGB(red: gray, green: gray, blue: gray)
            }
            return nil
        }
    }

    /// A run of text with the colours in force when it was drawn (nil: the terminal's own).
    struct Cell {
        var text: String
        var foreground: RGB?
        var background: RGB?
    }

    /// Reads one rendered line as a terminal does: SGR sequences set and reset colours, other
    /// text is drawn in the colours in force.
    static func cells(_ line: String) -> [Cell] {
        var cells: [Cell] = []
        var foreground: RGB?
        var background: RGB?
        var rest = Substring(line)
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}[") {
                let body = rest.dropFirst(2)
                guard let end = body.firstIndex(where: { $0.isLetter }) else { break }
                if body[end] == "m" {
                    var codes = body[..<end].split(separator: ";", omittingEmptySubsequences: false).map {
                        Int($0) ?? 0
                    }[...]
                    if codes.isEmpty { codes = [0] }
                    while let code = codes.popFirst() {
                        switch code {
                        case 0: (foreground, background) = (nil, nil)
                        case 38, 48:
                            var color: RGB?
                            if codes.first == 5 {
                                color = RGB.xterm(codes.dropFirst().first ?? 0)
                                codes = codes.dropFirst(2)
                            } else if codes.first == 2 {
                                let values = Array(codes.dropFirst().prefix(3))
                                color = RGB(red: values[0], green: values[1], blue: values[2])
                                codes = codes.dropFirst(4)
                            }
                            if code == 38 { foreground = color } else { background = color }
                        default: break
                        }
                    }
                }
                rest = body[body.index(after: end)...]
                continue
            }
            let end = rest.firstIndex(of: "\u{1B}") ?? rest.endIndex
            cells.append(Cell(text: String(rest[..<end]), foreground: foreground, background: background))
            rest = rest[end...]
        }
        return cells
    }

    /// A search's results: rows with a subtitle and a highlighted match, plain and tinted.
    static func state() -> BrowserState {
        var state = BrowserViewTests.state()
        var search = BrowserState.Search(line: LineEditor("tee"))
        search.results.replace(
            with: (0..<4).map { Record(id: "\($0)", title: "Kräutertee \($0)", subtitle: "Teehaus am Markt") },
            matches: (0..<4).map { _ in
                [MatchRange(field: "title", start: 7, length: 3), MatchRange(field: "subtitle", start: 0, length: 3)]
            }, before: nil, after: nil)
        search.results.move(by: 3, height: 10)  // the last row selected, the first three plain, tinted, plain
        state.search = search
        return state
    }

    @Test(arguments: [ColorDepth.palette, .trueColor])
    func subtitlesAndMatchesKeepTheirContrastOnBothRowColours(_ depth: ColorDepth) throws {
        let output = BrowserView.frame(Self.state(), width: 80, height: 12).render(width: 80, height: 12, colors: depth)
        let lines = output.components(separatedBy: "\r\n")
        let rows = lines.filter { $0.contains("Kräuter") }
        #expect(rows.count == 4)
        var backgrounds: Set<[Int]> = []
        var measured = 0
        for row in rows.prefix(3) {
            // Every word on the row: the title, its match, the subtitle's match and the rest of it.
            for cell in Self.cells(row) where cell.text.contains(where: \.isLetter) {
                let foreground = try #require(cell.foreground, "\(cell.text) has the terminal's colour")
                let background = try #require(cell.background, "\(cell.text) is on the terminal's background")
                backgrounds.insert([background.red, background.green, background.blue])
                let ratio = RGB.contrast(foreground, background)
                #expect(ratio >= 4.5, "\(cell.text): \(ratio) at \(depth)")
                measured += 1
            }
        }
        #expect(backgrounds.count == 2, "both the tint and the plain rows")
        #expect(measured >= 9)
    }

    /// The measure tells readable from unreadable: grey 245 on the sage tint 144 (the colours before
    /// the paper) is far below 4.5:1, black on white is 21:1.
    @Test func theMeasureItself() throws {
        let grey = try #require(RGB.xterm(245))
        let sage = try #require(RGB.xterm(144))
        #expect(RGB.contrast(grey, sage) < 2)
        let ratio = RGB.contrast(RGB(red: 0, green: 0, blue: 0), RGB(red: 255, green: 255, blue: 255))
        #expect(abs(ratio - 21) < 0.01)
        #expect(
            RGB.xterm(16) == RGB(red: 0, green: 0, blue: 0) && RGB.xterm(231) == RGB(red: 255, green: 255, blue: 255))
        #expect(
            RGB.xterm(144) == RGB(red: 175, green: 175, blue: 135)
                && RGB.xterm(244) == RGB(red: 128, green: 128, blue: 128))
    }

    @Test(arguments: [ColorDepth.basic, .none])
    func noTintWhereTheColoursAreUnknown(_ depth: ColorDepth) {
        let output = BrowserView.frame(Self.state(), width: 80, height: 12).render(width: 80, height: 12, colors: depth)
        #expect(!output.contains("48;"))
        #expect(!output.contains("38;5;") && !output.contains("38;2;"))
    }

    @Test func theDepthComesFromTheEnvironment() {
        #expect(ColorDepth.detect(["TERM": "xterm-256color"]) == .palette)
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm"]) == .basic)
        #expect(ColorDepth.detect(["TERM": "linux", "COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
        #expect(ColorDepth.detect(["TERM": "dumb"]) == .none)
        #expect(ColorDepth.detect([:]) == .none)
    }
}
