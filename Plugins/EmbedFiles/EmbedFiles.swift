import Foundation
import PackagePlugin

/// Embeds a target's data files into its binary: every file under the target's `Embedded`
/// folders (`Web/Assets`, `Web/Strings`, `API/openapi.json`: whatever the target lists in
/// `embedded.txt`) becomes bytes in a generated Swift file, so the server stays one
/// self-contained executable while the files stay real `.js`, `.css` and `.json` files that
/// editors, linters and `node --check` understand.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let directory = target.directory
        let list = directory.appending(subpath: "embedded.txt")
        let listed = try String(contentsOfFile: list.string, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var inputs: [Path] = [list]
        let manager = FileManager.default
        for entry in listed {
            let url = directory.appending(subpath: entry)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.string, isDirectory: &isDirectory) else {
                throw EmbedError("embedded.txt names \(entry), which does not exist")
            }
            if isDirectory.boolValue {
                let names = try manager.contentsOfDirectory(atPath: url.string).sorted()
                for name in names where !name.hasPrefix(".") && !name.hasSuffix(".swift") {
                    inputs.append(url.appending(subpath: name))
                }
            } else {
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectory.appending(subpath: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count - 1) files into \(target.name)",
                executable: try context.tool(named: "FileEmbedder").path,
                arguments: [directory.string, output.string] + inputs.dropFirst().map(\.string),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}

struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
