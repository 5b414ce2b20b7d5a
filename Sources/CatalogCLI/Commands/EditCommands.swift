import CatalogCollation
import CatalogCore
import CatalogImages
import CatalogModel
import CatalogStorage
import CatalogSupport
import Foundation

/// The catalog a record command works on and the rest of its positionals: `--catalog ID`, or
/// the first positional (`catalog put cookbook file.json`).
private func catalogAndItems(_ context: CommandContext) throws -> (catalog: String, rest: [String]) {
    let positionals = context.arguments.positionals
    if let given = try context.arguments[EditCommandOptions.catalog] { return (given, positionals) }
    guard let first = positionals.first else { throw CLIError.usage("name the catalog (ID or --catalog ID)") }
    return (first, Array(positionals.dropFirst()))
}

enum EditCommandOptions {
    static let catalog = Option<String?>("catalog", value: "ID", help: "the catalog (or give it as the first argument)")
}

/// Applies edits to a catalog of the command's database, as the server does (``CatalogEditor``),
/// then merges its segments as the server's maintenance thread would (``SegmentMerger``).
private func apply(_ edits: [RecordEdit], to id: String, in database: any CatalogDatabase) throws -> EditOutcome {
    let catalog = try database.read { try $0.requireCatalog(id) }
    let outcome: EditOutcome
    do {
        outcome = try CatalogEditor.apply(
            edits, to: id, in: database, collation: try ICUCollation.forImport(locale: catalog.definition.locale))
    } catch let failure as EditFailure {
        throw CLIError.failure("nothing changed: \(failure.description)")
    }
    _ = try SegmentMerger.mergeAll(catalog: id, in: database)
    return outcome
}

/// The bytes of FILE, or of standard input for `-`.
private func input(_ source: String) throws -> [UInt8] {
    if source == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: source) else {
        throw CLIError.failure("cannot read \(source)")
    }
    return Array(data)
}

/// Problems of a body as one message: every bad value with where it is.
private func describe(_ problems: RecordProblems, source: String) -> CLIError {
    let lines = problems.problems.prefix(20).map {
        "\(source)\($0.pointer.isEmpty ? "" : " at \($0.pointer)"): \($0.message)"
    }
    return CLIError.failure(lines.joined(separator: "\n") + (problems.problems.count > 20 ? "\n…" : ""))
}

/// The summary line of a batch.
private func outcomeLine(_ outcome: EditOutcome) -> String {
    let counts = Dictionary(grouping: outcome.results, by: \.result).mapValues(\.count)
    let parts = [EditOutcome.Result.created, .replaced, .deleted, .unchanged].compactMap { result in
        counts[result].map { "\($0) \(result.rawValue)" }
    }
    return (parts.isEmpty ? "nothing to do" : parts.joined(separator: ", ")) + " (change \(outcome.change))"
}

/// `catalog put ID [FILE|-]`: creates or replaces records from JSON or NDJSON.
struct PutCommand: Command {
    static let name = "put"
    static let summary = "Create or replace records from JSON or NDJSON, without importing the whole catalog."
    static let options: [any OptionDeclaration] = [EditCommandOptions.catalog, CommonOptions.json]
    static let usage = [Usage("ID", "[FILE|-]", .option(CommonOptions.json), .option(CommonOptions.db))]
    static let discussion = """
        Reads records (a JSON array, an object with "items" as an export writes it, one record, or
        NDJSON: one record per line) from FILE, or standard input without FILE or with -, and
        creates or replaces each by its id in one change: all of them or, when one is not valid,
        none. Records not named are kept. Every bad value is reported with where it is.
        """

    func run(_ context: CommandContext) throws {
        let (id, rest) = try catalogAndItems(context)
        guard rest.count <= 1 else { throw CLIError.usage("give at most one FILE") }
        let source = rest.first ?? "-"
        let body = try input(source)
        let database = try context.openExisting()
        defer { database.close() }
        let catalog = try database.read { try $0.requireCatalog(id) }
        let records: [Record]
        do {
            records = try RecordChangeReader.records(body, definition: catalog.definition)
        } catch {
            throw describe(error, source: source == "-" ? "standard input" : source)
        }
        let outcome = try apply(records.map { RecordEdit(.upsert($0)) }, to: id, in: database)
        printOutcome(outcome, context)
    }
}

/// Prints a batch's outcome: a summary line, or every result as JSON.
private func printOutcome(_ outcome: EditOutcome, _ context: CommandContext) {
    if context.json {
        context.output.line(JSON.pretty(outcome.jsonBytes))
    } else {
        context.output.line(outcomeLine(outcome))
    }
}

/// `catalog set ID ITEM FIELD=VALUE…`: changes fields of one record.
struct SetCommand: Command {
    static let name = "set"
    static let summary = "Change fields of one record: FIELD=VALUE sets, FIELD= removes."
    static let typed = Flag("json", help: "read each VALUE as JSON (12.5, true, [\"a\",\"b\"], null)")
    static let options: [any OptionDeclaration] = [EditCommandOptions.catalog, typed]
    static let usage = [Usage("ID", "ITEM", "FIELD=VALUE…", .option(typed), .option(CommonOptions.db))]
    static let discussion = """
        FIELD is a role (title, subtitle, description, categories, price, currency, quantity,
        country, image, featured), another field of the record, or NAME@LANG for a translation.
        Values are text unless --json is given; FIELD= removes the field. The record must exist
        (create records with 'catalog put'). If someone changes it meanwhile, the change is made
        again on the newer record.
        """

    func run(_ context: CommandContext) throws {
        let (id, rest) = try catalogAndItems(context)
        guard let itemID = rest.first, rest.count >= 2 else {
            throw CLIError.usage("name the item and at least one FIELD=VALUE")
        }
        let patch: [UInt8]
        do {
            patch = try MergePatch.patch(assignments: Array(rest.dropFirst()), typed: context.arguments[Self.typed])
        } catch {
            throw CLIError(status: 64, message: describe(error, source: "the arguments").message)
        }
        let database = try context.openExisting()
        defer { database.close() }
        for _ in 0..<5 {
            let (catalog, current) = try database.read { reader in
                let catalog = try reader.requireCatalog(id)
                return (catalog, try reader.item(of: catalog, id: itemID))
            }
            guard let current else { throw CLIError.failure("catalog \"\(id)\" has no item \"\(itemID)\"") }
            let record: Record
            let stored = try current.record()
            do {
                record = try MergePatch.apply(patch, to: stored, definition: catalog.definition)
            } catch {
                throw describe(error, source: "the new record")
            }
            do {
                let outcome = try CatalogEditor.apply(
                    [RecordEdit(.upsert(record), precondition: .matches(CatalogEditor.etag(of: current.json)))], to: id,
                    in: database, collation: try ICUCollation.forImport(locale: catalog.definition.locale))
                _ = try SegmentMerger.mergeAll(catalog: id, in: database)
                context.output.line(outcomeLine(outcome))
                return
            } catch is EditFailure {
                continue
            }
        }
        throw CLIError.failure("the record kept changing; try again")
    }
}

/// `catalog rm ID ITEM…`: deletes records.
struct RemoveCommand: Command {
    static let name = "rm"
    static let summary = "Delete records by id, all of them or none."
    static let options: [any OptionDeclaration] = [EditCommandOptions.catalog, CommonOptions.json]
    static let usage = [Usage("ID", "ITEM…", .option(CommonOptions.json), .option(CommonOptions.db))]
    static let discussion = "Deletes the named records in one change; when one does not exist, none is deleted."

    func run(_ context: CommandContext) throws {
        let (id, items) = try catalogAndItems(context)
        guard !items.isEmpty else { throw CLIError.usage("name at least one item") }
        let database = try context.openExisting()
        defer { database.close() }
        var seen = Set<String>()
        let edits = items.filter { seen.insert($0).inserted }.map { RecordEdit(.delete(id: $0)) }
        printOutcome(try apply(edits, to: id, in: database), context)
    }
}

/// `catalog image ID ITEM FILE|-` and `catalog image ID ITEM --remove`: a record's stored image.
struct ImageCommand: Command {
    static let name = "image"
    static let summary = "Store a record's image in the database, or remove it."
    static let remove = Flag("remove", help: "remove the record's stored image and clear its image field")
    static let options: [any OptionDeclaration] = [EditCommandOptions.catalog, remove, CommonOptions.json]
    static let usage = [
        Usage("ID", "ITEM", "FILE|-", .option(CommonOptions.json), .option(CommonOptions.db)),
        Usage("ID", "ITEM", .option(remove), .option(CommonOptions.db)),
    ]
    static let discussion = """
        Reads a JPEG, PNG, GIF or WebP file (up to 16 MB and 40 megapixels) from FILE, or standard
        input with -, decodes it and encodes it again (so metadata such as an EXIF location is not
        kept; PNG and GIF are stored as PNG), stores it in the database and points the record's
        image field at it (/images/stored/ID/ITEM/HASH.EXT), in one change of the record. Every
        server on the database serves it, with thumbnails. With --remove, the stored image goes and
        the record's image field is cleared.
        """

    func run(_ context: CommandContext) throws {
        let (id, rest) = try catalogAndItems(context)
        let removing = context.arguments[Self.remove]
        guard let itemID = rest.first, rest.count == (removing ? 1 : 2) else {
            throw CLIError.usage(
                removing ? "name the item (and no FILE with --remove)" : "name the item and the FILE (or -)")
        }
        var prepared: PreparedImage?
        if !removing {
            let source = rest[1]
            let body = try input(source)
            do {
                prepared = try ImageReader.read(body)
            } catch {
                throw CLIError.failure("\(source == "-" ? "standard input" : source): \(error.description)")
            }
        }
        let database = try context.openExisting()
        defer { database.close() }
        let catalog = try database.read { try $0.requireCatalog(id) }
        let collation = try ICUCollation.forImport(locale: catalog.definition.locale)
        do {
            if let prepared {
                let (outcome, location) = try StoredImageEditor.put(
                    prepared, of: itemID, in: id, database: database, collation: collation)
                if context.json {
                    context.output.line(JSON.pretty(outcome.jsonBytes))
                } else {
                    context.output.line(
                        "\(location.path): \(prepared.width) × \(prepared.height) \(prepared.contentType), "
                            + "\(prepared.bytes.count) bytes; " + outcomeLine(outcome))
                }
            } else {
                guard
                    let outcome = try StoredImageEditor.remove(
                        of: itemID, in: id, database: database, collation: collation)
                else { throw CLIError.failure("item \"\(itemID)\" of catalog \"\(id)\" has no stored image") }
                printOutcome(outcome, context)
            }
        } catch let failure as EditFailure {
            throw CLIError.failure("nothing changed: catalog \"\(id)\" has \(failure.description)")
        }
        _ = try SegmentMerger.mergeAll(catalog: id, in: database)
    }
}

/// `catalog history ID [ITEM]`: the change log of a catalog, or of one record.
struct HistoryCommand: Command {
    static let name = "history"
    static let summary = "Show what changed: a catalog's change log, or one record's changes."
    static let since = Option<Int?>(
        "since", value: "N", in: 0...Int(Int32.max), showing: "the newest --limit",
        help: "the catalog's changes after change N")
    static let limit = Option<Int>(
        "limit", value: "N", in: 1...CatalogLimits.maxPageSize, default: CatalogLimits.defaultPageSize,
        help: "at most N changes, from 1 to \(CatalogLimits.maxPageSize)")
    static let options: [any OptionDeclaration] = [EditCommandOptions.catalog, since, limit, CommonOptions.json]
    static let usage = [
        Usage("ID", "[ITEM]", .option(since), .option(limit), .option(CommonOptions.json), .option(CommonOptions.db))
    ]
    static let discussion = """
        Without ITEM, prints the catalog's changes after --since (the newest 50 without it), oldest
        first. With ITEM, prints that record's changes, newest first: the change number, when, who,
        what, and the title after the change. Put a record back with 'catalog restore ID ITEM --at
        N'.
        """

    func run(_ context: CommandContext) throws {
        let (id, rest) = try catalogAndItems(context)
        guard rest.count <= 1 else { throw CLIError.usage("name at most one item") }
        let limit = try context.arguments[Self.limit]
        let database = try context.openExisting()
        defer { database.close() }
        let entries = try database.read { reader in
            let catalog = try reader.requireCatalog(id)
            if let item = rest.first { return try reader.history(of: catalog, item: item, limit: limit) }
            let since = try context.arguments[Self.since] ?? max(0, catalog.change - limit)
            return try reader.changes(of: catalog, since: since, limit: limit)
        }
        if context.json {
            context.output.line(JSON.pretty(HistoryJSON(entries: entries).jsonBytes))
            return
        }
        for entry in entries {
            let title = (try? entry.record.map { try StoredRecord.decode($0).title }) ?? nil
            let fields = [
                String(entry.number), entry.time, entry.actor ?? "-", entry.kind.rawValue, entry.item ?? "",
                title ?? "",
            ]
            context.output.line(fields.map { TerminalText.field($0) }.joined(separator: "\t"))
        }
    }
}

/// Changes as JSON: `{"items":[{"actor","id","kind","number","previous","record","time"}]}`.
private struct HistoryJSON: JSONWritable {
    let entries: [StoredChange]

    func write(to output: inout JSONOutput) {
        output.object { object in
            object.member("items") { output in
                output.array(entries) { output, entry in
                    output.object { object in
                        object.string("actor", entry.actor)
                        object.string("id", entry.item)
                        object.string("kind", entry.kind.rawValue)
                        object.integer("number", entry.number)
                        object.member("previous") { output in
                            if let previous = entry.previous {
                                output.append(json: previous)
                            } else {
                                output.raw("null")
                            }
                        }
                        object.member("record") { output in
                            if let record = entry.record { output.append(json: record) } else { output.raw("null") }
                        }
                        object.string("time", entry.time)
                    }
                }
            }
        }
    }
}

/// `catalog restore ID ITEM --at N`: puts a record back as it was right after change N.
struct RestoreCommand: Command {
    static let name = "restore"
    static let summary = "Put a record back as it was at a change number (see 'catalog history')."
    static let at = Option<Int?>(
        "at", value: "N", in: 1...Int(Int32.max), showing: "required", help: "the change number to go back to")
    static let options: [any OptionDeclaration] = [
        EditCommandOptions.catalog, at, DatabaseRestore.replace, DatabaseRestore.users, CommonOptions.usersDB,
    ]
    static let usage = [
        Usage("ID", "ITEM", .option(at), .option(CommonOptions.db)),
        Usage("FILE", .option(CommonOptions.db), .option(DatabaseRestore.replace), .option(DatabaseRestore.users)),
    ]
    static let discussion = """
        Makes a new change that puts ITEM back as it was right after change N: its content then, or
        deleted if it did not exist then. The history keeps both.

        Given one FILE, a backup ('catalog backup'), puts the whole database back: checks that FILE
        is a sound catalog database of this version (PRAGMA integrity_check), then copies it into
        the database in one transaction. An existing database is overwritten only with --replace;
        a server running on it keeps running and answers with the restored catalogs at its next
        request. --users restores the accounts file too, from FILE's accounts backup.
        """

    func run(_ context: CommandContext) throws {
        if DatabaseRestore.isAsked(
            context, at: try context.arguments[Self.at], catalog: try context.arguments[EditCommandOptions.catalog])
        {
            try DatabaseRestore.run(context)
            return
        }
        let (id, rest) = try catalogAndItems(context)
        guard let itemID = rest.first, rest.count == 1 else { throw CLIError.usage("name exactly one item") }
        guard let at = try context.arguments[Self.at], at > 0 else {
            throw CLIError.usage("give --at N, a change number")
        }
        let database = try context.openExisting()
        defer { database.close() }
        let state = try database.read { reader in
            try RecordHistory.state(of: itemID, at: at, in: reader.requireCatalog(id), reader: reader)
        }
        let edit: RecordEdit
        switch state {
        case .unknown: throw CLIError.failure("the history of \"\(itemID)\" has no change \(at) (or it was pruned)")
        case .absent: edit = RecordEdit(.delete(id: itemID))
        case .present(let record): edit = RecordEdit(.upsert(record))
        }
        context.output.line(outcomeLine(try apply([edit], to: id, in: database)))
    }
}
