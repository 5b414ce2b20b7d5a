import Foundation

/// The process's own figures as Linux reports them in `/proc/self/status`: its resident memory
/// for the import profile (`CATALOG_PROFILE=1`) and the server's metrics.
public enum ProcessStatus {
    /// The value of each field, in kB (`VmRSS:`, `VmHWM:`, `RssAnon:`, `RssFile:`), read now;
    /// nil where the system has no `/proc` or a field is missing.
    public static func kilobytes(_ fields: [String]) -> [Int]? {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            return kilobytes(fields, in: status)
        #else
            return nil
        #endif
    }

    /// The value of each field (written with its colon) in the text of a status file.
    public static func kilobytes(_ fields: [String], in status: String) -> [Int]? {
        var values: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, fields.contains(String(parts[0])), let value = Int(parts[1]) else { continue }
            values[String(parts[0])] = value
        }
        let found = fields.compactMap { values[$0] }
        return found.count == fields.count ? found : nil
    }
}
