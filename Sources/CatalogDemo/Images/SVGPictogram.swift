import CatalogSupport

/// Simple drawn pictures for the demo catalogs: a coloured tile with an initial for products, a
/// dish for recipes, a motif per cookbook category. Shapes only, in a 64 × 64 box.
enum SVGPictogram {
    /// Product tile colours, deep enough for a white initial.
    private static let tileColors = [
        "#2E6F95", "#B5523B", "#4F7942", "#7A4E9C", "#C08A1E", "#3B7F7A", "#9C3D5A", "#5A6B7D",
        "#A0522D", "#2F8F5B", "#6A5ACD", "#B03A2E",
    ]

    /// Food colours for dishes, and soft backgrounds to set them on.
    private static let foodColors = [
        "#C8462C", "#E0A526", "#6B8E23", "#8B4513", "#F2D7A6", "#9B2D5B", "#D96C3B", "#A8C256",
        "#B5651D", "#E8C872", "#7F3F98", "#4E8C5A",
    ]
    private static let backgrounds = ["#FBF3E4", "#EEF4EA", "#F6ECEC", "#EAF0F6", "#F4EEF7", "#FFF8DC"]

    private static func document(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\" width=\"64\" height=\"64\">\(body)</svg>"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingScalars(of: "&", with: "&amp;").replacingScalars(of: "<", with: "&lt;")
            .replacingScalars(of: ">", with: "&gt;")
    }

    /// A rounded tile in one of the tile colours, a faint motif for the category, the initial.
    static func product(initial: String, category: String, colorIndex: Int) -> String {
        let color = tileColors[colorIndex % tileColors.count]
        let motif: String
        switch category {
        case "Tools":
            motif =
                "<g transform=\"rotate(45 32 32)\" fill=\"#fff\" opacity=\".22\">"
                + "<rect x=\"28\" y=\"14\" width=\"8\" height=\"44\" rx=\"3\"/><circle cx=\"32\" cy=\"14\" r=\"10\"/></g>"
        case "Office":
            motif = "<rect x=\"15\" y=\"9\" width=\"34\" height=\"46\" rx=\"3\" fill=\"#fff\" opacity=\".2\"/>"
        case "Garden":
            motif =
                "<ellipse cx=\"32\" cy=\"32\" rx=\"13\" ry=\"26\" transform=\"rotate(35 32 32)\" fill=\"#fff\" opacity=\".2\"/>"
        default:
            motif =
                "<circle cx=\"32\" cy=\"32\" r=\"23\" fill=\"none\" stroke=\"#fff\" stroke-width=\"5\" opacity=\".28\"/>"
        }
        return document(
            "<rect width=\"64\" height=\"64\" rx=\"12\" fill=\"\(color)\"/>\(motif)"
                + "<text x=\"32\" y=\"42\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"28\" "
                + "font-weight=\"bold\" fill=\"#fff\">\(escaped(initial))</text>"
        )
    }

    /// A dish: a soup bowl, a cake slice, a salad or a plate, in colours that vary by recipe.
    static func dish(category: Int, colorIndex: Int) -> String {
        let food = foodColors[colorIndex % foodColors.count]
        let accent = foodColors[(colorIndex * 5 + 3) % foodColors.count]
        let background = backgrounds[colorIndex % backgrounds.count]
        var body = "<rect width=\"64\" height=\"64\" fill=\"\(background)\"/>"
        switch category {
        case 1:  // soup: a bowl from the side with steam
            body +=
                "<path d=\"M22 14q3 4 0 8M32 12q3 4 0 8M42 14q3 4 0 8\" fill=\"none\" stroke=\"#bbb\" stroke-width=\"2\"/>"
                + "<ellipse cx=\"32\" cy=\"30\" rx=\"23\" ry=\"5\" fill=\"\(food)\"/>"
                + "<path d=\"M9 30h46a23 21 0 0 1-46 0z\" fill=\"#fff\" stroke=\"#ccc\"/>"
                + "<path d=\"M14 36h36\" stroke=\"\(accent)\" stroke-width=\"3\"/>"
        case 8:  // dessert: a slice of cake
            body +=
                "<path d=\"M12 46l40-20v20z\" fill=\"\(food)\"/><path d=\"M12 46l40-20v5L12 51z\" fill=\"#fff\" opacity=\".6\"/>"
                + "<path d=\"M12 46h40v6H12z\" fill=\"\(accent)\"/><circle cx=\"44\" cy=\"24\" r=\"4\" fill=\"#C0392B\"/>"
        case 7:  // salad: leaves on a plate
            body +=
                "<circle cx=\"32\" cy=\"33\" r=\"25\" fill=\"#fff\" stroke=\"#ddd\" stroke-width=\"2\"/>"
                + "<ellipse cx=\"25\" cy=\"30\" rx=\"10\" ry=\"6\" transform=\"rotate(-30 25 30)\" fill=\"#6B8E23\"/>"
                + "<ellipse cx=\"38\" cy=\"29\" rx=\"10\" ry=\"6\" transform=\"rotate(25 38 29)\" fill=\"#8DB255\"/>"
                + "<circle cx=\"30\" cy=\"40\" r=\"5\" fill=\"\(food)\"/><circle cx=\"40\" cy=\"39\" r=\"4\" fill=\"\(accent)\"/>"
        default:  // a plate seen from above, with garnish
            let angle = colorIndex * 47 % 360
            body +=
                "<circle cx=\"32\" cy=\"32\" r=\"27\" fill=\"#fff\" stroke=\"#ddd\" stroke-width=\"2\"/>"
                + "<circle cx=\"32\" cy=\"32\" r=\"19\" fill=\"none\" stroke=\"#eee\" stroke-width=\"2\"/>"
                + "<ellipse cx=\"32\" cy=\"32\" rx=\"15\" ry=\"11\" transform=\"rotate(\(angle) 32 32)\" fill=\"\(food)\"/>"
                + "<g fill=\"\(accent)\"><circle cx=\"26\" cy=\"28\" r=\"3\"/><circle cx=\"37\" cy=\"35\" r=\"3\"/>"
                + "<circle cx=\"35\" cy=\"26\" r=\"2\"/></g>"
        }
        return document(body)
    }

    /// A white motif on a coloured disc, one per cookbook category (1–8).
    static func category(_ id: Int) -> String {
        let colors = ["#C8462C", "#D9883B", "#8B3A2B", "#C9A227", "#5E8C31", "#A0703A", "#4E8C5A", "#9B2D5B"]
        let color = colors[(id - 1 + colors.count) % colors.count]
        let motif: String
        switch id {
        case 1:  // soups: bowl
            motif =
                "<path d=\"M14 28h36a18 17 0 0 1-36 0z\"/><rect x=\"24\" y=\"45\" width=\"16\" height=\"4\" rx=\"2\"/>"
        case 2:  // starters: small plate with a bite
            motif =
                "<circle cx=\"32\" cy=\"34\" r=\"17\" fill=\"none\" stroke=\"#fff\" stroke-width=\"3\"/><circle cx=\"32\" cy=\"34\" r=\"7\"/>"
        case 3:  // meat: drumstick
            motif =
                "<ellipse cx=\"27\" cy=\"28\" rx=\"13\" ry=\"10\" transform=\"rotate(-40 27 28)\"/>"
                + "<rect x=\"34\" y=\"33\" width=\"5\" height=\"14\" rx=\"2\" transform=\"rotate(-40 36 40)\"/>"
                + "<circle cx=\"45\" cy=\"44\" r=\"4\"/>"
        case 4:  // pasta: a nest of noodles
            motif =
                "<g fill=\"none\" stroke=\"#fff\" stroke-width=\"3\"><circle cx=\"32\" cy=\"32\" r=\"16\"/>"
                + "<circle cx=\"32\" cy=\"32\" r=\"10\"/><circle cx=\"32\" cy=\"32\" r=\"4\"/></g>"
        case 5:  // vegetable stews: a pot
            motif =
                "<rect x=\"16\" y=\"26\" width=\"32\" height=\"20\" rx=\"5\"/><rect x=\"12\" y=\"22\" width=\"40\" height=\"5\" rx=\"2\"/>"
                + "<rect x=\"28\" y=\"17\" width=\"8\" height=\"4\" rx=\"2\"/>"
        case 6:  // side dishes: potatoes
            motif = "<ellipse cx=\"25\" cy=\"36\" rx=\"10\" ry=\"7\"/><ellipse cx=\"39\" cy=\"30\" rx=\"9\" ry=\"6\"/>"
        case 7:  // salads: a leaf
            motif =
                "<path d=\"M18 46C18 26 30 16 48 16C48 34 38 46 18 46z\"/>"
                + "<path d=\"M20 44L44 20\" stroke=\"" + color + "\" stroke-width=\"2\"/>"
        default:  // desserts: a cake
            motif =
                "<rect x=\"16\" y=\"30\" width=\"32\" height=\"16\" rx=\"2\"/><rect x=\"20\" y=\"22\" width=\"24\" height=\"8\" rx=\"2\"/>"
                + "<rect x=\"31\" y=\"14\" width=\"2\" height=\"7\"/>"
        }
        return document("<circle cx=\"32\" cy=\"32\" r=\"31\" fill=\"\(color)\"/><g fill=\"#fff\">\(motif)</g>")
    }
}
