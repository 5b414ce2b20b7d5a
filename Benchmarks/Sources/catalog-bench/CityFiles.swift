// City-like records (the shape of a GeoNames cities list: name, ASCII name, country, population,
// coordinates, time zone, elevation, alternate names), written twice with the same records: as an
// object keyed by id (`{"3040051": {...}, ...}`) and as an array whose records carry the same id as
// their first field. Issue 22 measured 235,000 such records; `make bench` imports both files and
// prints them side by side (KeyedJSONFigures), and `catalog-bench keyed-json BINARY DIR [N]` writes
// and imports them alone.
import CatalogDemo
import Foundation

enum CityFiles {
    /// Which problem, if any, the first record of the keyed file carries.
    enum FirstRecord {
        case valid
        /// An empty `name`: the record has no title (an error of mapping, not of syntax).
        case noTitle
        /// A number with a leading zero: malformed JSON inside the first member.
        case malformed
    }

    /// Writes `count` records as a keyed object to `keyedPath` and, when given, as an array to
    /// `arrayPath`, one record a line or (`oneLine`) the whole document on one line, as minified
    /// files come; the same seed gives the same records.
    static func write(
        count: Int, keyedPath: String, arrayPath: String?, firstRecord: FirstRecord = .valid, oneLine: Bool = false,
        seed: UInt64 = 22
    ) throws {
        let lineEnd = oneLine ? "" : "\n"
        let indent = oneLine ? "" : "  "
        var keyed = try Output(path: keyedPath)
        var array = try arrayPath.map { try Output(path: $0) }
        var random = SplitMix64(seed: seed)
        keyed.append("{" + lineEnd)
        array?.append("[" + lineEnd)
        for index in 0..<count {
            let id = String(3_000_000 + index * 7 + Int(random.next() % 7))
            var body = record(&random, index: index)
            if index == 0 {
                switch firstRecord {
                case .valid: break
                case .noTitle: body = body.replacingOccurrences(of: #"{"name": ""#, with: #"{"name": "", "was": ""#)
                case .malformed: body = body.replacingOccurrences(of: #""population": "#, with: #""population": 0"#)
                }
            }
            let separator = (index + 1 < count ? "," : "") + lineEnd
            keyed.append("\(indent)\"\(id)\": \(body)\(separator)")
            array?.append("\(indent){\"id\": \"\(id)\", " + body.dropFirst() + separator)
        }
        keyed.append("}\n")
        array?.append("]\n")
        try keyed.close()
        try array?.close()
    }

    /// One record's object, `{"name": ...}`.
    private static func record(_ random: inout SplitMix64, index: Int) -> String {
        let syllables = [
            "ka", "lo", "mi", "ber", "stad", "ur", "vá", "né", "os", "ga", "ri", "tön", "sel", "dor", "an", "fe",
            "hu", "ły", "zar", "ko", "lin", "bu", "mar", "ese",
        ]
        let zones = [
            "Europe/Budapest", "Europe/Berlin", "Asia/Tokyo", "America/New_York", "Africa/Lagos",
            "America/Sao_Paulo", "Asia/Kolkata", "Australia/Sydney",
        ]
        let countries = ["HU", "DE", "JP", "US", "NG", "BR", "IN", "AU", "SE", "AD", "FR", "PL"]
        func word() -> String {
            var text = ""
            for _ in 0..<(2 + Int(random.next() % 3)) {
                text += syllables[Int(random.next() % UInt64(syllables.count))]
            }
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        let name = random.next() % 4 == 0 ? word() + " " + word() : word()
        let ascii = name.folding(options: [.diacriticInsensitive], locale: nil).replacingOccurrences(of: "ł", with: "l")
        let country = countries[Int(random.next() % UInt64(countries.count))]
        let population = 1_000 + Int(random.next() % 5_000_000) / (1 + index % 50)
        let latitude = String(format: "%.3f", Double(Int(random.next() % 180_000)) / 1000 - 90)
        let longitude = String(format: "%.3f", Double(Int(random.next() % 360_000)) / 1000 - 180)
        let zone = zones[Int(random.next() % UInt64(zones.count))]
        let elevation = random.next() % 3 == 0 ? "null" : String(Int(random.next() % 3000))
        let alternates = (0..<Int(random.next() % 3)).map { _ in "\"\(word())\"" }.joined(separator: ", ")
        return "{\"name\": \"\(name)\", \"asciiname\": \"\(ascii)\", \"country\": \"\(country)\", "
            + "\"population\": \(population), \"latitude\": \(latitude), \"longitude\": \(longitude), "
            + "\"timezone\": \"\(zone)\", \"elevation\": \(elevation), \"alternate_names\": [\(alternates)]}"
    }

    /// A file written through a 1 MiB buffer.
    private struct Output {
        let handle: FileHandle
        var buffer = Data()

        init(path: String) throws {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            buffer.reserveCapacity(1 << 20)
        }

        mutating func append<S: StringProtocol>(_ text: S) {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= 1 << 20 {
                handle.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }

        mutating func close() throws {
            handle.write(buffer)
            try handle.close()
        }
    }
}
