/// A well-known field every catalog understands. Source fields are mapped onto roles on import.
public enum Role: String, CaseIterable, Codable, Sendable, Hashable {
    case id, title, subtitle, description, categories, price, currency, quantity, country, image, featured
}
