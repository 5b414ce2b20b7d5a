/// Reads image dimensions from file headers without decoding.
public enum ImageHeader {
    /// The width and height a file of `contentType` says it has, nil when its header is not
    /// one of that type (or is cut short).
    public static func dimensions(of bytes: [UInt8], contentType: String) -> (Int, Int)? {
        switch contentType {
        case "image/png":
            // Signature, then the IHDR chunk: width and height as big-endian 32-bit numbers.
            guard bytes.count >= 24, bytes[0] == 0x89, bytes[1] == 0x50, bytes[12...15].elementsEqual("IHDR".utf8)
            else { return nil }
            return (bigEndian32(bytes, 16), bigEndian32(bytes, 20))
        case "image/gif":
            guard bytes.count >= 10, bytes[0...2].elementsEqual("GIF".utf8) else { return nil }
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        case "image/jpeg":
            return jpegDimensions(bytes)
        case "image/webp":
            return webpDimensions(bytes)
        default:
            return nil
        }
    }

    static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    /// Walks the JPEG segments to the first start-of-frame marker.
    static func jpegDimensions(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            guard length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }

    /// RIFF/WEBP with a VP8, VP8L or VP8X chunk.
    static func webpDimensions(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 30, bytes[0...3].elementsEqual("RIFF".utf8), bytes[8...11].elementsEqual("WEBP".utf8)
        else { return nil }
        let chunk = String(decoding: bytes[12...15], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            return (Int(bytes[26]) | Int(bytes[27] & 0x3F) << 8, Int(bytes[28]) | Int(bytes[29] & 0x3F) << 8)
        case "VP8L":
            let b = bytes[21...24].map(Int.init)
            return (1 + (b[0] | (b[1] & 0x3F) << 8), 1 + ((b[1] >> 6) | b[2] << 2 | (b[3] & 0x0F) << 10))
        case "VP8X":
            return (
                1 + (Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16),
                1 + (Int(bytes[27]) | Int(bytes[28]) << 8 | Int(bytes[29]) << 16)
            )
        default:
            return nil
        }
    }
}
