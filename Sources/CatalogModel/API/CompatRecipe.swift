/// A recipe as the original cookbook API sends it (`/gethots`, `/getrecipe` …): every value a
/// string, empty when missing, `imageurl` absolute.
public struct CompatRecipe: Codable, Sendable, Hashable {
    /// The recipe's id.
    public var recid: String
    /// Its title.
    public var title: String
    /// "after aunt Mari's recipe".
    public var subtitle: String
    /// The recipe text.
    public var description: String
    /// The time it takes ("30 perc").
    public var complexity: String
    /// The picture's absolute URL, or empty.
    public var imageurl: String

    /// Creates a recipe.
    public init(
        recid: String, title: String, subtitle: String, description: String, complexity: String, imageurl: String
    ) {
        self.recid = recid
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.complexity = complexity
        self.imageurl = imageurl
    }
}

/// A category as the original cookbook API sends it (`/getcategories`).
public struct CompatCategory: Codable, Sendable, Hashable {
    /// The category's number (`catid=` of `/getrecipesbycategory`).
    public var catid: Int
    /// Its name.
    public var name: String
    /// The picture's absolute URL, or empty.
    public var imageurl: String

    /// Creates a category.
    public init(catid: Int, name: String, imageurl: String) {
        self.catid = catid
        self.name = name
        self.imageurl = imageurl
    }
}
