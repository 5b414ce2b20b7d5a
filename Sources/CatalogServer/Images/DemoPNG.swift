import CGD
import Foundation
import Synchronization

/// The demo pictures as PNG, for clients that cannot show SVG (`UIImage` and `NSImage` on Apple
/// platforms, most image views elsewhere): `/images/demo/products/p001.png` beside
/// `/images/demo/products/p001.svg`, drawn from the same document.
///
/// The documents are our own (CatalogDemo's `DemoImages`), so this reads the part of SVG they
/// use and nothing more: `svg` (`viewBox`, `width`, `height`), `g`, `rect` (`rx`), `circle`,
/// `ellipse`, `polygon`, `path` (M, L, H, V, C, Q, A, Z, absolute and relative), one line of
/// `text` (`text-anchor`, `font-size`, bold); `fill`, `stroke`, `stroke-width`, `opacity`,
/// `fill-opacity`, `stroke-opacity`, and `transform` with `rotate`, `translate` and `scale`.
/// It is not a renderer for SVG from elsewhere: stored images are served as they are.
///
/// Each shape is drawn with libgd at ``supersampling`` times the size into a layer of its own,
/// laid over the picture with its opacity, and the picture is then scaled down: edges come out
/// smooth, and a translucent stroke is as even as in a browser. Text goes through libgd's
/// FreeType rendering with a bold sans-serif font found by fontconfig (DejaVu Sans on Debian);
/// without one, the picture is drawn without its text.
///
/// ```swift
/// let png = DemoPNG.png(path: "products/p001.svg", svg: DemoImages.files["products/p001.svg"]!)
/// ```
enum DemoPNG {
    /// The longest side of a picture, in pixels: twice the 64-point tile, for sharp rows on
    /// high-density screens.
    static let longestSide = 128
    /// How much larger shapes are drawn before the picture is scaled down.
    static let supersampling = 4

    /// Drawn pictures by SVG path; the demo pictures and flags are a fixed, small set.
    private static let drawn = Mutex<[String: [UInt8]]>([:])
    /// libgd's font cache is set up once, before any thread draws text.
    private static let fontCache: Bool = {
        _ = gdFTUseFontConfig(1)
        return gdFontCacheSetup() == 0
    }()

    /// The PNG of the demo picture `svg`, kept under `path` once drawn; nil if libgd fails.
    static func png(path: String, svg: String) -> [UInt8]? {
        if let known = drawn.withLock({ $0[path] }) { return known }
        guard let bytes = draw(svg) else { return nil }
        drawn.withLock { $0[path] = bytes }
        return bytes
    }

    /// Draws `svg` as a PNG whose longest side is ``longestSide`` pixels.
    static func draw(_ svg: String) -> [UInt8]? {
        let document = SVGDocument(svg)
        guard document.width > 0, document.height > 0 else { return nil }
        let scale = Double(longestSide) / max(document.width, document.height)
        let width = max(1, Int((document.width * scale).rounded()))
        let height = max(1, Int((document.height * scale).rounded()))
        let factor = Double(supersampling)
        guard let canvas = transparentImage(width * supersampling, height * supersampling) else { return nil }
        defer { gdImageDestroy(canvas) }
        gdImageAlphaBlending(canvas, 1)
        let toPixels = SVGTransform.scale(scale * factor).multiplied(by: document.viewBox)
        for shape in document.shapes {
            draw(shape, on: canvas, transform: toPixels.multiplied(by: shape.transform))
        }
        guard let picture = transparentImage(width, height) else { return nil }
        defer { gdImageDestroy(picture) }
        gdImageCopyResampled(
            picture, canvas, 0, 0, 0, 0, Int32(width), Int32(height), Int32(width * supersampling),
            Int32(height * supersampling))
        gdImageSaveAlpha(picture, 1)
        var size: Int32 = 0
        guard let output = gdImagePngPtr(picture, &size), size > 0 else { return nil }
        defer { gdFree(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: Int(size)))
    }

    /// A true-colour image of transparent pixels, its alpha kept.
    private static func transparentImage(_ width: Int, _ height: Int) -> gdImagePtr? {
        guard let image = gdImageCreateTrueColor(Int32(width), Int32(height)) else { return nil }
        gdImageAlphaBlending(image, 0)
        gdImageFilledRectangle(image, 0, 0, Int32(width - 1), Int32(height - 1), Color.transparent)
        gdImageSaveAlpha(image, 1)
        return image
    }

    /// Draws one shape: its fill and its stroke each into a layer, opaque, then laid over the
    /// canvas with the opacity they have.
    private static func draw(_ shape: SVGShape, on canvas: gdImagePtr, transform: SVGTransform) {
        let width = Int(cgd_width(canvas))
        let height = Int(cgd_height(canvas))
        let outlines = shape.outlines.map { outline in
            (points: outline.points.map { transform.apply($0) }, closed: outline.closed)
        }
        // The pixels a layer can cover: the outlines' box with room for a stroke; text anywhere.
        let margin = shape.style.strokeWidth * transform.lengthScale + 2
        let xs = outlines.flatMap { $0.points.map(\.x) }
        let ys = outlines.flatMap { $0.points.map(\.y) }
        let area =
            shape.text != nil || xs.isEmpty
            ? (x: 0..<width, y: 0..<height)
            : (
                x: max(0, Int(xs.min()! - margin))..<min(width, Int(xs.max()! + margin) + 1),
                y: max(0, Int(ys.min()! - margin))..<min(height, Int(ys.max()! + margin) + 1)
            )
        guard !area.x.isEmpty, !area.y.isEmpty else { return }
        if let fill = shape.style.fill, shape.style.fillOpacity * shape.style.opacity > 0 {
            layer(width, height, area, onto: canvas, opacity: shape.style.fillOpacity * shape.style.opacity) { image in
                let color = fill.opaque
                for outline in outlines where outline.points.count >= 3 {
                    var points = outline.points.map { gdPoint(x: Int32($0.x.rounded()), y: Int32($0.y.rounded())) }
                    gdImageFilledPolygon(image, &points, Int32(points.count), color)
                }
                if let text = shape.text { draw(text, on: image, transform: transform, color: color) }
            }
        }
        if let stroke = shape.style.stroke, shape.style.strokeOpacity * shape.style.opacity > 0 {
            let thickness = max(1, shape.style.strokeWidth * transform.lengthScale)
            layer(width, height, area, onto: canvas, opacity: shape.style.strokeOpacity * shape.style.opacity) {
                image in
                let color = stroke.opaque
                gdImageSetThickness(image, Int32(thickness.rounded()))
                let radius = Int32((thickness / 2).rounded())
                for outline in outlines where !outline.points.isEmpty {
                    var points = outline.points
                    if outline.closed, let first = points.first { points.append(first) }
                    for (from, to) in zip(points, points.dropFirst()) {
                        gdImageLine(
                            image, Int32(from.x.rounded()), Int32(from.y.rounded()), Int32(to.x.rounded()),
                            Int32(to.y.rounded()), color)
                    }
                    // Round joins and caps, as thick lines leave gaps at their corners.
                    gdImageSetThickness(image, 1)
                    for point in points {
                        gdImageFilledEllipse(
                            image, Int32(point.x.rounded()), Int32(point.y.rounded()), 2 * radius, 2 * radius, color)
                    }
                    gdImageSetThickness(image, Int32(thickness.rounded()))
                }
            }
        }
    }

    /// One line of text with its baseline at the text's place, anchored as it says.
    private static func draw(_ text: SVGText, on image: gdImagePtr, transform: SVGTransform, color: Int32) {
        guard fontCache, !text.content.isEmpty else { return }
        let place = transform.apply(text.origin)
        // libgd's sizes are points at 96 dots an inch.
        let points = text.fontSize * transform.lengthScale * 72 / 96
        let font = text.bold ? "DejaVu Sans:bold" : "DejaVu Sans"
        var box = [Int32](repeating: 0, count: 8)
        guard gdImageStringFT(nil, &box, color, font, points, 0, 0, 0, text.content) == nil else { return }
        let advance = Double(box[2] - box[0])
        let x = place.x - (text.anchor == "middle" ? advance / 2 : text.anchor == "end" ? advance : 0)
        _ = gdImageStringFT(
            image, &box, color, font, points, 0, Int32(x.rounded()), Int32(place.y.rounded()), text.content)
    }

    /// Draws into a transparent layer the canvas's size, then lays it over the canvas with
    /// `opacity`, pixel by pixel within `area` (what the drawing can cover).
    private static func layer(
        _ width: Int, _ height: Int, _ area: (x: Range<Int>, y: Range<Int>), onto canvas: gdImagePtr,
        opacity: Double, _ body: (gdImagePtr) -> Void
    ) {
        guard let image = transparentImage(width, height) else { return }
        defer { gdImageDestroy(image) }
        gdImageAlphaBlending(image, 1)
        body(image)
        let keep = max(0, min(1, opacity))
        for y in Int32(area.y.lowerBound)..<Int32(area.y.upperBound) {
            for x in Int32(area.x.lowerBound)..<Int32(area.x.upperBound) {
                let pixel = gdImageGetTrueColorPixel(image, x, y)
                let alpha = Int((pixel >> 24) & 0x7F)
                guard alpha < 127 else { continue }
                let coverage = Double(127 - alpha) / 127 * keep
                let blended = Int32(127 - Int((coverage * 127).rounded())) << 24 | (pixel & 0xFF_FFFF)
                gdImageSetPixel(canvas, x, y, blended)
            }
        }
    }

    /// libgd's true colours: alpha (0 opaque … 127 transparent), red, green, blue.
    struct Color: Equatable {
        var red: Int
        var green: Int
        var blue: Int

        static let transparent = Int32(127) << 24
        static let black = Color(red: 0, green: 0, blue: 0)

        /// The colour with no transparency, as libgd packs it.
        var opaque: Int32 { Int32(red << 16 | green << 8 | blue) }

        /// `#RGB`, `#RRGGBB`, or a few names; nil for `none` and anything else.
        init?(_ text: String) {
            let value = text.trimmingCharacters(in: .whitespaces).lowercased()
            switch value {
            case "white": self.init(red: 255, green: 255, blue: 255)
            case "black": self = .black
            default:
                guard value.hasPrefix("#"), let number = Int(value.dropFirst(), radix: 16) else { return nil }
                switch value.count {
                case 4:
                    self.init(
                        red: (number >> 8 & 0xF) * 17, green: (number >> 4 & 0xF) * 17, blue: (number & 0xF) * 17)
                case 7: self.init(red: number >> 16 & 0xFF, green: number >> 8 & 0xFF, blue: number & 0xFF)
                default: return nil
                }
            }
        }

        init(red: Int, green: Int, blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }
}

// MARK: - Geometry

/// A point in user or pixel units.
struct SVGPoint: Equatable {
    var x: Double
    var y: Double
}

/// An affine transform: x' = a x + c y + e, y' = b x + d y + f (SVG's `matrix(a b c d e f)`).
struct SVGTransform: Equatable {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    static let identity = SVGTransform()

    static func scale(_ s: Double, _ t: Double? = nil) -> SVGTransform { SVGTransform(a: s, d: t ?? s) }
    static func translate(_ x: Double, _ y: Double) -> SVGTransform { SVGTransform(e: x, f: y) }
    static func rotate(degrees: Double, around center: SVGPoint = SVGPoint(x: 0, y: 0)) -> SVGTransform {
        let angle = degrees * .pi / 180
        let turn = SVGTransform(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle))
        return translate(center.x, center.y).multiplied(by: turn).multiplied(by: translate(-center.x, -center.y))
    }

    /// `self` after `other`: applies `other` first.
    func multiplied(by other: SVGTransform) -> SVGTransform {
        SVGTransform(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b, c: a * other.c + c * other.d,
            d: b * other.c + d * other.d, e: a * other.e + c * other.f + e, f: b * other.e + d * other.f + f)
    }

    func apply(_ p: SVGPoint) -> SVGPoint { SVGPoint(x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f) }

    /// How much lengths grow (the mean of the two axes' scales), for stroke widths and font sizes.
    var lengthScale: Double { (sqrt(a * a + b * b) + sqrt(c * c + d * d)) / 2 }
}

// MARK: - The SVG subset

/// How a shape is painted, inherited from its groups.
struct SVGStyle {
    var fill: DemoPNG.Color? = .black
    var stroke: DemoPNG.Color?
    var strokeWidth = 1.0
    var opacity = 1.0
    var fillOpacity = 1.0
    var strokeOpacity = 1.0

    /// The style with an element's attributes applied.
    func with(_ attributes: [String: String]) -> SVGStyle {
        var style = self
        if let fill = attributes["fill"] { style.fill = DemoPNG.Color(fill) }
        if let stroke = attributes["stroke"] { style.stroke = DemoPNG.Color(stroke) }
        if let width = attributes["stroke-width"].flatMap(Double.init) { style.strokeWidth = width }
        if let value = attributes["opacity"].flatMap(Double.init) { style.opacity *= value }
        if let value = attributes["fill-opacity"].flatMap(Double.init) { style.fillOpacity = value }
        if let value = attributes["stroke-opacity"].flatMap(Double.init) { style.strokeOpacity = value }
        return style
    }
}

/// One line of text, its origin on the baseline.
struct SVGText {
    var content: String
    var origin: SVGPoint
    var fontSize: Double
    var bold: Bool
    var anchor: String
}

/// A shape as outlines (closed or open polylines) in user units, with its style and transform.
struct SVGShape {
    var outlines: [(points: [SVGPoint], closed: Bool)]
    var style: SVGStyle
    var transform: SVGTransform
    var text: SVGText?
}

/// A document of the subset, read into shapes in drawing order.
struct SVGDocument {
    var width = 0.0
    var height = 0.0
    /// From the viewBox's user units to the document's size.
    var viewBox = SVGTransform.identity
    var shapes: [SVGShape] = []

    init(_ text: String) {
        var groups: [(style: SVGStyle, transform: SVGTransform)] = [(SVGStyle(), .identity)]
        var openText: (attributes: [String: String], style: SVGStyle, transform: SVGTransform)?
        var scalars = Substring(text)
        while let open = scalars.firstIndex(of: "<") {
            let content = scalars[..<open]
            guard let close = scalars[open...].firstIndex(of: ">") else { break }
            let tag = scalars[scalars.index(after: open)..<close]
            scalars = scalars[scalars.index(after: close)...]
            if let pending = openText, tag.hasPrefix("/text") {
                shapes.append(Self.text(String(content), pending.attributes, pending.style, pending.transform))
                openText = nil
                continue
            }
            if tag.hasPrefix("/") {
                if tag.hasPrefix("/g"), groups.count > 1 { groups.removeLast() }
                continue
            }
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            let selfClosing = tag.hasSuffix("/")
            let body = selfClosing ? tag.dropLast() : tag
            let name = String(body.prefix { !$0.isWhitespace })
            let attributes = Self.attributes(body.dropFirst(name.count))
            let (inherited, outer) = groups[groups.count - 1]
            let style = inherited.with(attributes)
            let transform = outer.multiplied(by: Self.transform(attributes["transform"] ?? ""))
            switch name {
            case "svg":
                width = attributes["width"].flatMap(Double.init) ?? 0
                height = attributes["height"].flatMap(Double.init) ?? 0
                let box = (attributes["viewBox"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," })
                    .compactMap { Double($0) }
                if box.count == 4, box[2] > 0, box[3] > 0 {
                    if width == 0 { width = box[2] }
                    if height == 0 { height = box[3] }
                    viewBox = SVGTransform.scale(width / box[2], height / box[3])
                        .multiplied(by: .translate(-box[0], -box[1]))
                }
            case "g": if !selfClosing { groups.append((style, transform)) }
            case "text": if !selfClosing { openText = (attributes, style, transform) }
            default:
                if let outlines = Self.outlines(name, attributes) {
                    shapes.append(SVGShape(outlines: outlines, style: style, transform: transform))
                }
            }
        }
    }

    /// `name="value"` pairs of a tag (values as written, with `&amp;` and the like resolved).
    static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            let afterEquals = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = afterEquals.first, quote == "\"" || quote == "'" else { break }
            let valueStart = afterEquals.index(after: afterEquals.startIndex)
            guard let valueEnd = afterEquals[valueStart...].firstIndex(of: quote) else { break }
            result[name] = unescaped(String(afterEquals[valueStart..<valueEnd]))
            rest = afterEquals[afterEquals.index(after: valueEnd)...]
        }
        return result
    }

    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `rotate(a [cx cy])`, `translate(x [y])`, `scale(s [t])`, in the order written.
    static func transform(_ text: String) -> SVGTransform {
        var result = SVGTransform.identity
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            let name = rest[..<open].trimmingCharacters(in: .whitespacesAndNewlines.union(.init(charactersIn: ",")))
            let numbers = SVGPathData.numbers(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            switch (name, numbers.count) {
            case ("rotate", 1): result = result.multiplied(by: .rotate(degrees: numbers[0]))
            case ("rotate", 3):
                result = result.multiplied(
                    by: .rotate(degrees: numbers[0], around: SVGPoint(x: numbers[1], y: numbers[2])))
            case ("translate", 1): result = result.multiplied(by: .translate(numbers[0], 0))
            case ("translate", 2): result = result.multiplied(by: .translate(numbers[0], numbers[1]))
            case ("scale", 1): result = result.multiplied(by: .scale(numbers[0]))
            case ("scale", 2): result = result.multiplied(by: .scale(numbers[0], numbers[1]))
            default: break
            }
        }
        return result
    }

    static func text(_ content: String, _ attributes: [String: String], _ style: SVGStyle, _ transform: SVGTransform)
        -> SVGShape
    {
        let number = { (name: String) in attributes[name].flatMap(Double.init) ?? 0 }
        let weight = attributes["font-weight"] ?? ""
        let text = SVGText(
            content: unescaped(content).trimmingCharacters(in: .whitespacesAndNewlines),
            origin: SVGPoint(x: number("x"), y: number("y")),
            fontSize: attributes["font-size"].flatMap(Double.init) ?? 16,
            bold: weight == "bold" || (Int(weight) ?? 400) >= 600, anchor: attributes["text-anchor"] ?? "start")
        return SVGShape(outlines: [], style: style, transform: transform, text: text)
    }

    /// The outlines of a shape element, nil for an element that draws nothing.
    static func outlines(_ name: String, _ attributes: [String: String]) -> [(points: [SVGPoint], closed: Bool)]? {
        let number = { (name: String) in attributes[name].flatMap(Double.init) ?? 0 }
        switch name {
        case "rect":
            let (x, y, w, h) = (number("x"), number("y"), number("width"), number("height"))
            guard w > 0, h > 0 else { return nil }
            let rx = min(w / 2, attributes["rx"].flatMap(Double.init) ?? attributes["ry"].flatMap(Double.init) ?? 0)
            let ry = min(h / 2, attributes["ry"].flatMap(Double.init) ?? rx)
            guard rx > 0, ry > 0 else {
                return [
                    (
                        [
                            SVGPoint(x: x, y: y), SVGPoint(x: x + w, y: y), SVGPoint(x: x + w, y: y + h),
                            SVGPoint(x: x, y: y + h),
                        ], true
                    )
                ]
            }
            var points: [SVGPoint] = []
            let corners = [
                (x + w - rx, y + ry, -90.0), (x + w - rx, y + h - ry, 0.0), (x + rx, y + h - ry, 90.0),
                (x + rx, y + ry, 180.0),
            ]
            for (cx, cy, start) in corners {
                for step in 0...8 {
                    let angle = (start + Double(step) * 90 / 8) * .pi / 180
                    points.append(SVGPoint(x: cx + rx * cos(angle), y: cy + ry * sin(angle)))
                }
            }
            return [(points, true)]
        case "circle":
            return ellipse(number("cx"), number("cy"), number("r"), number("r"))
        case "ellipse":
            return ellipse(number("cx"), number("cy"), number("rx"), number("ry"))
        case "polygon", "polyline":
            let values = SVGPathData.numbers(Substring(attributes["points"] ?? ""))
            let points = stride(from: 0, to: values.count - 1, by: 2).map { SVGPoint(x: values[$0], y: values[$0 + 1]) }
            return points.isEmpty ? nil : [(points, name == "polygon")]
        case "line":
            return [([SVGPoint(x: number("x1"), y: number("y1")), SVGPoint(x: number("x2"), y: number("y2"))], false)]
        case "path":
            let outlines = SVGPathData.outlines(attributes["d"] ?? "")
            return outlines.isEmpty ? nil : outlines
        default:
            return nil
        }
    }

    static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> [(points: [SVGPoint], closed: Bool)]?
    {
        guard rx > 0, ry > 0 else { return nil }
        let points = (0..<72).map { step in
            let angle = Double(step) * 2 * .pi / 72
            return SVGPoint(x: cx + rx * cos(angle), y: cy + ry * sin(angle))
        }
        return [(points, true)]
    }
}

/// Path data (`d`) to polylines: each subpath, curves and arcs cut into short lines.
enum SVGPathData {
    /// The numbers of a list (`"1.5-2 .5,3e1"`: 1.5, -2, 0.5, 30).
    static func numbers(_ text: Substring) -> [Double] {
        var scanner = Scanner(text)
        var result: [Double] = []
        while let value = scanner.number() { result.append(value) }
        return result
    }

    /// A cursor over path data: commands and the numbers between them.
    struct Scanner {
        let characters: [Character]
        var index = 0

        init(_ text: Substring) { characters = Array(text) }

        mutating func skipSeparators() {
            while index < characters.count, characters[index].isWhitespace || characters[index] == "," { index += 1 }
        }

        /// The next command letter, if one comes next.
        mutating func command() -> Character? {
            skipSeparators()
            guard index < characters.count, characters[index].isLetter, characters[index] != "e",
                characters[index] != "E"
            else { return nil }
            defer { index += 1 }
            return characters[index]
        }

        /// The next number, if one comes next.
        mutating func number() -> Double? {
            skipSeparators()
            var end = index
            if end < characters.count, characters[end] == "-" || characters[end] == "+" { end += 1 }
            var digits = false
            var dot = false
            while end < characters.count {
                let character = characters[end]
                if character.isASCII, character.isNumber {
                    digits = true
                } else if character == ".", !dot {
                    dot = true
                } else {
                    break
                }
                end += 1
            }
            guard digits else { return nil }
            if end < characters.count, characters[end] == "e" || characters[end] == "E" {
                var exponent = end + 1
                if exponent < characters.count, characters[exponent] == "-" || characters[exponent] == "+" {
                    exponent += 1
                }
                if exponent < characters.count, characters[exponent].isASCII, characters[exponent].isNumber {
                    end = exponent
                    while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
                }
            }
            defer { index = end }
            return Double(String(characters[index..<end]))
        }

        /// An arc's flag: one digit, which may be written without a separator (`a5 5 0 01 10 0`).
        mutating func flag() -> Bool? {
            skipSeparators()
            guard index < characters.count, characters[index] == "0" || characters[index] == "1" else { return nil }
            defer { index += 1 }
            return characters[index] == "1"
        }
    }

    /// The subpaths of `d` as polylines in user units.
    static func outlines(_ d: String) -> [(points: [SVGPoint], closed: Bool)] {
        var scanner = Scanner(Substring(d))
        var outlines: [(points: [SVGPoint], closed: Bool)] = []
        var points: [SVGPoint] = []
        var current = SVGPoint(x: 0, y: 0)
        var start = current
        var command: Character?
        func finish(closed: Bool) {
            if points.count >= 2 { outlines.append((points, closed)) }
            points = []
        }
        while true {
            if let next = scanner.command() {
                command = next
            } else if command == nil || scanner.index >= scanner.characters.count {
                break
            }
            guard let letter = command else { break }
            let relative = letter.isLowercase
            let base = relative ? current : SVGPoint(x: 0, y: 0)
            switch letter.uppercased() {
            case "M":
                guard let x = scanner.number(), let y = scanner.number() else { return outlines }
                finish(closed: false)
                current = SVGPoint(x: base.x + x, y: base.y + y)
                start = current
                points = [current]
                // Further pairs are lines.
                command = relative ? "l" : "L"
            case "L":
                guard let x = scanner.number(), let y = scanner.number() else { return outlines }
                current = SVGPoint(x: base.x + x, y: base.y + y)
                points.append(current)
            case "H":
                guard let x = scanner.number() else { return outlines }
                current.x = relative ? current.x + x : x
                points.append(current)
            case "V":
                guard let y = scanner.number() else { return outlines }
                current.y = relative ? current.y + y : y
                points.append(current)
            case "Q":
                guard let x1 = scanner.number(), let y1 = scanner.number(), let x = scanner.number(),
                    let y = scanner.number()
                else { return outlines }
                let control = SVGPoint(x: base.x + x1, y: base.y + y1)
                let end = SVGPoint(x: base.x + x, y: base.y + y)
                let from = current
                for step in 1...12 {
                    let t = Double(step) / 12
                    let u = 1 - t
                    points.append(
                        SVGPoint(
                            x: u * u * from.x + 2 * u * t * control.x + t * t * end.x,
                            y: u * u * from.y + 2 * u * t * control.y + t * t * end.y))
                }
                current = end
            case "C":
                guard let x1 = scanner.number(), let y1 = scanner.number(), let x2 = scanner.number(),
                    let y2 = scanner.number(), let x = scanner.number(), let y = scanner.number()
                else { return outlines }
                let c1 = SVGPoint(x: base.x + x1, y: base.y + y1)
                let c2 = SVGPoint(x: base.x + x2, y: base.y + y2)
                let end = SVGPoint(x: base.x + x, y: base.y + y)
                let from = current
                for step in 1...16 {
                    let t = Double(step) / 16
                    let u = 1 - t
                    points.append(
                        SVGPoint(
                            x: u * u * u * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * end.x,
                            y: u * u * u * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * end.y))
                }
                current = end
            case "A":
                guard let rx = scanner.number(), let ry = scanner.number(), let rotation = scanner.number(),
                    let large = scanner.flag(), let sweep = scanner.flag(), let x = scanner.number(),
                    let y = scanner.number()
                else { return outlines }
                let end = SVGPoint(x: base.x + x, y: base.y + y)
                points.append(
                    contentsOf: arc(
                        from: current, to: end, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep))
                current = end
            case "Z":
                finish(closed: true)
                current = start
                points = [current]
                command = nil
            default:
                return outlines
            }
        }
        finish(closed: false)
        return outlines
    }

    /// An elliptical arc as points after `from` up to `to` (SVG's endpoint parameterization,
    /// implementation notes F.6.5 and F.6.6).
    static func arc(from: SVGPoint, to: SVGPoint, rx: Double, ry: Double, rotation: Double, large: Bool, sweep: Bool)
        -> [SVGPoint]
    {
        var rx = abs(rx)
        var ry = abs(ry)
        guard rx > 0, ry > 0, from != to else { return [to] }
        let phi = rotation * .pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let dx = (from.x - to.x) / 2
        let dy = (from.y - to.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 {
            rx *= sqrt(lambda)
            ry *= sqrt(lambda)
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        let root = denominator > 0 ? sqrt(max(0, numerator / denominator)) : 0
        let sign: Double = large == sweep ? -1 : 1
        let cx1 = sign * root * rx * y1 / ry
        let cy1 = -sign * root * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (from.x + to.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (from.y + to.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }
        let steps = max(4, Int((abs(delta) / (.pi / 24)).rounded(.up)))
        var points: [SVGPoint] = []
        for step in 1...steps {
            let t = theta + delta * Double(step) / Double(steps)
            points.append(
                SVGPoint(
                    x: cosPhi * rx * cos(t) - sinPhi * ry * sin(t) + cx,
                    y: sinPhi * rx * cos(t) + cosPhi * ry * sin(t) + cy))
        }
        points[points.count - 1] = to
        return points
    }
}
