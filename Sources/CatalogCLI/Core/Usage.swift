/// One form of a command in its help's USAGE: positional words and declared options, in order.
///
/// ```swift
/// Usage("QUERY", .option(catalog), .option(scope), .option(CommonOptions.db))
/// // catalog search QUERY --catalog ID [--scope LABEL] [--db PATH]
/// ```
///
/// An option shows as its declaration says: without brackets when required, with `...` after it
/// when repeatable.
struct Usage: Sendable {
    /// One part of the line.
    enum Item: Sendable, ExpressibleByStringLiteral {
        /// A positional such as `QUERY`, or a subcommand's name.
        case word(String)
        /// A declared option; `required` overrides its declaration (an option one form needs).
        case declared(OptionSpec, required: Bool?)
        /// An optional option with the options that only make sense beside it, inside its brackets.
        case group(OptionSpec, [OptionSpec])

        init(stringLiteral value: String) { self = .word(value) }

        /// `option`, as its declaration says.
        static func option(_ option: any OptionDeclaration) -> Item { .declared(option.spec, required: nil) }

        /// `option`, required in this form.
        static func required(_ option: any OptionDeclaration) -> Item { .declared(option.spec, required: true) }

        /// `[--first VALUE [--second VALUE]…]`: options that only make sense with `first`.
        static func group(_ first: any OptionDeclaration, _ rest: any OptionDeclaration...) -> Item {
            .group(first.spec, rest.map(\.spec))
        }

        /// The options this item names.
        var specs: [OptionSpec] {
            switch self {
            case .word: []
            case .declared(let spec, _): [spec]
            case .group(let first, let rest): [first] + rest
            }
        }

        /// The item as unbreakable pieces of the line.
        var pieces: [String] {
            switch self {
            case .word(let word):
                return [word]
            case .declared(let spec, let required):
                return [Self.render(spec, required: required ?? spec.isRequired)]
            case .group(let first, let rest):
                var pieces = ["[" + first.synopsis] + rest.map { Self.render($0, required: $0.isRequired) }
                pieces[pieces.count - 1] += "]"
                return pieces
            }
        }

        static func render(_ spec: OptionSpec, required: Bool) -> String {
            (required ? spec.synopsis : "[\(spec.synopsis)]") + (spec.isRepeatable ? "..." : "")
        }
    }

    var items: [Item]

    init(_ items: Item...) { self.items = items }
}
