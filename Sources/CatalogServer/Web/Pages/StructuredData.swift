import CatalogModel
import Foundation

/// schema.org JSON-LD for a record's page, with the properties search engines require: a
/// `Product` with an `Offer` (price, currency, availability) for records with a price, a `Recipe`
/// (name, image, description, total time, category) where the catalog says its records are
/// recipes, any other type the catalog names, and a generic `Thing` otherwise.
enum StructuredData {
    static func json(for record: Record, definition: CatalogDefinition, url: String) -> String {
        let base = origin(of: url) ?? ""
        let type = definition.schemaType ?? (record.price != nil ? "Product" : "Thing")
        var object: [(String, Any)] = [
            ("@context", "https://schema.org"), ("@type", Self.validType(type) ? type : "Thing"),
            ("name", record.title), ("url", url),
        ]
        if let description = record.description, !description.isEmpty { object.append(("description", description)) }
        if let image = record.image, !image.isEmpty {
            object.append(("image", [image.hasPrefix("/") ? base + image : image]))
        }
        switch type {
        case "Product":
            if let brand = record.subtitle, !brand.isEmpty {
                object.append(("brand", [("@type", "Brand"), ("name", brand)] as [(String, Any)]))
            }
            if let sku = record.fields["sku"]?.scalarText { object.append(("sku", sku)) }
            if let country = record.country.flatMap({ CountryCode($0) }) {
                object.append(("countryOfOrigin", [("@type", "Country"), ("name", country.text)] as [(String, Any)]))
            }
            if !record.categories.isEmpty { object.append(("category", record.categories.joined(separator: ", "))) }
            if let price = record.price {
                var offer: [(String, Any)] = [("@type", "Offer"), ("price", DecimalText.format(price)), ("url", url)]
                if let currency = record.currency, currency.utf8.count == 3 {
                    offer.append(("priceCurrency", currency))
                }
                if let quantity = record.quantity {
                    offer.append(
                        ("availability", quantity > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock"))
                }
                object.append(("offers", offer))
            }
        case "Recipe":
            if let subtitle = record.subtitle, !subtitle.isEmpty { object.append(("alternativeHeadline", subtitle)) }
            if !record.categories.isEmpty {
                object.append(("recipeCategory", record.categories.joined(separator: ", ")))
            }
            for name in ["totalTime", "time", "complexity", "duration"] {
                if let text = record.fields[name]?.scalarText, let duration = isoDuration(text) {
                    object.append(("totalTime", duration))
                    break
                }
            }
        default:
            break
        }
        return encode(object)
    }

    /// A schema.org type name: letters only, starting with a capital.
    static func validType(_ type: String) -> Bool {
        guard let first = type.unicodeScalars.first, (0x41...0x5A).contains(first.value), type.utf8.count <= 40 else {
            return false
        }
        return type.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
    }

    /// `https://example.org` of `https://example.org/c/x`.
    static func origin(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let host = rest.prefix { $0 != "/" }
        return String(url[..<scheme.upperBound]) + host
    }

    /// ISO 8601 for a time written as people do: "30 perc", "1 óra", "1 óra 15 perc", "45 min",
    /// "2 hours", "90 Minuten"; nil when no number with a unit is found.
    static func isoDuration(_ text: String) -> String? {
        var hours = 0
        var minutes = 0
        var found = false
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," })
        var index = 0
        while index < words.count {
            if let value = Int(words[index]), index + 1 < words.count {
                let unit = words[index + 1]
                if ["óra", "ora", "h", "hour", "hours", "stunde", "stunden", "std", "std."].contains(unit) {
                    hours += value
                    found = true
                } else if unit.hasPrefix("perc") || unit.hasPrefix("min") {
                    minutes += value
                    found = true
                }
                index += 2
            } else {
                index += 1
            }
        }
        guard found else { return nil }
        hours += minutes / 60
        minutes %= 60
        return "PT" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 || hours == 0 ? "\(minutes)M" : "")
    }

    /// JSON of ordered members (keys keep their order; values: strings, lists, nested members).
    private static func encode(_ members: [(String, Any)]) -> String {
        var output = JSONOutput(capacity: 1024)
        write(members, to: &output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    private static func write(_ members: [(String, Any)], to output: inout JSONOutput) {
        output.raw("{")
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { output.raw(",") }
            output.string(key)
            output.raw(":")
            write(value: value, to: &output)
        }
        output.raw("}")
    }

    private static func write(value: Any, to output: inout JSONOutput) {
        switch value {
        case let text as String: output.string(text)
        case let list as [String]: output.strings(list)
        case let members as [(String, Any)]: write(members, to: &output)
        default: output.raw("null")
        }
    }
}
