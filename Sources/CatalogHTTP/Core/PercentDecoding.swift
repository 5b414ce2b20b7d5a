/// Decoding of `%XX` escapes in request targets.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`) in bytes of a target. Returns
    /// nil for a malformed escape, bytes that are not UTF-8, or a NUL. The common case (nothing
    /// escaped, ASCII) makes the string directly.
    static func decode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, plusIsSpace: Bool) -> String? {
        let plain = !bytes.contains { byte in
            byte == UInt8(ascii: "%") || byte == 0 || byte >= 0x80 || (plusIsSpace && byte == UInt8(ascii: "+"))
        }
        if plain { return String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
                continue
            case UInt8(ascii: "+") where plusIsSpace:
                decoded.append(UInt8(ascii: " "))
            default:
                decoded.append(byte)
            }
            index += 1
        }
        if decoded.contains(0) { return nil }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
