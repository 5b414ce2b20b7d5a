/// Options several commands share, declared once: the global ones every command accepts, and
/// the ones whose name and meaning are the same wherever they appear (each command may word
/// their help for itself with ``OptionDeclaration/help(_:default:)``).
enum CommonOptions {
    /// `--db`: the catalog database; ``CommandContext/databaseLocation`` reads it.
    static let db = Option<String?>(
        "db", value: "PATH", showing: "$CATALOG_DB, else ./catalog.sqlite",
        help: "the catalog database: a file (SQLite) or a postgres:// URL")

    /// `--help` (and `-h`): the command's help instead of running it.
    static let help = Flag("help", help: "help for a command: catalog <command> --help")

    /// The options every command accepts, in the order `catalog --help` lists them.
    static let global: [any OptionDeclaration] = [db, help]

    /// `--catalog ID`: the catalog a browsing or exporting command reads.
    static let catalog = Option<String>(required: "catalog", value: "ID", help: "the catalog")

    /// `--users-db`: the accounts file; ``CommandContext/engineOptions`` reads it.
    static let usersDB = Option<String?>(
        "users-db", value: "PATH", showing: "beside the catalog database, catalog.sqlite → catalog-users.sqlite",
        help: "the accounts file")

    /// `--json`: data instead of text; ``CommandContext/json`` reads it.
    static let json = Flag("json", help: "print the result as JSON")

    /// `--quiet`: no progress display and no summary.
    static let quiet = Flag("quiet", help: "no progress display and no summary")

    /// `--max-download-mb`: the largest download of a URL source, as sent and once decoded.
    static let maxDownloadMB = Option<Int?>(
        "max-download-mb", value: "N", in: 1...1_048_576, showing: "1024",
        help: "the largest download, as sent and once decoded (gzip, deflate)")

    /// `--allow-private-fetch`: redirects of a URL source may lead to private addresses.
    static let allowPrivateFetch = Flag(
        "allow-private-fetch",
        help:
            "follow redirects to loopback, link-local and private addresses too (default: refused, unless the "
            + "redirect stays on the URL's own scheme, host and port)")
}
