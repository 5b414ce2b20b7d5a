import Foundation
import Testing

/// The documentation's code is the samples target's code: every Swift block of the DocC catalog
/// quotes a `// sample: NAME` region of Sources/CatalogClientSamples word for word (that target is
/// compiled with the package), unless it is UI framework code marked as such; and every sample is
/// shown somewhere. The one manifest block (`<!-- package: manifest -->`) is built by
/// scripts/getting-started-check.sh instead.
@Suite struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The regions of the samples, dedented.
    static func samples() throws -> [String: String] {
        var samples: [String: String] = [:]
        let folder = root.appendingPathComponent("Sources/CatalogClientSamples")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                let line = lines[index]
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// sample: ") {
                    let indent = line.prefix { $0 == " " }.count
                    let sample = String(trimmed.dropFirst("// sample: ".count))
                    var body: [String] = []
                    index += 1
                    while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "// end" {
                        body.append(
                            lines[index].trimmingCharacters(in: .whitespaces).isEmpty
                                ? "" : String(lines[index].dropFirst(indent)))
                        index += 1
                    }
                    #expect(samples[sample] == nil, "sample \(sample) is defined twice")
                    samples[sample] = body.joined(separator: "\n")
                }
                index += 1
            }
        }
        return samples
    }

    @Test func everyCodeBlockIsACompiledSample() throws {
        let samples = try Self.samples()
        #expect(samples.count >= 20)
        var shown = Set<String>()
        let catalog = Self.root.appendingPathComponent("Sources/CatalogClient/CatalogClient.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        #expect(articles.count >= 6)
        for article in articles {
            let lines = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
                .components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                guard lines[index] == "```swift" else {
                    index += 1
                    continue
                }
                let marker = index > 0 ? lines[index - 1] : ""
                var body: [String] = []
                index += 1
                while index < lines.count, lines[index] != "```" {
                    body.append(lines[index])
                    index += 1
                }
                index += 1
                // The getting-started manifest is built as a package of its own by
                // scripts/getting-started-check.sh.
                if marker == "<!-- package: manifest -->" {
                    #expect(body.first == "// swift-tools-version:6.1", "\(article): a manifest block")
                    continue
                }
                if body.first?.hasPrefix("// UI framework code") == true {
                    #expect(body.count <= 8, "\(article): UI code is kept short")
                    continue
                }
                guard marker.hasPrefix("<!-- sample: "), marker.hasSuffix(" -->") else {
                    Issue.record("\(article): a Swift block without a sample marker: \(body.first ?? "")")
                    continue
                }
                let name = String(marker.dropFirst("<!-- sample: ".count).dropLast(" -->".count))
                #expect(
                    samples[name] == body.joined(separator: "\n"), "\(article): block \(name) differs from the sample")
                shown.insert(name)
            }
        }
        #expect(
            Set(samples.keys).subtracting(shown).isEmpty, "samples never shown: \(Set(samples.keys).subtracting(shown))"
        )
    }
}
