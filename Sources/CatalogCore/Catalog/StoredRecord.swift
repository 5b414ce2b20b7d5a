import CatalogModel
import CatalogStorage
import Foundation

/// Records as engines store them: the JSON the API serves (``Record`` written with
/// ``JSONOutput``), decoded back into a ``Record`` when a page or a command needs its fields.
public enum StoredRecord {
    /// The stored JSON of `record`.
    public static func encode(_ record: Record) -> [UInt8] {
        var output = JSONOutput(capacity: 512)
        record.write(to: &output)
        return output.bytes
    }

    /// Decodes stored JSON with CatalogModel's record reader, which keeps number literals exactly
    /// (`JSONDecoder` would turn `1.50` into `1.5`) and builds no value tree.
    ///
    /// - Throws: ``StorageError`` `.engine` when the stored bytes are not a record (damaged data).
    public static func decode(_ json: [UInt8]) throws(StorageError) -> Record {
        do {
            return try Record(json: json)
        } catch {
            throw StorageError(.engine, "a stored record is damaged")
        }
    }
}

extension StoredHit {
    /// The record, decoded from its JSON.
    public func record() throws(StorageError) -> Record {
        try StoredRecord.decode(json)
    }
}

/// Category labels as engines store them beside a record: a JSON array of strings, as
/// ``JSONOutput/strings(_:)`` writes it.
public enum StoredLabels {
    /// The JSON of `labels`.
    public static func encode(_ labels: [String]) -> String {
        guard !labels.isEmpty else { return "[]" }
        var output = JSONOutput(capacity: 64)
        output.strings(labels)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The labels of stored JSON; anything malformed gives what was read up to there.
    public static func decode(_ json: String) -> [String] {
        var json = json
        return json.withUTF8 { bytes in
            var labels: [String] = []
            var index = 0
            var current: [UInt8] = []
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                guard inString else {
                    if byte == 0x22 { inString = true }
                    continue
                }
                switch byte {
                case 0x22:
                    labels.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                    inString = false
                case 0x5C where index < bytes.count:
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x6E: current.append(0x0A)
                    case 0x72: current.append(0x0D)
                    case 0x74: current.append(0x09)
                    case 0x62: current.append(0x08)
                    case 0x66: current.append(0x0C)
                    case 0x75:
                        guard var value = hex(bytes, &index) else { return labels }
                        if (0xD800..<0xDC00).contains(value), index + 1 < bytes.count, bytes[index] == 0x5C,
                            bytes[index + 1] == 0x75
                        {
                            index += 2
                            guard let low = hex(bytes, &index) else { return labels }
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        }
                        current.append(contentsOf: String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
                    default: current.append(escape)
                    }
                default:
                    current.append(byte)
                }
            }
            return labels
        }
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
