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
        let directory = target.directoryURL
        let list = directory.appending(path: "embedded.txt")
        let listed = try String(contentsOf: list, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var inputs: [URL] = [list]
        let manager = FileManager.default
        for entry in listed {
            let url = directory.appending(path: entry)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory) else {
                throw EmbedError("embedded.txt names \(entry), which does not exist")
            }
            if isDirectory.boolValue {
                let names = try manager.contentsOfDirectory(atPath: url.path(percentEncoded: false)).sorted()
                for name in names where !name.hasPrefix(".") && !name.hasSuffix(".swift") {
                    inputs.append(url.appending(path: name))
                }
            } else {
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count - 1) files into \(target.name)",
                executable: try context.tool(named: "FileEmbedder").url,
                arguments: [directory.path(percentEncoded: false), output.path(percentEncoded: false)]
                    + inputs.dropFirst().map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}

struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
