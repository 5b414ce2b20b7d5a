struct ImportCommand: Command {
    static let name = "import"
    static let summary = "Import records from XML, JSON, CSV or SQLite (file or URL)."
    static let options: Set<String> = []
    static let flags: Set<String> = []
    static let help = ""
    func run(_ context: CommandContext) throws {}
}
struct DemoCommand: Command {
    static let name = "demo"
    static let summary = "Add or refresh the three demo catalogs."
    static let options: Set<String> = []
    static let flags: Set<String> = []
    static let help = ""
    func run(_ context: CommandContext) throws {}
}
struct ExportCommand: Command {
    static let name = "export"
    static let summary = "Export a catalog as XML, JSON or CSV."
    static let options: Set<String> = []
    static let flags: Set<String> = []
    static let help = ""
    func run(_ context: CommandContext) throws {}
}
struct GenerateCommand: Command {
    static let name = "generate"
    static let summary = "Generate a synthetic catalog (for benchmarks)."
    static let options: Set<String> = []
    static let flags: Set<String> = []
    static let help = ""
    func run(_ context: CommandContext) throws {}
}
