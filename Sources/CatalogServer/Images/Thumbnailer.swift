import CGD
import Foundation

/// Scales raster images (PNG, JPEG, GIF, WebP) down to list-row thumbnails with libgd.
///
/// The dimensions are read from the file's header first, and images over
/// ``maxPixels`` are refused before anything is decoded: a small file claiming to be 60,000 ×
/// 60,000 pixels would otherwise make the decoder allocate gigabytes.
enum Thumbnailer {
    /// The largest image decoded: 40 megapixels (about 160 MB while decoding).
    static let maxPixels = 40_000_000

    /// Why no thumbnail was made.
    enum Failure: Error, Equatable {
        /// The bytes are not an image of a kind that is scaled (or are damaged).
        case notAnImage
        /// The header says the image has more pixels than ``maxPixels``; nothing was decoded.
        case tooLarge(width: Int, height: Int)
    }

    /// `bytes` scaled to fit `size`×`size` (never enlarged), as PNG (JPEG for JPEG sources).
    ///
    /// - Throws: ``Failure``: `.tooLarge` before anything is decoded, `.notAnImage` when the
    ///   image cannot be decoded.
    static func thumbnail(of bytes: [UInt8], contentType: String, size: Int) throws(Failure) -> (
        bytes: [UInt8], contentType: String
    ) {
        guard let (width, height) = ImageHeader.dimensions(of: bytes, contentType: contentType),
            width > 0, height > 0, bytes.count < Int(Int32.max)
        else { throw .notAnImage }
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height) }
        var copy = bytes
        let decoded: gdImagePtr? = copy.withUnsafeMutableBytes { buffer in
            let count = Int32(buffer.count)
            switch contentType {
            case "image/png": return gdImageCreateFromPngPtr(count, buffer.baseAddress)
            case "image/jpeg": return gdImageCreateFromJpegPtrEx(count, buffer.baseAddress, 1)
            case "image/gif": return gdImageCreateFromGifPtr(count, buffer.baseAddress)
            case "image/webp": return gdImageCreateFromWebpPtr(count, buffer.baseAddress)
            default: return nil
            }
        }
        guard let decoded else { throw .notAnImage }
        defer { gdImageDestroy(decoded) }
        let scale = min(1, Double(size) / Double(max(cgd_width(decoded), cgd_height(decoded))))
        let newWidth = max(1, Int((Double(cgd_width(decoded)) * scale).rounded()))
        let newHeight = max(1, Int((Double(cgd_height(decoded)) * scale).rounded()))
        _ = gdImageSetInterpolationMethod(decoded, GD_BILINEAR_FIXED)
        guard let scaled = gdImageScale(decoded, UInt32(newWidth), UInt32(newHeight)) else { throw .notAnImage }
        defer { gdImageDestroy(scaled) }
        var outputSize: Int32 = 0
        let jpeg = contentType == "image/jpeg"
        let output: UnsafeMutableRawPointer?
        if jpeg {
            output = gdImageJpegPtr(scaled, &outputSize, 82)
        } else {
            gdImageSaveAlpha(scaled, 1)
            output = gdImagePngPtr(scaled, &outputSize)
        }
        guard let output, outputSize > 0 else { throw .notAnImage }
        defer { gdFree(output) }
        let result = Array(UnsafeRawBufferPointer(start: output, count: Int(outputSize)))
        return (result, jpeg ? "image/jpeg" : "image/png")
    }
}

/// Reads image dimensions from file headers without decoding.
enum ImageHeader {
    static func dimensions(of bytes: [UInt8], contentType: String) -> (Int, Int)? {
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
