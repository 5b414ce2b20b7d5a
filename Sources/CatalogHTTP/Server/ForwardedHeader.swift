import Foundation

/// Reads the hops of `Forwarded` (RFC 7239) and `X-Forwarded-For`, for ``ClientAddress``.
///
/// Nothing here trusts or throws: a value that is not understood becomes a hop without an
/// address, which ends the walk from the right in ``ClientAddress/resolve(peer:headers:trusting:)``.
enum ForwardedHeader {
    /// One proxy's report: the address it received the request from (nil: `unknown`, an
    /// obfuscated identifier or garbage) and the scheme it was received over, when said.
    struct Hop: Equatable {
        var address: String?
        var scheme: String?
    }

    /// The hops of every `Forwarded` line, in order: one per element that has a `for=`
    /// parameter (an element without one, or a malformed one, counts as a hop without an address).
    static func hops(_ lines: [String]) -> [Hop] {
        var hops: [Hop] = []
        for line in lines {
            for element in split(line, on: ",") {
                var hop = Hop()
                var named = false
                for pair in split(element, on: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let name = pair[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                    let value = unquoted(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
                    switch name {
                    case "for":
                        named = true
                        hop.address = value.flatMap(node)
                    case "proto":
                        hop.scheme = value
                    default:
                        break
                    }
                }
                if named || !element.trimmingCharacters(in: .whitespaces).isEmpty { hops.append(hop) }
            }
        }
        return hops
    }

    /// The hops of every `X-Forwarded-For` line, in order.
    static func hops(forwardedFor lines: [String]) -> [Hop] {
        list(lines).map { Hop(address: node($0)) }
    }

    /// The comma-separated values of every line, trimmed, empty ones dropped.
    static func list(_ lines: [String]) -> [String] {
        lines.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// `http` or `https` (any case), lower case; nil for anything else.
    static func scheme(_ text: String?) -> String? {
        guard let lower = text?.lowercased(), lower == "http" || lower == "https" else { return nil }
        return lower
    }

    /// The address a node names (`192.0.2.43`, `192.0.2.43:47011`, `[2001:db8::17]:4711`, a bare
    /// `2001:db8::17`), written as the server writes addresses; nil for `unknown`, an obfuscated
    /// `_name`, or anything else.
    static func node(_ text: String) -> String? {
        var host = Substring(text)
        var port: Substring = ""
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            port = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            guard port.isEmpty || port.hasPrefix(":") else { return nil }
            port = port.dropFirst()
            guard host.contains(":") else { return nil }
        } else if host.count(where: { $0 == ":" }) == 1, let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
            guard !port.isEmpty else { return nil }
        }
        // A port is digits, or obfuscated (`_abc`), never checked further.
        guard port.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter || $0 == "_" || $0 == ".") }),
            port.isEmpty || port.first == "_" || port.allSatisfy(\.isNumber), port.count <= 32
        else { return nil }
        return canonical(String(host))
    }

    /// `text` as inet_ntop writes it, when it is an IPv4 or IPv6 address.
    private static func canonical(_ text: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            guard inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        } else {
            return nil
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A parameter value without its quotes and escapes; nil when a quoted string is not closed
    /// or something follows it.
    private static func unquoted(_ text: String) -> String? {
        guard text.hasPrefix("\"") else { return text }
        var result = ""
        var escaped = false
        var closed = false
        for character in text.dropFirst() {
            if closed { return nil }
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                closed = true
            } else {
                result.append(character)
            }
        }
        return closed ? result : nil
    }

    /// `text` split on `separator` outside quoted strings.
    private static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }
}
